"""The live ASGI app under /live/: the server's time, notice streams, round snapshots.

A raw ASGI app rather than Django views, so that thousands of open streams cost a queue and a
coroutine each, and the database is read only to learn a championship's current number (one
read shared by every request waiting at that moment) and to build a snapshot once per number.
The protocol is described in docs/live.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import re
import time
import weakref
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from puzzlecomp.live import broker
from puzzlecomp.live.coalesce import FreshRead, OnceEach
from puzzlecomp.live.pump import pump_ensure_started
from puzzlecomp.live.reads import LiveChampionship, in_db_thread, live_championship, snapshot_at
from puzzlecomp.live.snapshot import (
    Snapshot,
    SnapshotKey,
    etag_of,
    snapshot_cache_get,
    snapshot_key,
)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

HEARTBEAT_SECONDS = 15.0
RETRY_MS = 2000
# Put in a stream's queue by the heartbeat: send a ping (the browser can tell it is alive).
PING: dict[str, Any] = {"ping": True}

EVENTS = re.compile(r"/live/(?P<slug>[-\w]+)/events/?")
SNAPSHOT = re.compile(r"/live/(?P<slug>[-\w]+)/rounds/(?P<round>\d{1,18})/snapshot/?")

logger = logging.getLogger(__name__)

_read_championship = in_db_thread(live_championship)
_read_snapshot = in_db_thread(snapshot_at)


def server_time_ms() -> float:
    """The server's clock in epoch milliseconds (what every screen's clock is set by)."""
    return time.time() * 1000


class _LoopState:
    """Per event loop (asyncio futures and locks belong to one loop)."""

    def __init__(self) -> None:
        self.championships: FreshRead[str, LiveChampionship | None] = FreshRead(
            _read_championship)
        self.builds: OnceEach[SnapshotKey, Snapshot | None] = OnceEach()
        self.heartbeat: asyncio.Task[None] | None = None

    def heartbeat_ensure(self) -> None:
        """One timer for every stream of the loop, not a timeout per stream and wake-up: with
        5,000 streams, arming and cancelling a timer on each notice costs more than the write."""
        if self.heartbeat is None or self.heartbeat.done():
            self.heartbeat = asyncio.get_running_loop().create_task(
                _beat(), name="puzzlecomp-live-heartbeat")


async def _beat() -> None:
    loop = asyncio.get_running_loop()
    while True:
        await asyncio.sleep(HEARTBEAT_SECONDS)
        broker.ping(loop, PING)


_states: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _LoopState] = (
    weakref.WeakKeyDictionary())
# Round id -> (championship id, its creation instant) of rounds served: a 304 needs no read.
_round_owner: dict[int, tuple[int, float]] = {}


def _here() -> _LoopState:
    loop = asyncio.get_running_loop()
    state = _states.get(loop)
    if state is None:
        state = _states[loop] = _LoopState()
    return state


async def live_app(scope: Scope, receive: Receive, send: Send) -> None:
    """Serve one request under /live/."""
    if scope["method"] not in ("GET", "HEAD"):
        await _respond(scope, send, 405, _json({"detail": "method not allowed"}),
                       [(b"allow", b"GET, HEAD")])
        return
    path = scope["path"]
    if path.rstrip("/") == "/live/time":
        await _respond(scope, send, 200, _json({"now": round(server_time_ms())}),
                       [(b"cache-control", b"no-store")])
    elif match := EVENTS.fullmatch(path):
        await _events(scope, receive, send, match["slug"])
    elif match := SNAPSHOT.fullmatch(path):
        await _snapshot(scope, send, match["slug"], int(match["round"]))
    else:
        await _not_found(scope, send)


async def _public_championship(slug: str) -> LiveChampionship | None:
    """The championship read fresh (joining a read not yet started); None unless published."""
    championship = await _here().championships.get(slug)
    return championship if championship is not None and championship.published else None


async def _events(scope: Scope, receive: Receive, send: Send, slug: str) -> None:
    await pump_ensure_started()
    _here().heartbeat_ensure()
    # Subscribe before reading the number, so nothing numbered after it can slip between.
    subscription = broker.subscribe(slug)
    try:
        try:
            championship = await _public_championship(slug)
        except Exception:
            logger.exception("live: reading championship %s failed", slug)
            await _respond(scope, send, 503, _json({"detail": "database unavailable"}))
            return
        if championship is None:
            await _not_found(scope, send)
        elif scope["method"] == "HEAD":
            await _respond(scope, send, 200, b"", content_type=b"text/event-stream")
        else:
            await _stream(send, receive, subscription, championship)
    finally:
        broker.unsubscribe(subscription)


async def _stream(send: Send, receive: Receive, subscription: broker.Subscription,
                  championship: LiveChampionship) -> None:
    await send({"type": "http.response.start", "status": 200, "headers": [
        (b"content-type", b"text/event-stream; charset=utf-8"),
        (b"cache-control", b"no-cache"),
        (b"x-accel-buffering", b"no"),
    ]})
    seq = championship.live_seq
    subscription.after = max(subscription.after, seq)
    hello = {"championship": championship.slug, "seq": seq}
    closed: dict[str, Any] = {}
    watcher = asyncio.ensure_future(_until_disconnect(receive, subscription, closed))
    try:
        await _send_chunk(send, f"retry: {RETRY_MS}\n" + _event("hello", hello, seq))
        while True:
            notice = await subscription.queue.get()
            if notice is PING:
                await _send_chunk(send, _event("ping", {"now": round(server_time_ms())}))
                continue
            # Every notice waiting goes out in one write: under a burst of records a stream
            # costs one send per wake-up, not one per notice.
            chunks = []
            while True:
                if notice is closed:
                    break
                if notice is PING:  # the notices going out say the stream is alive
                    if subscription.queue.empty():
                        break
                    notice = subscription.queue.get_nowait()
                    continue
                # Queued before the hello's number was known: the hello covers it.
                if notice["seq"] > seq:
                    seq = notice["seq"]
                    chunks.append(_notice_bytes(tuple(notice.items())))
                if subscription.queue.empty():
                    break
                notice = subscription.queue.get_nowait()
            if chunks:
                await send({"type": "http.response.body", "body": b"".join(chunks),
                            "more_body": True})
            if notice is closed:
                break
    except OSError:  # the client went away while we wrote
        pass
    finally:
        watcher.cancel()
    with contextlib.suppress(OSError):
        await send({"type": "http.response.body", "body": b"", "more_body": False})


async def _until_disconnect(receive: Receive, subscription: broker.Subscription,
                            closed: dict[str, Any]) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass
    subscription.queue.put_nowait(closed)


def _event(name: str, data: dict[str, Any], seq: int | None = None) -> str:
    """One server-sent event; numbered ones set the browser's Last-Event-ID."""
    line = json.dumps(data, separators=(",", ":"))
    number = f"id: {seq}\n" if seq is not None else ""
    return f"{number}event: {name}\ndata: {line}\n\n"


