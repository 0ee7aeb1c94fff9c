"""Services on this machine that some tests need, skipped without them unless CI requires them
(PUZZLECOMP_MULTIPROCESS=required); and the Redis it runs on localhost.

`PUZZLECOMP_TEST_REDIS_URL` points elsewhere (default redis://127.0.0.1:6379/0). Other users of
that Redis are left alone: a test session keeps its cache keys and its notices' channel under a
prefix of its own (PUZZLECOMP_REDIS_PREFIX) and deletes its keys at the end.
"""

from __future__ import annotations

import os
import uuid
from typing import NoReturn

import pytest
import redis

MACHINE_REDIS_URL = os.environ.get("PUZZLECOMP_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def unavailable(reason: str) -> NoReturn:
    """Skip the test, or fail it where CI requires the service."""
    if os.environ.get("PUZZLECOMP_MULTIPROCESS") == "required":
        pytest.fail(f"required here, but {reason}")
    pytest.skip(reason)


def machine_redis_url() -> str:
    """The URL when that Redis answers; otherwise `unavailable`."""
    client = redis.Redis.from_url(MACHINE_REDIS_URL, socket_connect_timeout=2)
    try:
        client.ping()
    except redis.RedisError as error:
        unavailable(f"Redis is not answering at {MACHINE_REDIS_URL} ({error})")
    finally:
        client.close()
    return MACHINE_REDIS_URL


def run_prefix() -> str:
    """A prefix no other run uses."""
    return f"puzzlecomp-test-{uuid.uuid4().hex[:12]}"


def keys_delete(url: str, prefix: str) -> None:
    """Delete what the session left under its prefix (cache entries)."""
    client = redis.Redis.from_url(url, socket_connect_timeout=2)
    try:
        keys = list(client.scan_iter(match=f"{prefix}:*", count=500))
        if keys:
            client.delete(*keys)
    finally:
        client.close()
