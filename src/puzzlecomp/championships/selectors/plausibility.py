"""What the second looks at a just recorded result compare it with (rules/plausibility.py): the
time expected of the entrant (its rating from history at its group's pace so far), the group's
other finishes, the record for the round's event and puzzle size when that check is on, and
the other tables of its group.

A record is a finished, checked time of a published or final round with one puzzle of the same
size, in an event with the same code, in any championship of the installation (the archive's
included), this round excepted.
"""

from __future__ import annotations

import math
import time
from collections import defaultdict
from collections.abc import Mapping
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
from puzzlecomp.championships.selectors.history import RATED_STATUSES, history_ratings
from puzzlecomp.planning.fairness import GroupEntrant, expected_seconds, group_paces
from puzzlecomp.rules.errors import RuleViolation
from puzzlecomp.rules.plausibility import (
    DEFAULT_LIMITS,
    RecordedAt,
    now_ahead_of_group,
    second_looks,
)
from puzzlecomp.rules.results import Status

# The judges' actions whose results are looked at again; a head judge's writes are the look.
JUDGES_ACTIONS = ("tap", "verify", "count")
_REFERENCE_STATES = (RoundState.PUBLISHED, RoundState.FINAL)
REFERENCE_ROUNDS_SECONDS = 60


# (round id, puzzle size) -> (when it was read, the reference rounds), in this process only:
# the shared cache may be Redis, and a judge's record must not fail while Redis is away.
_known: dict[tuple[int, int], tuple[float, list[int]]] = {}


# event id -> (when it was read, every person's rating from the event's history).
_ratings: dict[int, tuple[float, Mapping[str, float]]] = {}


def reference_rounds_forget() -> None:
    """Read the reference rounds and ratings afresh next time (tests: databases reuse ids)."""
    _known.clear()
    _ratings.clear()


def _event_ratings(rnd: Round) -> Mapping[str, float]:
    """The event's ratings from history (about a second to read with a full archive), kept a
    minute per event: history changes only when a championship before this one does."""
    now = time.monotonic()
    read_at, ratings = _ratings.get(rnd.event_id, (-math.inf, {}))
    if now - read_at >= REFERENCE_ROUNDS_SECONDS:
        ratings = history_ratings(rnd.event)
        _ratings[rnd.event_id] = (now, ratings)
    return ratings


def expected_and_next(rnd: Round, entry_id: int, group: str, *, total_pieces: int,
                      time_limit_seconds: int | None) -> tuple[float | None, int | None]:
    """(the time expected of the entry: its members' mean rating at the pace of its group's
    results so far; the fastest other finish of the group). None where there is none: no
    history, too few rated results in the group yet, or no other finish."""
    ratings = _event_ratings(rnd)
    people: dict[int, list[str]] = defaultdict(list)
    rows = fetch(
        f"SELECT r.entry_id, r.status, r.time_seconds, r.pieces, m.person_id "
        f"FROM {table(Result)} r JOIN {table(Seat)} s ON s.round_id = r.round_id "
        f"AND s.entry_id = r.entry_id JOIN {table(EntryMember)} m ON m.entry_id = r.entry_id "
        f"WHERE r.round_id = %s AND s.{quoted('group')} = %s AND r.status IN "
        f"({', '.join(['%s'] * len(RATED_STATUSES))})",
        [rnd.pk, group, *RATED_STATUSES])
    results: dict[int, tuple[str, int | None, int | None]] = {}
    for entry, status, seconds, pieces, person in rows:
        results[entry] = (status, seconds, pieces)
        people[entry].append(str(person))

    def rating(entry: int) -> float | None:
        known = [ratings[p] for p in people[entry] if p in ratings]
        return sum(known) / len(known) if known else None

    # The entry's own result may not be written yet.
    people[entry_id] = [str(p) for (p,) in fetch(
        f"SELECT person_id FROM {table(EntryMember)} WHERE entry_id = %s", [entry_id])]

    others = [seconds for entry, (status, seconds, _) in results.items()
              if entry != entry_id and status == Status.FINISHED and seconds is not None]
    own = rating(entry_id) if ratings else None
    if own is None or not total_pieces:
        return None, min(others, default=None)
    # Without a limit an unfinished entry has no pace: the finishes alone tell the group's.
    paces = group_paces(
        (GroupEntrant(group, rating(entry), status == Status.FINISHED and seconds is not None,
                      seconds, pieces) for entry, (status, seconds, pieces) in results.items()
         if entry != entry_id and (time_limit_seconds or status == Status.FINISHED)),
        puzzle_pieces=total_pieces, time_limit_seconds=time_limit_seconds or 1)
    expected = expected_seconds(own, paces[group]) if group in paces else None
    return expected, min(others, default=None)


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


