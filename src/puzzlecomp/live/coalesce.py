"""Folding many concurrent asks for the same thing into one database trip (on one event loop)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable
from typing import Any, Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class FreshRead(Generic[K, V]):
    """Reads that must see every change committed before they were asked for.

    A caller joins a read that has not started yet, never one already under way (it might
    miss a commit the caller has been told about); a read of a key starts when the previous one
    ends. So a thousand spectators asking at once cost a few reads, each one fresh.
    """

    def __init__(self, read: Callable[[K], Awaitable[V]]) -> None:
        self._read = read
        self._waiting: dict[K, asyncio.Future[V]] = {}
        self._locks: dict[K, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    async def get(self, key: K) -> V:
        future = self._waiting.get(key)
        if future is None:
            future = asyncio.get_running_loop().create_future()
            self._waiting[key] = future
            task = asyncio.ensure_future(self._run(key, future))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        return await asyncio.shield(future)

    async def _run(self, key: K, future: asyncio.Future[V]) -> None:
        lock = self._locks.setdefault(key, asyncio.Lock())
        async with lock:
            # From here on, newcomers wait for the next read.
            del self._waiting[key]
            try:
                future.set_result(await self._read(key))
            except Exception as exc:
                future.set_exception(exc)
                # Nobody may be left to look at it (all callers cancelled).
                future.add_done_callback(_retrieve)


class OnceEach(Generic[K, V]):
    """One run of `make(key)` at a time per key; callers of a key under way share its result."""

    def __init__(self) -> None:
        self._running: dict[K, asyncio.Future[V]] = {}

    async def get(self, key: K, make: Callable[[], Awaitable[V]]) -> V:
        future = self._running.get(key)
        if future is None:
            future = asyncio.ensure_future(make())
            self._running[key] = future
            future.add_done_callback(lambda _: self._running.pop(key, None))
            future.add_done_callback(_retrieve)
        return await asyncio.shield(future)


def _retrieve(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()
