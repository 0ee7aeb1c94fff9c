"""Reads of a round's life: its clock and state now, the dispute window, and what it still needs
before it may start (the engine's `rules.round_life` on the stored rows).

Nothing here writes. A running round past its limit reads as counting at once (a restarted
server too); the live pump writes that move (`services.rounds.round_advance`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

from django.utils import timezone

from puzzlecomp.championships.engine import (
    round_entrants_without_result,
    round_pieces,
    round_rules,
    ruleset_of,
)
from puzzlecomp.championships.models import (
    Entry,
    EntryStatus,
    GroupStart,
    QualifierStatus,
    Round,
    RoundState,
    Seat,
)
from puzzlecomp.championships.models import Qualifier as QualifierRow
from puzzlecomp.championships.plain_sql import columns, fetch, table
from puzzlecomp.rules import round_life
from puzzlecomp.rules.errors import RulesError, RuleViolation
from puzzlecomp.rules.round_life import GroupStart as GroupStartFacts
from puzzlecomp.rules.round_life import RoundClock, RoundSetup
from puzzlecomp.rules.rounds import RoundRules


def round_limit_seconds(rnd: Round) -> int | None:
    """The round's time limit in seconds; None while the round has none."""
    try:
        return round_rules(rnd).time_limit_seconds
    except RulesError:
        return None


def round_clock_get(rnd: Round, *, now: dt.datetime | None = None,
                    rules: RoundRules | None = None) -> RoundClock:
    """The round's clock at `now` (`rules`: the round's rules when the caller has them).

    `rnd.state` is set, in memory only, to the state the round reads as, so the page that
    shows it agrees with the clock.
    """
    return _round_clock(rnd, group_starts_get(rnd), now=now or timezone.now(),
                        limit=_limit(rnd, rules))


def group_starts_get(rnd: Round) -> list[GroupStartFacts]:
    """Each group of a round with several, in the round's order, with its planned start and
    the start the head judge gave; empty for a round of one group (it starts as a whole)."""
    if len(rnd.groups) < 2:
        return []
    # Plain SQL: every judge's record of a round in groups reads its group's start.
    rows = {start.group: (start.planned_at, start.started_at) for (start,) in fetch(
        f"SELECT {columns(GroupStart, 'g')} FROM {table(GroupStart)} g WHERE g.round_id = %s",
        [rnd.pk], GroupStart)}
    return [GroupStartFacts(group, *rows.get(group, (None, None))) for group in rnd.groups]


def group_clock_get(rnd: Round, group: str, *, now: dt.datetime | None = None,
                    rules: RoundRules | None = None) -> RoundClock:
    """The clock of one group of the round; the round's clock while its groups have not been
    started one by one (a round started as a whole, a round of one group)."""
    now = now or timezone.now()
    limit = _limit(rnd, rules)
    # One read of the starts serves both clocks: this is on every judge's record.
    starts = group_starts_get(rnd)
    state = rnd.state
    clock = _round_clock(rnd, starts, now=now, limit=limit)
    if not any(s.started_at for s in starts):
        return clock
    by_group = {s.group: s for s in starts}
    return round_life.group_clock_at(by_group.get(group), state=state, limit_seconds=limit,
                                     now=now, stopped_at=rnd.assembly_stopped_at)


def _limit(rnd: Round, rules: RoundRules | None) -> int | None:
    return rules.time_limit_seconds if rules is not None else round_limit_seconds(rnd)


def _round_clock(rnd: Round, starts: list[GroupStartFacts], *, now: dt.datetime,
                 limit: int | None) -> RoundClock:
    if any(s.started_at for s in starts):
        clock = round_life.round_clock_of_groups(starts, state=rnd.state, limit_seconds=limit,
                                                 now=now, stopped_at=rnd.assembly_stopped_at)
    else:
        clock = round_life.clock_at(rnd.state, started_at=rnd.starts_at, limit_seconds=limit,
                                    now=now, stopped_at=rnd.assembly_stopped_at)
    rnd.state = RoundState(clock.state)
    return clock


def rounds_read_now(rounds: Iterable[Round], *, now: dt.datetime | None = None) -> list[Round]:
    """The rounds, each running one in the state it reads as at `now` (lists of rounds)."""
    now = now or timezone.now()
    found = list(rounds)
    for rnd in found:
        if rnd.state == RoundState.RUNNING:
            round_clock_get(rnd, now=now)
    return found