def record_time(rnd: Round, *, puzzle_sizes: tuple[int, ...]) -> int | None:
    """The record for the round's event and puzzle size; None where there is no such finish,
    or the round has several puzzles."""
    rounds = _reference_rounds(rnd, puzzle_sizes[0]) if len(puzzle_sizes) == 1 else []
    if not rounds:
        return None
    # Plain SQL (championships/plain_sql.py): asked on every finish a judge records.
    ((record,),) = fetch(
        f"SELECT MIN(r.time_seconds) FROM {table(Result)} r WHERE r.round_id IN "
        f"({', '.join(['%s'] * len(rounds))}) AND r.status = %s AND r.checked "
        "AND r.time_seconds IS NOT NULL", [*rounds, Status.FINISHED.value])
    return int(record) if record is not None else None


def _at_table(number: int, table: int | None, status: str, time: int | None,
              missing: int) -> RecordedAt:
    return RecordedAt(str(number), table, status == Status.FINISHED, time, missing)


def second_looks_at(rnd: Round, entry_id: int, *, action: str, new: dict[str, Any],
                    old: dict[str, Any] | None, puzzle_sizes: tuple[int, ...],
                    seat: Seat | None = None,
                    time_limit_seconds: int | None = None) -> list[RuleViolation]:
    """Why the result just written (`new`, over `old`) deserves a second look; read inside the
    write's transaction. `puzzle_sizes`: the round's, from its rules; `seat`: the entry's, with
    its entry, when the caller has read it."""
    if seat is None:
        seat = Seat.objects.select_related("entry").filter(round=rnd, entry_id=entry_id).first()
    if seat is None:
        return []
    recorded = _at_table(seat.entry.number, seat.table, new["status"], new["time_seconds"],
                         new["missing"])
    expected = group_next = record = None
    if recorded.finished and recorded.time_seconds is not None:
        expected, group_next = expected_and_next(rnd, entry_id, seat.group,
                                                 total_pieces=sum(puzzle_sizes),
                                                 time_limit_seconds=time_limit_seconds)
        if DEFAULT_LIMITS.faster_than_record is not None:
            record = record_time(rnd, puzzle_sizes=puzzle_sizes)
    others = _same_time(rnd, entry_id, seat.group, recorded.time_seconds) \
        if recorded.finished and recorded.time_seconds else []
    finished_before = (old["time_seconds"] if old is not None and action == "count"
                       and old["status"] == Status.FINISHED else None)
    return second_looks(recorded, expected_seconds=expected, group_next_seconds=group_next,
                        record_seconds=record, finished_before=finished_before, others=others)


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


def earlier_now_ahead(rnd: Round, entry_id: int, time_seconds: int) -> list[RuleViolation]:
    """The group's earlier finishes that the finish just recorded (`time_seconds`, of
    `entry_id`) shows to be far ahead of the group (rules/plausibility.py now_ahead_of_group);
    each violation's entry is the earlier entry's number. One query: asked on every finish."""
    rows = fetch(
        f"SELECT n.number, s.{quoted('table')}, r.status, r.time_seconds, r.missing "
        f"FROM {table(Result)} r JOIN {table(Seat)} s ON s.round_id = r.round_id "
        f"AND s.entry_id = r.entry_id JOIN {table(Entry)} n ON n.id = r.entry_id "
        f"WHERE r.round_id = %s AND r.status = %s AND r.entry_id <> %s "
        f"AND s.{quoted('group')} = (SELECT g.{quoted('group')} FROM {table(Seat)} g "
        "WHERE g.round_id = %s AND g.entry_id = %s)",
        [rnd.pk, Status.FINISHED.value, entry_id, rnd.pk, entry_id])
    return now_ahead_of_group([_at_table(*row) for row in rows],
                              RecordedAt("", None, True, time_seconds))
