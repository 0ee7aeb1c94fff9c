"""Fan-out of live notices to the spectators connected to this process.

`publish` is called from any thread (after a commit in a Django worker thread, or from the pump
on the event loop). Each subscription keeps the last number it was handed, so a notice delivered
both in-process and by the pump (or twice by the pump) reaches a spectator once, and in order.
"""

from __future__ import annotations

import asyncio
import threading
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

# A spectator that stops reading keeps at most this many notices; dropping the oldest leaves a
# gap in the numbers, and a gap makes the page refetch the snapshot.
QUEUE_LIMIT = 64


@dataclass(eq=False)
class Subscription:
    slug: str
    loop: asyncio.AbstractEventLoop
    queue: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)
    # Highest notice number handed over; older and repeated numbers are dropped.
    after: int = -1

    def offer(self, payload: dict[str, Any]) -> None:
        """Queue a notice unless already handed over; call on the subscription's loop."""
        seq = payload.get("seq", 0)
        if seq <= self.after:
            return
        self.after = seq
        if self.queue.qsize() >= QUEUE_LIMIT:
            self.queue.get_nowait()
        self.queue.put_nowait(payload)


_lock = threading.Lock()
_subscriptions: dict[str, set[Subscription]] = defaultdict(set)


def subscribe(slug: str) -> Subscription:
    """A subscription to every notice of the championship; call from the event loop."""
    subscription = Subscription(slug, asyncio.get_running_loop())
    with _lock:
        _subscriptions[slug].add(subscription)
    return subscription


def unsubscribe(subscription: Subscription) -> None:
    with _lock:
        subscribers = _subscriptions.get(subscription.slug)
        if subscribers is not None:
            subscribers.discard(subscription)
            if not subscribers:
                del _subscriptions[subscription.slug]


def subscriber_count(slug: str | None = None) -> int:
    with _lock:
        if slug is not None:
            return len(_subscriptions.get(slug, ()))
        return sum(len(s) for s in _subscriptions.values())


def subscribed_slugs() -> set[str]:
    with _lock:
        return set(_subscriptions)


def publish(slug: str, payload: dict[str, Any]) -> None:
    """Hand a notice to every subscriber of the championship; safe from any thread.

    One wake-up per event loop, not per subscriber; subscribers whose loop has closed are
    dropped.
    """
    with _lock:
        targets = list(_subscriptions.get(slug, ()))
    by_loop: dict[asyncio.AbstractEventLoop, list[Subscription]] = defaultdict(list)
    for subscription in targets:
        by_loop[subscription.loop].append(subscription)
    try:
        current: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
    except RuntimeError:
        current = None
    for loop, subscriptions in by_loop.items():
        if loop is current:
            _deliver(subscriptions, payload)
            continue
        try:
            loop.call_soon_threadsafe(_deliver, subscriptions, payload)
        except RuntimeError:  # the loop closed since it subscribed
            for subscription in subscriptions:
                unsubscribe(subscription)


def ping(loop: asyncio.AbstractEventLoop, marker: dict[str, Any]) -> None:
    """Put `marker` in the queue of every idle subscription of `loop`; call on that loop."""
    with _lock:
        targets = [s for subscribers in _subscriptions.values() for s in subscribers
                   if s.loop is loop]
    for subscription in targets:
        if subscription.queue.empty():
            subscription.queue.put_nowait(marker)


def _deliver(subscriptions: list[Subscription], payload: dict[str, Any]) -> None:
    for subscription in subscriptions:
        subscription.offer(payload)
