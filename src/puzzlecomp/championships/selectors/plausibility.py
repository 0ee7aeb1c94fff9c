"""What the second looks at a just recorded result compare it with (rules/plausibility.py): the
entrant's best and the record for the round's event and puzzle size, and the other tables of
its group.

A best or record is a finished, checked time of a published or final round with one puzzle of
the same size, in an event with the same code, in any championship of the installation (the
archive's included), this round excepted.
"""

from __future__ import annotations

import math
import time
from typing import Any

from django.db.models import Count

from puzzlecomp.championships.models import (
    Entry,
    EntryMember,
    Result,
    Round,
    RoundState,
    Seat,
)
from puzzlecomp.championships.plain_sql import fetch, quoted, table
from puzzlecomp.rules.errors import RuleViolation
from puzzlecomp.rules.plausibility import RecordedAt, second_looks
from puzzlecomp.rules.results import Status

# The judges' actions whose results are looked at again; a head judge's writes are the look.
JUDGES_ACTIONS = ("tap", "verify", "count")
_REFERENCE_STATES = (RoundState.PUBLISHED, RoundState.FINAL)
REFERENCE_ROUNDS_SECONDS = 60


# (round id, puzzle size) -> (when it was read, the reference rounds), in this process only:
# the shared cache may be Redis, and a judge's record must not fail while Redis is away.
_known: dict[tuple[int, int], tuple[float, list[int]]] = {}


def reference_rounds_forget() -> None:
    """Read the reference rounds afresh next time (tests: databases reuse ids)."""
    _known.clear()


def _reference_rounds(rnd: Round, size: int) -> list[int]:
    """The published or final rounds of one puzzle of `size` pieces in events with the round's
    code. Kept a minute per round: a judge's every record asks, and they change rarely."""
    now = time.monotonic()
    read_at, rounds = _known.get((rnd.pk, size), (-math.inf, []))
    if now - read_at >= REFERENCE_ROUNDS_SECONDS:
        rounds = list(Round.objects.filter(event__code=rnd.event.code,
                                           state__in=_REFERENCE_STATES)
                      .annotate(puzzle_count=Count("puzzles"))
                      .filter(puzzle_count=1, puzzles__pieces=size).exclude(pk=rnd.pk)
                      .values_list("pk", flat=True))
        _known[(rnd.pk, size)] = (now, rounds)
    return rounds


def reference_times(rnd: Round, entry_id: int, *,
                    puzzle_sizes: tuple[int, ...]) -> tuple[int | None, int | None]:
    """(the entry's best, the record) for the round's event and puzzle size; None where there
    is no such finish, or the round has several puzzles. The best of a pair or team is that of
    an entry with all its members."""
    rounds = _reference_rounds(rnd, puzzle_sizes[0]) if len(puzzle_sizes) == 1 else []
    if not rounds:
        return None, None
    # Plain SQL (championships/plain_sql.py): asked on every finish a judge records.
    counted = (f"FROM {table(Result)} r WHERE r.round_id IN "
               f"({', '.join(['%s'] * len(rounds))}) AND r.status = %s AND r.checked "
               "AND r.time_seconds IS NOT NULL")
    members = f"FROM {table(EntryMember)} m WHERE m.entry_id = %s"
    with_all_members = (f"SELECT o.entry_id FROM {table(EntryMember)} o "
                        f"WHERE o.person_id IN (SELECT m.person_id {members}) "
                        f"GROUP BY o.entry_id HAVING COUNT(*) = (SELECT COUNT(*) {members})")
    finished = Status.FINISHED.value
    ((best, record),) = fetch(
        f"SELECT (SELECT MIN(r.time_seconds) {counted} AND r.entry_id IN ({with_all_members})),"
        f" (SELECT MIN(r.time_seconds) {counted})",
        [*rounds, finished, entry_id, entry_id, *rounds, finished])
    return best, record


def _at_table(number: int, table: int | None, status: str, time: int | None,
              missing: int) -> RecordedAt:
    return RecordedAt(str(number), table, status == Status.FINISHED, time, missing)


def second_looks_at(rnd: Round, entry_id: int, *, action: str, new: dict[str, Any],
                    old: dict[str, Any] | None, puzzle_sizes: tuple[int, ...],
                    seat: Seat | None = None) -> list[RuleViolation]:
    """Why the result just written (`new`, over `old`) deserves a second look; read inside the
    write's transaction. `puzzle_sizes`: the round's, from its rules; `seat`: the entry's, with
    its entry, when the caller has read it."""
    if seat is None:
        seat = Seat.objects.select_related("entry").filter(round=rnd, entry_id=entry_id).first()
    if seat is None:
        return []
    recorded = _at_table(seat.entry.number, seat.table, new["status"], new["time_seconds"],
                         new["missing"])
    best = record = None
    if recorded.finished and recorded.time_seconds is not None:
        best, record = reference_times(rnd, entry_id, puzzle_sizes=puzzle_sizes)
    others = _same_time(rnd, entry_id, seat.group, recorded.time_seconds) \
        if recorded.finished and recorded.time_seconds else []
    finished_before = (old["time_seconds"] if old is not None and action == "count"
                       and old["status"] == Status.FINISHED else None)
    return second_looks(recorded, best_seconds=best, record_seconds=record,
                        finished_before=finished_before, others=others)


def _same_time(rnd: Round, entry_id: int, group: str, time_seconds: int) -> list[RecordedAt]:
    """The other tables of the group with a finish at the same second (plain SQL: asked on
    every finish a judge records)."""
    return [_at_table(*row) for row in fetch(
        f"SELECT n.number, s.{quoted('table')}, r.status, r.time_seconds, r.missing "
        f"FROM {table(Result)} r JOIN {table(Seat)} s ON s.round_id = r.round_id "
        f"AND s.entry_id = r.entry_id JOIN {table(Entry)} n ON n.id = r.entry_id "
        "WHERE r.round_id = %s AND r.status = %s AND r.time_seconds = %s "
        f"AND s.{quoted('group')} = %s AND r.entry_id <> %s",
        [rnd.pk, Status.FINISHED.value, time_seconds, group, entry_id])]
