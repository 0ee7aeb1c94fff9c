"""Reads for the head judge's live screens: the state of every seat in the hall, the queues of
finishes to check and disputes to resolve, time credits, the relay's rotation and an entry's
history."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from django.db.models import Count, Prefetch, Q

from puzzlecomp.championships.engine import round_ranking, round_rules, ruleset_of
from puzzlecomp.championships.models import (
    Dispute,
    DisputeStatus,
    Entry,
    EntryMember,
    EntryStatus,
    Result,
    ResultChange,
    Round,
    RoundState,
    Seat,
    TimeCreditGrant,
)
from puzzlecomp.championships.result_values import RESULT_FIELDS, ResultValues
from puzzlecomp.championships.selectors.planning import floor_map_get
from puzzlecomp.championships.selectors.rounds import (
    group_clock_get,
    group_starts_get,
    round_limit_seconds,
    rounds_read_now,
)
from puzzlecomp.rules.credits import time_credit_refusal
from puzzlecomp.rules.errors import RulesError, RuleViolation
from puzzlecomp.rules.relay import rotation_schedule
from puzzlecomp.rules.results import Status
from puzzlecomp.rules.rounds import find_round


class SeatState(StrEnum):
    """Where an entry at its table stands, as the floor map colours it."""

    WAITING = "waiting"
    ASSEMBLING = "assembling"
    AWAITING_CHECK = "awaiting_check"
    VERIFIED = "verified"
    COUNTING = "counting"
    COUNTED = "counted"
    # Disqualified (wjpc-2025.txt, Disqualification): apart from the counts, so the head judge
    # sees at a glance who is out of the ranking.
    DISQUALIFIED = "disqualified"


# The legend lists the states in this order; a table shared by several entries shows the
# first of URGENCY among its entries' states.
SEAT_STATES = tuple(SeatState)
URGENCY = (SeatState.AWAITING_CHECK, SeatState.COUNTING, SeatState.ASSEMBLING,
           SeatState.DISQUALIFIED, SeatState.VERIFIED, SeatState.COUNTED, SeatState.WAITING)


def seat_state(*, round_state: str, result: Result | None, elapsed: float | None, limit: int,
               credit: int = 0) -> SeatState:
    """The state of one entry: from its result when there is one, else from the clock.

    An entry with a time credit keeps assembling past the round's limit until its own limit
    (wjpc-2025.txt, Start of the round: extra time equal to the delay).
    """
    if result is not None:
        if result.status == Status.DSQ:
            return SeatState.DISQUALIFIED
        if result.status != Status.FINISHED:
            return SeatState.COUNTED
        return SeatState.VERIFIED if result.checked else SeatState.AWAITING_CHECK
    if round_state == RoundState.PLANNED:
        return SeatState.WAITING
    if round_state == RoundState.RUNNING:
        return SeatState.ASSEMBLING
    if round_state == RoundState.COUNTING and elapsed is not None and elapsed < limit + credit:
        return SeatState.ASSEMBLING
    return SeatState.COUNTING


@dataclass(frozen=True)
class SeatLine:
    """One entry at its table, with its state and the result the screens show."""

    number: int
    name: str
    country: str
    table: int | None
    seat: int | None
    state: SeatState
    status: str | None = None
    time_seconds: int | None = None
    version: int = 0
    credit: int = 0
    group: str = ""
    # Withdrawn after the round began: kept on the head judge's lists as history, struck through.
    cancelled: bool = False


@dataclass(frozen=True)
class EntryRow:
    """A line of "Entries and corrections": the seat and result, with the ranking's penalty
    and final time (None before a result, or while the round's rules are incomplete)."""

    line: SeatLine
    penalty_seconds: int = 0
    final_time: int | None = None
    # The pieces that rank an unfinished result.
    pieces: int | None = None
    # Each member's name, first name first (a pair or team is found by any of them).
    members: tuple[str, ...] = ()

    @property
    def time_seconds(self) -> int | None:
        """The time the ranking starts from: the time called, or in a multi-puzzle round the
        last puzzle's finish (final time + credit - penalty)."""
        if self.line.time_seconds is not None:
            return self.line.time_seconds
        if self.final_time is None:
            return None
        return self.final_time + self.line.credit - self.penalty_seconds


@dataclass(frozen=True)
class LiveTable:
    table: int
    x: int
    y: int
    guest: bool
    seats: tuple[SeatLine, ...]

    @property
    def state(self) -> SeatState | None:
        """The most urgent state of the entries at the table (None: nobody sits there)."""
        states = {s.state for s in self.seats}
        return next((s for s in URGENCY if s in states), None)


@dataclass(frozen=True)
class LiveFloor:
    width: int
    height: int
    tables: tuple[LiveTable, ...]

    @property
    def counts(self) -> dict[str, int]:
        counts = {str(state): 0 for state in SEAT_STATES}
        for table in self.tables:
            for seat in table.seats:
                # A seat left empty by a withdrawal counts only with the result it had.
                if not seat.cancelled or seat.status is not None:
                    counts[seat.state] += 1
        return counts

    @property
    def seats(self) -> list[SeatLine]:
        return [seat for table in self.tables for seat in table.seats]


def elapsed_seconds(rnd: Round, now: dt.datetime) -> float | None:
    """Seconds since the round's start; None before it starts."""
    if rnd.state == RoundState.PLANNED or rnd.starts_at is None:
        return None
    return max(0.0, (now - rnd.starts_at).total_seconds())


@dataclass(frozen=True)
class _Clock:
    """What a seat's state needs to know about the round, read once per screen."""

    round_state: str
    elapsed: float | None
    limit: int
    credits: dict[int, int]
    results: dict[int, Result]

    def line(self, number: int, name: str, country: str, table: int | None,
             seat: int | None, *, group: str = "", cancelled: bool = False) -> SeatLine:
        row = self.results.get(number)
        credit = self.credits.get(number, 0)
        return SeatLine(
            number=number, name=name, country=country, table=table, seat=seat, credit=credit,
            group=group, cancelled=cancelled,
            state=seat_state(round_state=self.round_state, result=row, elapsed=self.elapsed,
                             limit=self.limit, credit=credit),
            status=row.status if row else None,
            time_seconds=row.time_seconds if row else None,
            version=row.version if row else 0,
        )


def _clock(rnd: Round, now: dt.datetime, group: str | None = None,
           results: dict[int, Result] | None = None,
           credits: dict[int, int] | None = None) -> _Clock:
    if results is None:
        results = {r.entry.number: r
                   for r in Result.objects.filter(round=rnd).select_related("entry")}
    if credits is None:
        credits = time_credits_get(rnd)
    if group is not None and any(s.started_at for s in group_starts_get(rnd)):
        # Groups sharing the tables, started one by one: the seats follow their group's clock.
        own = group_clock_get(rnd, group, now=now)
        return _Clock(own.state, own.elapsed_seconds, own.limit_seconds or 0, credits, results)
    # A round without a time limit cannot have started: its seats wait.
    return _Clock(rnd.state, elapsed_seconds(rnd, now), round_limit_seconds(rnd) or 0,
                  credits, results)


def live_floor_get(rnd: Round, group: str, *, now: dt.datetime) -> LiveFloor:
    """The hall of one group with every seated entry's state (no-shows left out).

    PlanningError when the hall has no rows of tables.
    """
    hall = floor_map_get(rnd, group)
    clock = _clock(rnd, now, group)
    tables = [
        LiveTable(table.table, table.x, table.y, table.guest, tuple(
            clock.line(e.number, e.name, e.country, table.table, e.seat, group=group,
                       cancelled=e.cancelled)
            for e in table.entries if not e.no_show))
        for table in hall.tables
    ]
    return LiveFloor(hall.width, hall.height, tuple(tables))


def round_lines_get(rnd: Round, *, now: dt.datetime) -> list[SeatLine]:
    """Every entry seated in the round or with a result in it, by table then number, each in
    the group it sits in (a later round's groups come from its seats)."""
    whole = _clock(rnd, now)
    # Groups that share the tables start one by one: each seat follows its group's clock.
    clocks: dict[str, _Clock] = {}
    seats = {s.entry_id: s for s in Seat.objects.filter(round=rnd, no_show=False)}
    entries = Entry.objects.filter(Q(pk__in=list(seats)) | Q(results__round=rnd)).distinct()
    lines = []
    for entry in entries:
        seat = seats.get(entry.pk)
        group = seat.group if seat and seat.group else entry.group
        clock = whole
        if seat is not None and seat.group and len(rnd.groups) > 1:
            if seat.group not in clocks:
                clocks[seat.group] = _clock(rnd, now, seat.group, whole.results, whole.credits)
            clock = clocks[seat.group]
        lines.append(clock.line(entry.number, str(entry), entry.country,
                                seat.table if seat else None, seat.seat if seat else None,
                                group=group, cancelled=entry.status == EntryStatus.CANCELLED))
    return sorted(lines, key=lambda ln: (ln.table is None, ln.table or 0, ln.number))


def round_entry_rows_get(rnd: Round, *, now: dt.datetime) -> list[EntryRow]:
    """`round_lines_get` with each result's penalty and final time as the round is ranked
    (one read path: `engine.round_ranking`)."""
    try:
        scores = {int(ln.entry.id): ln.score for ln in round_ranking(rnd).lines}
    except RulesError:
        scores = {}  # rules incomplete (an imported round without its limit): no penalty shown
    lines = round_lines_get(rnd, now=now)
    members: dict[int, list[str]] = {}
    for number, first, last in (EntryMember.objects
                                .filter(entry__event=rnd.event,
                                        entry__number__in=[ln.number for ln in lines])
                                .order_by("entry__number", "position")
                                .values_list("entry__number", "person__first_name",
                                             "person__last_name")):
        members.setdefault(number, []).append(f"{first} {last}".strip())
    rows = []
    for line in lines:
        score = scores.get(line.number)
        rows.append(EntryRow(line, score.penalty_seconds if score else 0,
                             score.final_time if score else None,
                             score.pieces if score and score.final_time is None else None,
                             tuple(members.get(line.number, ()))))
    return rows


def time_credits_get(rnd: Round) -> dict[int, int]:
    """Entry number -> seconds of time credit: the head judge's grant, else what the result
    carries (imports)."""
    credits = dict(Result.objects.filter(round=rnd, time_credit__gt=0)
                   .values_list("entry__number", "time_credit"))
    credits.update(Seat.objects.filter(round=rnd, time_credit__isnull=False)
                   .values_list("entry__number", "time_credit"))
    return {number: seconds for number, seconds in credits.items() if seconds}


def time_credit_of(rnd: Round, entry: Entry) -> int:
    """The seconds of credit an entry's result must carry (0 when none was granted).

    Whoever writes an entry's result fills `ResultValues.time_credit` from here, so a credit
    granted before the finish is not lost when the finish is recorded.
    """
    granted = next(iter(Seat.objects.filter(round=rnd, entry=entry)
                        .values_list("time_credit", flat=True)[:1]), None)
    if granted is not None:
        return granted
    return credit_of(None, Result.objects.filter(round=rnd, entry=entry).first())


def time_credit_refused(rnd: Round, *, seconds: int, entry: str = "") -> RuleViolation | None:
    """Why the round takes no credit of `seconds`, by the engine's rule (rules/credits.py)."""
    ruleset = ruleset_of(rnd)
    event, spec = find_round(ruleset, rnd.event.code, rnd.code)
    limit = rnd.time_limit_minutes * 60 if rnd.time_limit_minutes else None
    return time_credit_refusal(ruleset, event, spec, credit=seconds, entry=entry,
                               time_limit_seconds=limit)


def credit_of(granted: int | None, result: Result | None) -> int:
    """The head judge's grant (the seat's), else the credit the stored result carries."""
    if granted is not None:
        return granted
    return result.time_credit if result is not None else 0


@dataclass(frozen=True)
class CreditGrant:
    entry: int
    seconds: int
    reason: str
    at: dt.datetime
    user: str


def time_credit_grants(rnd: Round, *, entry: Entry | None = None) -> list[CreditGrant]:
    """The head judge's time credit grants of the round, oldest first."""
    rows = TimeCreditGrant.objects.filter(round=rnd)
    if entry is not None:
        rows = rows.filter(entry=entry)
    return [CreditGrant(g.entry.number, g.seconds, g.reason, g.granted_at,
                        g.granted_by.get_username() if g.granted_by else "")
            for g in rows.select_related("entry", "granted_by").order_by("granted_at", "pk")]


@dataclass(frozen=True)
class CreditLine:
    """An entry with a time credit and its own limit (seconds from the round's start)."""

    number: int
    name: str
    table: int | None
    seconds: int
    limit_seconds: int


def credit_lines_get(rnd: Round) -> list[CreditLine]:
    credits = time_credits_get(rnd)
    if not credits:
        return []
    limit = round_limit_seconds(rnd) or 0
    tables = dict(Seat.objects.filter(round=rnd, no_show=False)
                  .values_list("entry__number", "table"))
    entries = Entry.objects.filter(event=rnd.event, number__in=credits).order_by("number")
    return [CreditLine(e.number, str(e), tables.get(e.number), credits[e.number],
                       limit + credits[e.number]) for e in entries]


@dataclass(frozen=True)
class QueueLine:
    """A finish awaiting the judge's check of the puzzle, or a result flagged for a second look
    (`second_looks`: why, rules/plausibility.py)."""

    number: int
    name: str
    table: int | None
    time_seconds: int | None
    version: int
    recorded_at: dt.datetime
    device: str
    group: str = ""
    status: str = Status.FINISHED
    checked: bool = False
    second_looks: tuple[RuleViolation, ...] = ()


def _looks(number: int, stored: list[dict[str, Any]]) -> tuple[RuleViolation, ...]:
    return tuple(RuleViolation(look["code"], look["message"], entry=str(number),
                               params=look.get("params", {})) for look in stored)


def finishes_awaiting_check(rnd: Round, *, group: str | None = None) -> list[QueueLine]:
    """Finishes not yet checked and results flagged for a second look, the finish called first
    at the top (then the flagged counts); `group`: of that group only (groups sharing the
    tables play apart)."""
    seats = Seat.objects.filter(round=rnd, no_show=False)
    places = {n: (t, g) for n, t, g in seats.values_list("entry__number", "table", "group")}
    rows = (Result.objects.filter(Q(status=Status.FINISHED, checked=False)
                                  | ~Q(second_looks=[]), round=rnd)
            .select_related("entry", "device"))
    if group is not None:
        rows = rows.filter(entry__number__in=seats.filter(group=group)
                           .values("entry__number"))
    ordered = sorted(rows, key=lambda r: (r.time_seconds is None, r.time_seconds or 0,
                                          r.recorded_at, r.pk))
    return [QueueLine(r.entry.number, str(r.entry), places.get(r.entry.number, (None, ""))[0],
                      r.time_seconds, r.version, r.recorded_at,
                      r.device.label if r.device else "",
                      places.get(r.entry.number, (None, ""))[1], r.status, r.checked,
                      _looks(r.entry.number, r.second_looks))
            for r in ordered]


def disputes_get(rnd: Round, *, open_only: bool = False) -> list[Dispute]:
    """The round's disputes, first filed first, each with `.result` (the entry's result now,
    with its device), `.table` (the entry's table in the round) and, for open disputes,
    `.history` (every write to the result): what the head judge weighs the text against."""
    disputes = Dispute.objects.filter(round=rnd).select_related("entry", "resolved_by")
    if open_only:
        disputes = disputes.filter(status=DisputeStatus.OPEN)
    found = list(disputes)
    numbers = [d.entry_id for d in found]
    results = {r.entry_id: r for r in Result.objects.filter(
        round=rnd, entry_id__in=numbers).select_related("device")}
    tables = dict(Seat.objects.filter(round=rnd, entry_id__in=numbers)
                  .values_list("entry_id", "table"))
    for dispute in found:
        dispute.result = results.get(dispute.entry_id)  # type: ignore[attr-defined]
        dispute.table = tables.get(dispute.entry_id)  # type: ignore[attr-defined]
        dispute.history = (  # type: ignore[attr-defined]
            entry_history_get(rnd, dispute.entry) if dispute.status == DisputeStatus.OPEN
            else [])
    return found


def entry_disputes_get(rnd: Round, entry: Entry) -> list[Dispute]:
    return list(Dispute.objects.filter(round=rnd, entry=entry).select_related("resolved_by"))


def open_disputes_count(rnd: Round) -> int:
    return Dispute.objects.filter(round=rnd, status=DisputeStatus.OPEN).count()


@dataclass(frozen=True)
class FieldChange:
    name: str
    old: Any
    new: Any


@dataclass(frozen=True)
class HistoryLine:
    """One write to an entry's result, as the history shows it."""

    at: dt.datetime
    action: str
    version: int
    user: str
    device: str
    reason: str
    changes: tuple[FieldChange, ...]


_DEFAULTS = {f.name: (f.default if f.default is not dataclasses.MISSING else
                      f.default_factory() if f.default_factory is not dataclasses.MISSING
                      else None)
             for f in dataclasses.fields(ResultValues)}


def changed_fields(old: dict[str, Any] | None, new: dict[str, Any] | None) -> list[FieldChange]:
    """The fields a write changed; a first write lists those it set away from the default."""
    changes = []
    for name in RESULT_FIELDS:
        after = (new or {}).get(name)
        if old is None:
            if name == "status" or after != _DEFAULTS.get(name):
                changes.append(FieldChange(name, None, after))
        elif old.get(name) != after:
            changes.append(FieldChange(name, old.get(name), after))
    return changes


def entry_history_get(rnd: Round, entry: Entry) -> list[HistoryLine]:
    """Every write to the entry's result in the round, oldest first."""
    changes = (ResultChange.objects.filter(round=rnd, entry=entry)
               .select_related("user", "device").order_by("at", "pk"))
    return [HistoryLine(c.at, c.action, c.version, c.user.get_username() if c.user else "",
                        c.device.label if c.device else "", c.reason,
                        tuple(changed_fields(c.old, c.new)))
            for c in changes]


@dataclass(frozen=True)
class RelayMove:
    team: int
    team_name: str
    member: str
    # Puzzles are numbered from 1 on screen, as the teams see them on their stations.
    from_puzzle: int
    to_puzzle: int


@dataclass(frozen=True)
class RelaySignal:
    at: int
    moves: tuple[RelayMove, ...]


@dataclass(frozen=True)
class RelayRotation:
    """The rotating part of a relay round: a signal every `every_seconds`, and its moves."""

    part: str
    every_seconds: int
    signals: tuple[RelaySignal, ...]
    # Teams whose member count does not fit the part (the schedule cannot place them).
    incomplete: tuple[str, ...] = ()


def relay_rotation_get(rnd: Round) -> RelayRotation | None:
    """The rotation schedule of every team, signal by signal; None for rounds that do not
    rotate (czech-blind-and-relay.txt, 3.2: a signal every 8 minutes)."""
    try:
        rules = round_rules(rnd)
    except RulesError:  # no time limit yet: no schedule to show
        return None
    parts = rules.round.relay_parts
    rotating = next((p for p in parts if p.rotate_every_minutes), None)
    if rotating is None:
        return None
    offset = sum(p.puzzles for p in parts[:parts.index(rotating)])
    limit = rules.time_limit_seconds
    results = {r.entry_id: r for r in Result.objects.filter(round=rnd)}
    signals: dict[int, list[RelayMove]] = {}
    incomplete = []
    for team in _teams(rnd):
        members = [f"{m.person.first_name} {m.person.last_name}".strip()
                   for m in team.members.all()]
        row = results.get(team.pk)
        finishes = _finishes(row.puzzles if row else [], offset, rotating.puzzles)
        try:
            schedule = rotation_schedule(rotating, members=members, finishes=finishes,
                                         until=limit)
        except RulesError:
            incomplete.append(str(team))
            continue
        for signal in schedule:
            signals.setdefault(signal.at, []).extend(
                RelayMove(team.number, str(team), move.member, move.from_puzzle + 1,
                          move.to_puzzle + 1) for move in signal.moves)
    every = (rotating.rotate_every_minutes or 0) * 60
    ordered = tuple(RelaySignal(at, tuple(moves)) for at, moves in sorted(signals.items()))
    return RelayRotation(rotating.name, every, ordered, tuple(incomplete))


def _teams(rnd: Round) -> Iterable[Entry]:
    """The round's seated teams, else the event's confirmed teams, with their members."""
    seated = Entry.objects.filter(seats__round=rnd, seats__no_show=False)
    teams = seated if seated.exists() else Entry.objects.filter(
        event=rnd.event, status=EntryStatus.CONFIRMED)
    return teams.order_by("number").prefetch_related(
        Prefetch("members", queryset=EntryMember.objects.select_related("person")
                 .order_by("position")))


def _finishes(puzzles: list[dict[str, Any]], offset: int, count: int) -> dict[int, int]:
    """Puzzle index within the part -> second it was finished, from the recorded puzzles."""
    finishes = {}
    for index in range(count):
        stored = puzzles[offset + index] if offset + index < len(puzzles) else {}
        if stored.get("time") is not None:
            finishes[index] = int(stored["time"])
    return finishes


def rounds_of(championship_id: int) -> list[Round]:
    """Every round of the championship, event by event, with its open disputes counted."""
    return rounds_read_now(Round.objects.filter(event__championship_id=championship_id)
                           .select_related("event__championship")
                           .annotate(open_disputes=Count(
                               "disputes", filter=Q(disputes__status=DisputeStatus.OPEN)))
                           .order_by("event__position", "position"))
