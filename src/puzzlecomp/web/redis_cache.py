"""The shared cache in Redis, or in this process's memory while Redis does not answer.

Redis holds nothing that must survive (docs/deployment.md): the rendered results tables and the
counts of the anonymous forms' limits. When it is down, every page and form must still work, so
each cache call that fails goes to a local-memory cache instead: the tables are rendered again,
and each process counts the form limits on its own (with N processes a limit is at most N times
looser for the outage, never off). After a failure the process leaves Redis alone for
RETRY_SECONDS, so a request waits for a dead Redis at most once in that time; one log line says
when Redis went away and one when it answers again.

Django gives each request thread a cache object of its own: the fallback (its memory, its
retry time and its log lines) is one per process and Redis location, shared by the threads,
or each thread would count the form limits apart (N threads, N times looser) and log apart.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import redis
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache

RETRY_SECONDS = 5.0
# The calls of Django's cache API that reach Redis (the others are built on them).
CALLS = ("add", "get", "set", "touch", "delete", "get_many", "has_key", "incr", "set_many",
         "delete_many", "clear")

logger = logging.getLogger(__name__)


class Fallback:
    """This process's memory for one Redis location while it fails, and the outage's
    state: shared by every thread's cache object."""

    def __init__(self, name: str, params: dict[str, Any]) -> None:
        self.local = LocMemCache(name, params)
        self.redis_after = 0.0
        self.redis_down = False
        self.lock = threading.Lock()


_fallbacks: dict[str, Fallback] = {}
_fallbacks_lock = threading.Lock()


def fallback_for(server: str, params: dict[str, Any]) -> Fallback:
    name = f"redis-fallback-{server}-{params.get('KEY_PREFIX', '')}"
    with _fallbacks_lock:
        fallback = _fallbacks.get(name)
        if fallback is None:
            fallback = _fallbacks[name] = Fallback(name, params)
        return fallback


class RedisOrLocalCache(RedisCache):
    """Django's Redis cache that falls back to a local-memory cache while Redis fails."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self.fallback = fallback_for(str(server), params)
        self.local = self.fallback.local

    def _either(self, name: str, *args: Any, **kwargs: Any) -> Any:
        if time.monotonic() >= self.fallback.redis_after:
            try:
                answer = getattr(super(), name)(*args, **kwargs)
            except redis.RedisError as error:
                self._went_away(error)
            else:
                self._answers()
                return answer
        return getattr(self.local, name)(*args, **kwargs)

    def _went_away(self, error: redis.RedisError) -> None:
        fallback = self.fallback
        with fallback.lock:
            fallback.redis_after = time.monotonic() + RETRY_SECONDS
            if not fallback.redis_down:
                fallback.redis_down = True
                logger.warning("cache: Redis does not answer (%s); this process keeps the "
                               "cache in its own memory until it does", error)

    def _answers(self) -> None:
        fallback = self.fallback
        if fallback.redis_down:
            with fallback.lock:
                if fallback.redis_down:
                    fallback.redis_down = False
                    logger.warning("cache: Redis answers again")


def _falling_back(name: str) -> Callable[..., Any]:
    def call(self: RedisOrLocalCache, *args: Any, **kwargs: Any) -> Any:
        return self._either(name, *args, **kwargs)

    call.__name__ = name
    call.__doc__ = f"RedisCache.{name}, or the local cache's while Redis fails."
    return call


for _name in CALLS:
    setattr(RedisOrLocalCache, _name, _falling_back(_name))
