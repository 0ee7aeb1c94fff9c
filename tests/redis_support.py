"""The Redis this machine runs on localhost, shared by the tests that need one.

`PUZZLECOMP_TEST_REDIS_URL` points elsewhere (default redis://127.0.0.1:6379/0). Other users of
that Redis are left alone: a test session keeps its cache keys and its notices' channel under a
prefix of its own (PUZZLECOMP_REDIS_PREFIX) and deletes its keys at the end.
"""

from __future__ import annotations

import os
import uuid

import pytest
import redis

MACHINE_REDIS_URL = os.environ.get("PUZZLECOMP_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def machine_redis_url() -> str:
    """The URL when that Redis answers; otherwise a skip, or a failure where CI requires it
    (PUZZLECOMP_MULTIPROCESS=required)."""
    client = redis.Redis.from_url(MACHINE_REDIS_URL, socket_connect_timeout=2)
    try:
        client.ping()
    except redis.RedisError as error:
        reason = f"Redis is not answering at {MACHINE_REDIS_URL} ({error})"
        if os.environ.get("PUZZLECOMP_MULTIPROCESS") == "required":
            pytest.fail(f"Redis is required here but {reason}")
        pytest.skip(reason)
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
