"""Ranking lists: people ordered by their best result of a series' recent editions.

A result's points compare it with its field (docs/archive.md, "Ranking lists"): 1000 times the
median time of the entrants it was ranked with, divided by its own time. 1000 is the middle
of the field; 2000 took half the median's time. An unfinished result stands for the time
its pace would have taken (as in the rating, docs/seeding.md), so the median is the field's.
Every member of a pair or team is credited with the entry's result.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from puzzlecomp.planning.rating import PastResult, estimated_seconds

# How many of the series' newest editions a ranking list counts.
EDITIONS_COUNTED = 3
POINTS = 1000.0


@dataclass(frozen=True)
class FieldResult:
    """A counted result and the field it was ranked in (a round, or a group of one)."""

    result: int
    field: str
    finished: bool
    final_seconds: float | None
    pieces_placed: int | None
    puzzle_pieces: int | None
    time_limit_seconds: int | None


@dataclass(frozen=True)
class ScoredResult:
    """A person's counted result with its points; `edition` sorts the series' editions."""

    person: int
    result: int
    edition: str
    points: float


@dataclass(frozen=True)
class RankingLine:
    """A person's place: their best result of the counted editions and its points."""

    place: int
    person: int
    points: float
    result: int
    counted: int


def _seconds(result: FieldResult) -> float | None:
    """The time a result stands for; None when an unfinished one has no pace to extrapolate."""
    if result.finished and result.final_seconds:
        return result.final_seconds
    if result.finished or not result.time_limit_seconds or not result.puzzle_pieces:
        return None
    return estimated_seconds(PastResult(
        edition=0, round=result.field, people=(), completed=False, time_seconds=None,
        pieces_placed=result.pieces_placed, puzzle_pieces=result.puzzle_pieces,
        time_limit_seconds=result.time_limit_seconds))


def result_points(results: Iterable[FieldResult]) -> dict[int, float]:
    """Each result's points: 1000 x its field's median time / its own time (see the module)."""
    times: dict[str, list[tuple[int, float]]] = defaultdict(list)
    for result in results:
        seconds = _seconds(result)
        if seconds is not None:
            times[result.field].append((result.result, seconds))
    points: dict[int, float] = {}
    for field in times.values():
        median = statistics.median(seconds for _, seconds in field)
        for result_id, seconds in field:
            points[result_id] = POINTS * median / seconds
    return points


def recent_editions(editions: Iterable[str], count: int = EDITIONS_COUNTED) -> tuple[str, ...]:
    """The newest `count` editions, oldest first."""
    return tuple(sorted(set(editions))[-count:])


def ranking_lines(scored: Iterable[ScoredResult], *, editions: Sequence[str]
                  ) -> list[RankingLine]:
    """Each person once, by the points of their best result in `editions`, best first.

    Points are compared as printed (one decimal); equal points share a place (the next place
    is skipped), listed by person.
    """
    counted = set(editions)
    best: dict[int, ScoredResult] = {}
    how_many: dict[int, int] = defaultdict(int)
    for one in scored:
        if one.edition not in counted:
            continue
        how_many[one.person] += 1
        held = best.get(one.person)
        if held is None or (one.points, held.edition) > (held.points, one.edition):
            best[one.person] = one
    order = sorted(best.values(), key=lambda s: (-printed_points(s.points), s.person))
    lines: list[RankingLine] = []
    for index, one in enumerate(order):
        points = printed_points(one.points)
        place = lines[-1].place if lines and lines[-1].points == points else index + 1
        lines.append(RankingLine(place, one.person, points, one.result, how_many[one.person]))
    return lines


def printed_points(points: float) -> float:
    """Points as every page prints them, to one decimal rounded half away from zero; the
    ranking compares these (issue 30: one number, one rounding on every page)."""
    return float(Decimal(repr(points)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))
