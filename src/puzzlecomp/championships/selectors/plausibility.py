"""What the second looks at a just recorded result compare it with (rules/plausibility.py): the
entrant's best and the record for the round's event and puzzle size, and the other tables of
its group.

A best or record is a finished, checked time of a published or final round with one puzzle of
the same size, in an event with the same code, in any championship of the installation (the
archive's included), this round excepted.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Min, QuerySet

from puzzlecomp.championships.models import (
    EntryMember,
    Puzzle,
    Result,
    Round,
    RoundState,
    Seat,
)
from puzzlecomp.rules.errors import RuleViolation
from puzzlecomp.rules.plausibility import RecordedAt, second_looks
from puzzlecomp.rules.results import Status

# The judges' actions whose results are looked at again; a head judge's writes are the look.
JUDGES_ACTIONS = ("tap", "verify", "count")
_REFERENCE_STATES = (RoundState.PUBLISHED, RoundState.FINAL)


def _puzzle_size(rnd: Round) -> int | None:
    """The pieces of the round's one puzzle; None for several puzzles or an unknown size."""
    sizes = list(Puzzle.objects.filter(round=rnd).values_list("pieces", flat=True)[:2])
    return sizes[0] if len(sizes) == 1 else None


def _reference_finishes(rnd: Round, size: int) -> QuerySet[Result]:
    one_puzzle = (Round.objects.filter(event__code=rnd.event.code, state__in=_REFERENCE_STATES)
                  .annotate(puzzle_count=Count("puzzles")).filter(puzzle_count=1,
                                                                   puzzles__pieces=size)
                  .exclude(pk=rnd.pk))
    return Result.objects.filter(round__in=one_puzzle, status=Status.FINISHED, checked=True,
                                 time_seconds__isnull=False)


def reference_times(rnd: Round, entry_id: int) -> tuple[int | None, int | None]:
    """(the entry's best, the record) for the round's event and puzzle size; None where there
    is no such finish. The best of a pair or team is that of an entry with all its members."""
    size = _puzzle_size(rnd)
    if size is None:
        return None, None
    finishes = _reference_finishes(rnd, size)
    record = finishes.aggregate(fastest=Min("time_seconds"))["fastest"]
    people = list(EntryMember.objects.filter(entry_id=entry_id).values_list("person_id",
                                                                            flat=True))
    best = None
    if people:
        own = finishes
        for person in people:
            own = own.filter(entry__members__person_id=person)
        best = own.aggregate(fastest=Min("time_seconds"))["fastest"]
    return best, record


def _at_table(number: int, table: int | None, status: str, time: int | None,
              missing: int) -> RecordedAt:
    return RecordedAt(str(number), table, status == Status.FINISHED, time, missing)


def second_looks_at(rnd: Round, entry_id: int, *, action: str, new: dict[str, Any],
                    old: dict[str, Any] | None) -> list[RuleViolation]:
    """Why the result just written (`new`, over `old`) deserves a second look; read inside the
    write's transaction."""
    seat = Seat.objects.filter(round=rnd, entry_id=entry_id).values_list(
        "entry__number", "table", "group").first()
    if seat is None:
        return []
    number, table, group = seat
    recorded = _at_table(number, table, new["status"], new["time_seconds"], new["missing"])
    best = record = None
    if recorded.finished and recorded.time_seconds is not None:
        best, record = reference_times(rnd, entry_id)
    others = [_at_table(*row) for row in Result.objects.filter(
        round=rnd, status=Status.FINISHED, time_seconds=recorded.time_seconds,
        entry__seats__round=rnd, entry__seats__group=group).exclude(entry_id=entry_id)
        .values_list("entry__number", "entry__seats__table", "status", "time_seconds",
                     "missing")] if recorded.finished and recorded.time_seconds else []
    was_finished = (old is not None and old["status"] == Status.FINISHED
                    and old["time_seconds"] is not None)
    return second_looks(recorded, best_seconds=best, record_seconds=record,
                        finished_before=old["time_seconds"] if was_finished and action == "count"
                        else None, others=others)
