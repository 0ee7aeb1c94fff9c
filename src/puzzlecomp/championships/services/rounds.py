"""A round's life: start (the clock never stops), counting at the limit, provisional results,
publication (opening the dispute window) and final results.

The engine (`rules.round_life`) decides which moves are allowed and when; these write them.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

from puzzlecomp.championships.actions import (
    GROUP_STARTED,
    GROUPS_PLANNED,
    ROUND_COUNTING,
    ROUND_STATE_SET,
)
from puzzlecomp.championships.models import (
    Dispute,
    DisputeStatus,
    GroupStart,
    Round,
    RoundState,
)
from puzzlecomp.championships.selectors.rounds import (
    dispute_window_ends,
    group_starts_get,
    groups_waiting_get,
    round_clock_get,
    round_limit_seconds,
    round_readiness_get,
    round_results_missing_get,
)
from puzzlecomp.championships.services.entrant_mail import results_published_mail
from puzzlecomp.championships.services.facts import member_facts_derive
from puzzlecomp.championships.services.sqlite_writer import one_sqlite_writer
from puzzlecomp.championships.services.work import unit_of_work
from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.guards import groups_not_started_guard, results_missing_guard
from puzzlecomp.rules.round_life import final_check, group_start_check, is_back, move_check


def round_advance(rnd: Round, *, now: dt.datetime | None = None) -> Round:
    """Write the move of a running round past its limit to counting, announcing it.

    The one write of that move: the live pump calls it every second, and every move by hand
    first. Reads need not wait for it: they compute the state (`selectors.rounds`).
    """
    if rnd.state != RoundState.RUNNING or rnd.starts_at is None:
        return rnd
    now = now or timezone.now()
    clock = round_clock_get(rnd, now=now)
    rnd.state = RoundState.RUNNING
    if clock.state != RoundState.COUNTING:
        return rnd
    assert clock.ends_at is not None
    ends = clock.ends_at
    # In the judges' queue on SQLite: at the limit they are recording, and outside the queue
    # the busy handler would keep the pump, and every notice, asleep while they pass by.
    with one_sqlite_writer(), unit_of_work(ROUND_COUNTING, championship=rnd.event.championship,
                                           round=rnd, at=ends.isoformat()) as work:
        moved = Round.objects.filter(pk=rnd.pk, state=RoundState.RUNNING).update(
            state=RoundState.COUNTING)
        GroupStart.objects.filter(round=rnd, state=RoundState.RUNNING).update(
            state=RoundState.COUNTING)
        if not moved:
            work.nothing_changed()
    rnd.state = RoundState.COUNTING
    return rnd


def round_state_set(*, round: Round, state: RoundState, starts_at: dt.datetime | None = None,
                    published_at: dt.datetime | None = None, user: Any = None,
                    stopped_at: dt.datetime | None = None,
                    passed: dict[str, Any] | None = None) -> Round:
    """Move a round to a state without the order check (demo, imports); sets its start, when
    published the start of the dispute window (`published_at`, else now if unset), and with
    `stopped_at` when assembly was stopped before the limit; `passed`: the guards the head
    judge passed knowingly, for the audit."""
    rnd = round
    with unit_of_work(ROUND_STATE_SET, championship=rnd.event.championship, user=user,
                      round=rnd, state=str(state)) as work:
        rnd.state = state
        fields = ["state"]
        if starts_at is not None:
            rnd.starts_at = starts_at
            fields.append("starts_at")
        if stopped_at is not None:
            rnd.assembly_stopped_at = stopped_at
            fields.append("assembly_stopped_at")
        if state == RoundState.PUBLISHED and (published_at or rnd.published_at is None):
            rnd.published_at = published_at or timezone.now()
            fields.append("published_at")
        rnd.save(update_fields=fields)
        if state == RoundState.PUBLISHED:
            # Entrants who want them get their place by email, once this commits.
            results_published_mail(rnd)
        if state == RoundState.RUNNING:
            # Debutants and the like are settled when competing starts (services/facts.py).
            member_facts_derive(championship=rnd.event.championship)
        work.record(starts_at=rnd.starts_at.isoformat() if rnd.starts_at else None,
                    **(passed or {}))
    return rnd


def round_move(*, round: Round, to: RoundState, user: Any = None,
               now: dt.datetime | None = None, knowingly: int | None = None) -> Round:
    """Move a round to its next state by hand; starting sets the start to the server's now.

    RulesError when the move is not allowed from the round's state, when a round that is not
    ready would start (what it lacks), when results would become final while disputes
    may still come, and when results would become provisional or public while seated
    entrants have none, unless `knowingly` is how many (the audit records who).
    """
    now = now or timezone.now()
    rnd = round_advance(round, now=now)
    move_check(rnd.state, to)
    if to == RoundState.RUNNING:
        missing = round_readiness_get(rnd)
        if missing:
            raise RulesError(list(missing))
    if to == RoundState.FINAL:
        final_check(window_ends=dispute_window_ends(rnd), now=now,
                    open_disputes=Dispute.objects.filter(round=rnd,
                                                         status=DisputeStatus.OPEN).count())
    waiting = groups_waiting_get(rnd) if to == RoundState.COUNTING else []
    groups_not_started_guard(waiting, knowingly=knowingly)
    without_result: list[str] = []
    if to in (RoundState.PROVISIONAL, RoundState.PUBLISHED) and not is_back(rnd.state, str(to)):
        without_result = round_results_missing_get(rnd)
        results_missing_guard(without_result, knowingly=knowingly)
    # Stopped before the limit: every clock shows this end, not a countdown.
    stopped = now if to == RoundState.COUNTING and rnd.state == RoundState.RUNNING else None
    return round_state_set(round=rnd, state=RoundState(to), user=user, stopped_at=stopped,
                           starts_at=now if to == RoundState.RUNNING else None,
                           published_at=now if to == RoundState.PUBLISHED else None,
                           passed=({"without_result": without_result} if without_result
                                   else {"groups_not_started": waiting} if waiting else None))


def group_start(*, round: Round, group: str, user: Any = None,
                now: dt.datetime | None = None) -> Round:
    """Start one group of a round whose groups share the tables, at the server's now; the
    first group started starts the round.

    RulesError when the round may not start (what it lacks), the group has started already
    or another group is still at the tables.
    """
    now = now or timezone.now()
    rnd = round_advance(round, now=now)
    starts = group_starts_get(rnd)
    group_start_check(starts, group, state=rnd.state, limit_seconds=round_limit_seconds(rnd),
                      now=now)
    if rnd.state == RoundState.PLANNED:
        missing = round_readiness_get(rnd)
        if missing:
            raise RulesError(list(missing))
    with unit_of_work(GROUP_STARTED, championship=rnd.event.championship, user=user,
                      round=rnd, group=group, at=now.isoformat()):
        GroupStart.objects.update_or_create(
            round=rnd, group=group,
            defaults={"started_at": now, "state": RoundState.RUNNING})
        # Other groups of the round keep their planned start.
        for other in starts:
            GroupStart.objects.get_or_create(round=rnd, group=other.group)
        if rnd.state == RoundState.PLANNED:
            round_state_set(round=rnd, state=RoundState(RoundState.RUNNING), user=user,
                            starts_at=now)
    return rnd


def group_plan(*, round: Round, planned: dict[str, dt.datetime | None], user: Any = None) -> None:
    """Set the planned start of each group of the round (the public schedule shows them)."""
    with unit_of_work(GROUPS_PLANNED, championship=round.event.championship, user=user,
                      round=round,
                      planned={g: at.isoformat() if at else None for g, at in planned.items()}):
        for group, at in planned.items():
            if group in round.groups:
                GroupStart.objects.update_or_create(round=round, group=group,
                                                    defaults={"planned_at": at})
