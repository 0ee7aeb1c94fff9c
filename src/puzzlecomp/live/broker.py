"""Fan-out of live notices to the spectators connected to this process."""

from __future__ import annotations

import asyncio
import threading
from collections import defaultdict
from typing import Any

_lock = threading.Lock()
_subscribers: dict[str, set[tuple[asyncio.AbstractEventLoop, asyncio.Queue[Any]]]] = (
    defaultdict(set))


def subscribe(slug: str) -> asyncio.Queue[Any]:
    """A queue receiving every notice of the championship; call from the event loop."""
    queue: asyncio.Queue[Any] = asyncio.Queue()
    with _lock:
        _subscribers[slug].add((asyncio.get_running_loop(), queue))
    return queue


def unsubscribe(slug: str, queue: asyncio.Queue[Any]) -> None:
    with _lock:
        _subscribers[slug] = {s for s in _subscribers[slug] if s[1] is not queue}


def publish(slug: str, payload: dict[str, Any]) -> None:
    """Hand a notice to every subscriber; safe from any thread."""
    with _lock:
        targets = list(_subscribers.get(slug, ()))
    for loop, queue in targets:
        loop.call_soon_threadsafe(queue.put_nowait, payload)
