"""Review of the Redis fallback, findings 3 and 4.

3. A Redis that hangs (SIGSTOP) rather than refusing made every judge's record wait for the
   relay's publish (live/relay.py, ~1 s each) and log a warning per record: now after a
   failed publish the process leaves publishing alone for RETRY_SECONDS (the database poll
   carries the notices), with one log line per outage.
4. With Redis down each request thread had a fallback cache of its own (Django gives each
   thread its own cache object), so the form limits were looser by the number of threads and
   the warning was logged per thread: now one fallback per process (web/redis_cache.py).

The test's own redis-server listens on 127.0.0.1:6396 (the machine's Redis on 6379 is never
touched). Skipped without redis-server unless PUZZLECOMP_MULTIPROCESS=required.
"""

from __future__ import annotations

import logging
import os
import shutil
import signal
import socket
import threading
import time
from collections.abc import Iterator

import pytest
from django.core.cache import caches
from django.test import override_settings

from puzzlecomp.live import relay
from puzzlecomp.settings.base import cache_from_env
from puzzlecomp.web import redis_cache
from tests.services import unavailable
from tests.web.test_redis_optional import OwnRedis

HUNG_PORT = 6396
# Nothing listens here: a Redis that refuses connections.
REFUSING_PORT = 6397


def listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


@pytest.fixture
def hung_redis(settings) -> Iterator[OwnRedis]:
    """A redis-server of the test's own that the test can stop with SIGSTOP (hang)."""
    binary = shutil.which("redis-server")
    if binary is None:
        unavailable("redis-server is not installed")
    if listening(HUNG_PORT):
        pytest.skip(f"port {HUNG_PORT} is taken")
    server = OwnRedis(binary)
    server.port, server.url = HUNG_PORT, f"redis://127.0.0.1:{HUNG_PORT}/0"
    server.start()
    relay.relay_close()
    settings.REDIS_URL, settings.REDIS_PREFIX = server.url, "redis-outages"
    try:
        yield server
    finally:
        assert server.process is not None
        os.kill(server.process.pid, signal.SIGCONT)
        relay.relay_close()
        server.stop()


def test_a_hung_redis_costs_one_publish_timeout_per_outage_not_one_per_record(hung_redis,
                                                                            caplog, monkeypatch):
    relay.relay_forward({"championship": 1, "n": 0})
    assert hung_redis.process is not None
    os.kill(hung_redis.process.pid, signal.SIGSTOP)
    started = time.monotonic()
    with caplog.at_level(logging.WARNING, logger="puzzlecomp.live.relay"):
        for n in range(1, 11):
            relay.relay_forward({"championship": 1, "n": n})
    # One socket timeout (1 s), not ten.
    assert time.monotonic() - started < 2.5
    assert len([m for m in caplog.messages if "could not publish" in m]) == 1

    os.kill(hung_redis.process.pid, signal.SIGCONT)
    monkeypatch.setattr(relay._outage, "retry_at", 0.0)
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="puzzlecomp.live.relay"):
        relay.relay_forward({"championship": 1, "n": 11})
        relay.relay_forward({"championship": 1, "n": 12})
    assert caplog.messages == ["live relay: publishing to Redis again"]


@pytest.fixture
def refusing_cache() -> Iterator[None]:
    if listening(REFUSING_PORT):
        pytest.skip(f"port {REFUSING_PORT} is taken")
    redis_cache._fallbacks.clear()
    url = f"redis://127.0.0.1:{REFUSING_PORT}/0"
    with override_settings(CACHES={"default": cache_from_env(url, "redis-outages")}):
        yield
    redis_cache._fallbacks.clear()


def test_with_redis_down_the_request_threads_share_one_fallback_and_one_warning(
        refusing_cache, caplog, monkeypatch):
    monkeypatch.setattr(redis_cache, "RETRY_SECONDS", 0.0)
    counts: list[int] = []

    def a_request_thread() -> None:
        # What a form's limit does: count one more try for the client.
        cache = caches["default"]
        cache.add("tries:203.0.113.9", 0)
        counts.append(cache.incr("tries:203.0.113.9"))

    with caplog.at_level(logging.WARNING, logger="puzzlecomp.web.redis_cache"):
        for _ in range(4):
            thread = threading.Thread(target=a_request_thread)
            thread.start()
            thread.join()
    assert counts == [1, 2, 3, 4]
    assert len([m for m in caplog.messages if "Redis does not answer" in m]) == 1