def dispute_window_ends(rnd: Round) -> dt.datetime | None:
    """When disputes of a published round close; None when the ruleset sets no window."""
    return round_life.dispute_window_ends(rnd.published_at, ruleset_of(rnd).dispute_window_hours)


def round_setup_get(rnd: Round) -> RoundSetup:
    """What the organiser has given the round so far, counted from the stored rows.

    A first round's entrants are the event's confirmed entries; a later round's are the
    previous round's confirmed qualifiers (or, before any, whoever is seated).
    """
    event = rnd.event
    seated = set(Seat.objects.filter(round=rnd, no_show=False).values_list("entry_id", flat=True))
    hall = bool(event.championship.floor_rows)
    previous = event.rounds.filter(position__lt=rnd.position).order_by("-position").first()
    if previous is None:
        entries = Entry.objects.filter(event=event, status=EntryStatus.CONFIRMED)
        ids = set(entries.values_list("pk", flat=True))
        ungrouped = entries.filter(group="").count()
    else:
        ids = set(QualifierRow.objects.filter(from_round=previous,
                                              status=QualifierStatus.CONFIRMED)
                  .values_list("entry_id", flat=True)) or seated
        ungrouped = 0 if rnd.groups else len(ids)
    return RoundSetup(
        time_limit_minutes=rnd.time_limit_minutes, pieces=round_pieces(rnd),
        entrants=len(ids), ungrouped=ungrouped,
        unseated=len(ids - seated) if hall else 0,
    )


def round_readiness_get(rnd: Round) -> tuple[RuleViolation, ...]:
    """What the round still needs before it may start; empty once it is ready (or started)."""
    if rnd.state != RoundState.PLANNED:
        return ()
    return round_life.round_readiness(ruleset_of(rnd), rnd.event.code, rnd.code,
                                      round_setup_get(rnd))


def round_rule_problems_get(rnd: Round) -> tuple[RuleViolation, ...]:
    """What the round's rules lack (time limit, puzzle size), whatever its state: without
    them nothing can be ranked."""
    try:
        round_rules(rnd)
    except RulesError as error:
        return tuple(error.violations)
    return ()


@dataclass(frozen=True)
class GroupTimes:
    """One group on the round's schedule: planned start, official start, its clock's state."""

    group: str
    planned_at: dt.datetime | None
    started_at: dt.datetime | None
    state: str


def group_schedule_get(rnd: Round, *, now: dt.datetime | None = None) -> list[GroupTimes]:
    """Each group of a round with several, in order: the first group's planned start is the
    round's own until the organiser gives it one."""
    now = now or timezone.now()
    limit = round_limit_seconds(rnd)
    # A round reading as counting (after its clock was read) has every group past the limit.
    stored = rnd.state
    starts = group_starts_get(rnd)
    # A round started as a whole started every group at its start.
    together = rnd.starts_at if (stored != RoundState.PLANNED
                                 and not any(s.started_at for s in starts)) else None
    found = []
    for i, s in enumerate(starts):
        planned = s.planned_at
        if planned is None and i == 0 and stored == RoundState.PLANNED:
            planned = rnd.starts_at
        if together is not None:
            s = GroupStartFacts(s.group, planned, together)
        state = round_life.group_clock_at(s, state=stored, limit_seconds=limit, now=now,
                                          stopped_at=rnd.assembly_stopped_at).state
        found.append(GroupTimes(s.group, planned, s.started_at, state))
    return found


def round_results_missing_get(rnd: Round) -> list[str]:
    """The seated entrants (no-shows aside) who have no result in the round, as "12 Ana
    Nováková", in number order: what publishing the results now would leave out."""
    missing = sorted(round_entrants_without_result(rnd, members=False), key=lambda e: int(e.id))
    return [f"{e.id} {e.name}" for e in missing]


def event_rounds_to_come(event_id: int) -> list[Round]:
    """The event's rounds that are not final yet, in order: what its standings still wait
    for."""
    return list(Round.objects.filter(event_id=event_id).exclude(state=RoundState.FINAL)
                .order_by("position"))


def groups_waiting_get(rnd: Round) -> list[str]:
    """The groups of a round started group by group that have not started yet (empty for a
    round started as a whole)."""
    starts = group_starts_get(rnd)
    if not any(start.started_at for start in starts):
        return []
    return [start.group for start in starts if start.started_at is None]
