"""Records and personal bests: the fastest final times per event and puzzle size.

Counted results are checked results of closed (final) rounds (docs/archive.md, "Records").
A record is the fastest final time of an event and puzzle size; two equal times: the one set
first keeps it. A new time breaks a record only when a record exists and the time is faster.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import TypeVar


@dataclass(frozen=True)
class TimedResult:
    """A finished counted result: who set which final time, where and when.

    `order` sorts results in the order they were set (the edition's start, then the round).
    """

    result: int
    event: str
    puzzle_pieces: int
    final_seconds: int
    country: str
    people: tuple[int, ...]
    categories: frozenset[str]
    order: tuple[str, int]


class RecordKind(StrEnum):
    """The record a live result breaks (the badge beside it)."""

    WORLD = "WR"
    NATIONAL = "NR"


K = TypeVar("K", bound=Hashable)


def _fastest(pairs: Iterable[tuple[K, TimedResult]]) -> dict[K, TimedResult]:
    """The fastest result under each key; equal times: the one set first."""
    best: dict[K, TimedResult] = {}
    for key, result in pairs:
        held = best.get(key)
        if held is None or (result.final_seconds, result.order) < (held.final_seconds,
                                                                   held.order):
            best[key] = result
    return best


def world_records(results: Iterable[TimedResult]) -> dict[tuple[str, int, str], TimedResult]:
    """The record of each (event, puzzle size, category); "overall" counts every result."""
    return _fastest(((r.event, r.puzzle_pieces, category), r) for r in results
                    for category in ("overall", *sorted(r.categories)))


def national_records(results: Iterable[TimedResult]) -> dict[tuple[str, int, str],
                                                                TimedResult]:
    """The fastest result of each (event, puzzle size, country) over entries of one country."""
    return _fastest(((r.event, r.puzzle_pieces, r.country), r) for r in results if r.country)


def personal_bests(results: Iterable[TimedResult], person: int) -> dict[tuple[str, int],
                                                                       TimedResult]:
    """The person's fastest result of each (event, puzzle size), in any entry they were in."""
    return _fastest(((r.event, r.puzzle_pieces), r) for r in results if person in r.people)


def record_broken(final_seconds: int, *, record: int | None, rivals: Iterable[int] = ()
                  ) -> bool:
    """True when a time is faster than the standing record (there must be one) and than every
    rival time set alongside it (another line of the same round)."""
    if record is None or final_seconds >= record:
        return False
    return all(final_seconds < other for other in rivals)


def record_kind(final_seconds: int, *, world: int | None, national: int | None,
                rivals: Iterable[int] = (), national_rivals: Iterable[int] = ()
                ) -> RecordKind | None:
    """Which record a time breaks: the world record before the national one, else None."""
    if record_broken(final_seconds, record=world, rivals=rivals):
        return RecordKind.WORLD
    if record_broken(final_seconds, record=national, rivals=national_rivals):
        return RecordKind.NATIONAL
    return None

