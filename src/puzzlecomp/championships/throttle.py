"""Limits on anonymous forms that send email (registration, password reset).

A fixed window per key in Django's cache (Redis when configured, so every app process counts
together): `add` then `incr` are atomic on both Redis and the local-memory cache.
"""

from __future__ import annotations

from django.core.cache import cache
from django.http import HttpRequest

WINDOW_SECONDS = 3600


def throttle_hit(scope: str, values: list[str], limit: int) -> bool:
    """Count one use under each value (an address, an email address); True once any of them
    has been used more than `limit` times in the hour."""
    over = False
    for value in values:
        key = f"throttle:{scope}:{value.strip().lower()}"
        cache.add(key, 0, WINDOW_SECONDS)
        try:
            count = cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, WINDOW_SECONDS)
            count = 1
        over = over or count > limit
    return over


def client_address(request: HttpRequest) -> str:
    """The client's address (uvicorn puts a trusted proxy's X-Forwarded-For here)."""
    return str(request.META.get("REMOTE_ADDR", ""))
