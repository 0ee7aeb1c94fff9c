"""The live app's database reads, run from the event loop on a small pool of threads.

Each read closes its connection when done, as Django does at the end of a request under ASGI:
a pooled thread holds no connection between reads (nothing stale after a database restart,
nothing left open when a test database is dropped). Reads are few: one per number per round
for snapshots, one shared by all requests waiting at a moment for the current number.
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, ParamSpec, TypeVar

from asgiref.sync import sync_to_async
from django.db import connection

from puzzlecomp.championships.models import Championship, Notice, Round, RoundState
from puzzlecomp.championships.notices import notice_payload
from puzzlecomp.championships.services.rounds import round_advance
from puzzlecomp.live.snapshot import Snapshot, round_snapshot_cached
from puzzlecomp.rules.errors import RulesError

logger = logging.getLogger(__name__)

P = ParamSpec("P")
R = TypeVar("R")

# Reads are short; a few threads keep a burst of snapshot builds from queueing the clock reads.
LIVE_READ_THREADS = 4
_executor = ThreadPoolExecutor(max_workers=LIVE_READ_THREADS,
                               thread_name_prefix="puzzlecomp-live-db")


def reads_wait(timeout: float) -> None:
    """Return once every read already handed to the threads has finished, cancelled or not
    (a cancelled await leaves its read running): before a test's database is flushed."""
    barrier = threading.Barrier(LIVE_READ_THREADS + 1)
    for _ in range(LIVE_READ_THREADS):
        _executor.submit(barrier.wait, timeout)
    barrier.wait(timeout)


def in_db_thread(read: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    """An awaitable version of a synchronous read, run off the event loop."""

    def guarded(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return read(*args, **kwargs)
        finally:
            connection.close()

    return sync_to_async(guarded, thread_sensitive=False, executor=_executor)


@dataclass(frozen=True)
class LiveChampionship:
    id: int
    slug: str
    published: bool
    live_seq: int
    created_at: dt.datetime


def live_championship(slug: str) -> LiveChampionship | None:
    """The championship's number of the last notice, read fresh."""
    row = (Championship.objects.filter(slug=slug)
           .values_list("id", "slug", "published", "live_seq", "created_at").first())
    return LiveChampionship(*row) if row else None


def snapshot_at(championship: LiveChampionship, round_id: int, seq: int) -> Snapshot | None:
    """The round's snapshot at `seq`; None when the round is not one of the championship's."""
    rnd = (Round.objects.select_related("event__championship")
           .filter(pk=round_id, event__championship_id=championship.id).first())
    if rnd is None:
        return None
    return round_snapshot_cached(rnd, seq)


def live_seqs() -> dict[int, tuple[str, int]]:
    """Every championship's slug and number of the last notice."""
    return {pk: (slug, seq) for pk, slug, seq
            in Championship.objects.values_list("id", "slug", "live_seq")}


# A pump that fell this far behind sends only the newest notices; clients see the gap.
NOTICES_PER_POLL = 50


def notices_after(championship_id: int, seq: int) -> list[dict[str, Any]]:
    """The notices numbered after `seq`, oldest first (at most the newest NOTICES_PER_POLL)."""
    rows = (Notice.objects.filter(championship_id=championship_id, seq__gt=seq)
            .order_by("-seq").values_list("championship__slug", "seq", "round_id", "kind")
            [:NOTICES_PER_POLL])
    return [notice_payload(*row) for row in reversed(rows)]


def running_rounds_advance() -> None:
    """Move running rounds past their limit to counting (announcing it), as any read would."""
    for rnd in Round.objects.select_related("event__championship").filter(
            state=RoundState.RUNNING, starts_at__isnull=False):
        try:
            round_advance(rnd)
        except RulesError:  # a round without a known limit must not stop the notices
            logger.warning("live: round %s has no time limit to check", rnd.pk)
