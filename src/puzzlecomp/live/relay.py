"""Optional: notices between app processes through Redis pub/sub when REDIS_URL is set.

Without it the pump carries a notice made in one process to the others within a second; with
it they have it in milliseconds. The pump keeps running either way: pub/sub loses what a
process misses while disconnected, and the numbers in the database stay the truth.

A publish runs after a judge's write, before the answer: after one fails (a Redis that hangs
costs the whole socket timeout) the process leaves publishing alone for RETRY_SECONDS and the
pump carries the notices; one log line says when publishing failed and one when it works again.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from typing import Any

import redis
import redis.asyncio as redis_async
from django.conf import settings

from puzzlecomp.live import broker

RECONNECT_SECONDS = 1.0
RETRY_SECONDS = 5.0

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_clients: dict[str, redis.Redis] = {}


class _Outage:
    """When publishing may be tried again, and whether the outage has been logged."""

    retry_at = 0.0
    logged = False


_outage = _Outage()


def relay_url() -> str:
    return str(getattr(settings, "REDIS_URL", "") or "")


def relay_channel() -> str:
    """The site's pub/sub channel (`PUZZLECOMP_REDIS_PREFIX`:live:notices)."""
    return f"{settings.REDIS_PREFIX}:live:notices"


def relay_forward(payload: dict[str, Any]) -> None:
    """Send a notice to the other processes; a Redis failure costs only speed (the pump)."""
    url = relay_url()
    if not url or time.monotonic() < _outage.retry_at:
        return
    try:
        _client(url).publish(relay_channel(), json.dumps(payload, separators=(",", ":")))
    except redis.RedisError as error:
        with _lock:
            _outage.retry_at = time.monotonic() + RETRY_SECONDS
            first, _outage.logged = not _outage.logged, True
        if first:
            logger.warning("live relay: could not publish to Redis (%s); notices travel by "
                           "the database poll; trying again in %g s", error, RETRY_SECONDS)
        return
    if _outage.logged:
        with _lock:
            first, _outage.logged = _outage.logged, False
        if first:
            logger.warning("live relay: publishing to Redis again")


def _client(url: str) -> redis.Redis:
    with _lock:
        client = _clients.get(url)
        if client is None:
            # Short timeouts: the publish runs after a judge's write, before the answer.
            client = _clients[url] = redis.Redis.from_url(url, socket_connect_timeout=1,
                                                          socket_timeout=1)
        return client


def relay_close() -> None:
    """Close the publishing connections (tests; a process shutting down)."""
    with _lock:
        for client in _clients.values():
            client.close()
        _clients.clear()
        _outage.retry_at, _outage.logged = 0.0, False


async def relay_listen(url: str) -> None:
    """Hand every notice published on the channel to this process's spectators, for ever."""
    while True:
        client = redis_async.Redis.from_url(url)
        try:
            async with client.pubsub() as pubsub:
                await pubsub.subscribe(relay_channel())
                async for message in pubsub.listen():
                    if message["type"] == "message":
                        notice = json.loads(message["data"])
                        broker.publish(notice["championship"], notice)
        except (redis.RedisError, OSError, ValueError, KeyError) as error:
            logger.warning("live relay: Redis subscription failed (%s); retrying", error)
        finally:
            await client.aclose()
        await asyncio.sleep(RECONNECT_SECONDS)