@functools.lru_cache(maxsize=64)
def _notice_bytes(notice: tuple[tuple[str, Any], ...]) -> bytes:
    """A notice's event, encoded once for every stream it goes to (thousands per notice)."""
    data = dict(notice)
    return _event("notice", data, data["seq"]).encode()


async def _send_chunk(send: Send, text: str) -> None:
    await send({"type": "http.response.body", "body": text.encode(), "more_body": True})


async def _snapshot(scope: Scope, send: Send, slug: str, round_id: int) -> None:
    try:
        championship = await _public_championship(slug)
        if championship is None:
            await _not_found(scope, send)
            return
        seq = championship.live_seq
        owner = (championship.id, championship.created_at.timestamp())
        etag = etag_of(round_id, seq)
        if _round_owner.get(round_id) == owner and _etag_matches(scope, etag):
            await _not_modified(scope, send, etag)
            return
        key = snapshot_key(championship.id, championship.created_at, round_id, seq)
        snapshot = snapshot_cache_get(key) or await _here().builds.get(
            key, lambda: _read_snapshot(championship, round_id, seq))
    except Exception:
        logger.exception("live: snapshot of round %s failed", round_id)
        await _respond(scope, send, 503, _json({"detail": "database unavailable"}))
        return
    if snapshot is None:
        await _not_found(scope, send)
        return
    _round_owner[round_id] = owner
    if _etag_matches(scope, etag):
        await _not_modified(scope, send, etag)
        return
    headers = [(b"etag", snapshot.etag.encode()), (b"cache-control", b"no-cache"),
               (b"vary", b"accept-encoding")]
    if snapshot.gzipped and _accepts_gzip(scope):
        headers.append((b"content-encoding", b"gzip"))
        await _respond(scope, send, 200, snapshot.gzipped, headers)
    else:
        await _respond(scope, send, 200, snapshot.body, headers)


def _header(scope: Scope, wanted: bytes) -> str:
    for name, value in scope["headers"]:
        if name == wanted:
            return str(value.decode("latin-1"))
    return ""


def _etag_matches(scope: Scope, etag: str) -> bool:
    tags = {t.strip().removeprefix("W/") for t in _header(scope, b"if-none-match").split(",")}
    return etag in tags or "*" in tags


def _accepts_gzip(scope: Scope) -> bool:
    return "gzip" in _header(scope, b"accept-encoding")


async def _not_modified(scope: Scope, send: Send, etag: str) -> None:
    await send({"type": "http.response.start", "status": 304, "headers": [
        (b"etag", etag.encode()), (b"cache-control", b"no-cache")]})
    await send({"type": "http.response.body", "body": b""})


async def _not_found(scope: Scope, send: Send) -> None:
    await _respond(scope, send, 404, _json({"detail": "not found"}))


def _json(data: dict[str, Any]) -> bytes:
    return json.dumps(data, separators=(",", ":")).encode()


async def _respond(scope: Scope, send: Send, status: int, body: bytes,
                   headers: list[tuple[bytes, bytes]] | None = None, *,
                   content_type: bytes = b"application/json") -> None:
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", content_type),
        (b"content-length", str(len(body)).encode()),
        *(headers or []),
    ]})
    await send({"type": "http.response.body",
                "body": b"" if scope["method"] == "HEAD" else body})
