"""A round's life: its states and the moves between them, its clock, the dispute window, the
no-show rule and what a round needs before it may start.

Pure: every function takes the stored facts as values and the moment to judge them at, so a
page computes the same answer as the service that writes, and a restarted server is right at
once (nothing waits for a timer).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from puzzlecomp.rules.errors import RulesError, RuleViolation, violation
from puzzlecomp.rules.rounds import find_round, round_rule_problems
from puzzlecomp.rules.ruleset import Ruleset


class RoundState(StrEnum):
    """Where a round stands: planned, running (the clock runs), counting (at the limit the
    judges count pieces), provisional, published (the dispute window opens) and final."""

    PLANNED = "planned"
    RUNNING = "running"
    COUNTING = "counting"
    PROVISIONAL = "provisional"
    PUBLISHED = "published"
    FINAL = "final"


# Which state a round may move to from each state, by hand (forward first, then back).
NEXT_STATES: Mapping[RoundState, tuple[RoundState, ...]] = {
    RoundState.PLANNED: (RoundState.RUNNING,),
    RoundState.RUNNING: (RoundState.COUNTING,),
    RoundState.COUNTING: (RoundState.PROVISIONAL,),
    RoundState.PROVISIONAL: (RoundState.PUBLISHED, RoundState.COUNTING),
    RoundState.PUBLISHED: (RoundState.FINAL, RoundState.PROVISIONAL),
    RoundState.FINAL: (),
}


def moves_from(state: str) -> tuple[RoundState, ...]:
    """The states a round in `state` may be moved to by hand."""
    return NEXT_STATES[RoundState(state)]


def is_back(state: str, to: str) -> bool:
    """Whether moving from `state` to `to` goes back (withdrawing a publication)."""
    order = list(RoundState)
    return order.index(RoundState(to)) < order.index(RoundState(state))


def move_check(state: str, to: str) -> None:
    """RulesError `round.state_order` unless a round in `state` may move to `to` by hand."""
    if RoundState(to) not in moves_from(state):
        raise RulesError(violation("round.state_order", f"a {state} round cannot become {to}",
                                   field="state", state=state, to=to))


@dataclass(frozen=True)
class RoundClock:
    """Where a round's clock stands at `server_now`; every screen draws it from these.

    `limit_seconds` is None while the round has no time limit (it is not ready to start).
    """

    state: str
    started_at: dt.datetime | None
    limit_seconds: int | None
    ends_at: dt.datetime | None
    server_now: dt.datetime

    @property
    def elapsed_seconds(self) -> float | None:
        if self.started_at is None:
            return None
        return max(0.0, (self.server_now - self.started_at).total_seconds())

    def as_json(self) -> dict[str, Any]:
        def iso(t: dt.datetime | None) -> str | None:
            return t.isoformat() if t else None

        return {"state": self.state, "started_at": iso(self.started_at),
                "limit_seconds": self.limit_seconds, "ends_at": iso(self.ends_at),
                "server_now": iso(self.server_now)}


def state_at(state: str, *, started_at: dt.datetime | None, limit_seconds: int | None,
             now: dt.datetime) -> RoundState:
    """The round's state at `now`: a running round whose limit has passed is counting
    (wjpc-2025.txt, Unfinished Puzzles: at the maximum time the pieces are counted), whether
    or not the move has been written yet."""
    if (state == RoundState.RUNNING and started_at is not None and limit_seconds is not None
            and now >= started_at + dt.timedelta(seconds=limit_seconds)):
        return RoundState.COUNTING
    return RoundState(state)


def clock_at(state: str, *, started_at: dt.datetime | None, limit_seconds: int | None,
             now: dt.datetime) -> RoundClock:
    """The round's clock at `now`: the state it reads as, its start and end (none before it
    runs) and the limit."""
    read = state_at(state, started_at=started_at, limit_seconds=limit_seconds, now=now)
    started = started_at if read != RoundState.PLANNED else None
    ends = (started + dt.timedelta(seconds=limit_seconds)
            if started is not None and limit_seconds is not None else None)
    return RoundClock(str(read), started, limit_seconds, ends, now)


def dispute_window_ends(published_at: dt.datetime | None,
                        hours: int | None) -> dt.datetime | None:
    """When disputes of a published round close; None before publication or when the ruleset
    sets no window (wjpc-2025.txt, Disputes and Reviews: 4 hours from the results)."""
    if published_at is None or not hours:
        return None
    return published_at + dt.timedelta(hours=hours)


def disputes_accepted(state: str, *, window_ends: dt.datetime | None, now: dt.datetime) -> bool:
    """Whether a competitor may dispute a result of the round now: published, and within the
    window (rulesets without one take disputes until the results are final)."""
    return state == RoundState.PUBLISHED and (window_ends is None or now <= window_ends)


def final_check(*, window_ends: dt.datetime | None, open_disputes: int,
                now: dt.datetime) -> None:
    """RulesError unless a published round may become final: its dispute window has closed
    and every dispute is resolved (wjpc-2025.txt, Disputes and Reviews)."""
    if window_ends is not None and now < window_ends:
        raise RulesError(violation("round.dispute_window_open",
                                   f"disputes may be filed until {window_ends.isoformat()}",
                                   field="state", ends=window_ends))
    if open_disputes:
        raise RulesError(violation("round.disputes_open",
                                   f"{open_disputes} disputes are still open",
                                   field="state", count=open_disputes))


def no_show_allowed_at(starts_at: dt.datetime | None,
                       minutes: int | None) -> dt.datetime | None:
    """When a missing entrant's table may be given away; None without a start or a rule
    (wjpc-2025.txt: the tables of participants not shown up 10 minutes after the start)."""
    if starts_at is None or minutes is None:
        return None
    return starts_at + dt.timedelta(minutes=minutes)


def no_show_refusal(*, minutes: int | None, starts_at: dt.datetime | None,
                    at: dt.datetime) -> RuleViolation | None:
    """Why a missing entrant's table may not be given away at `at`; None when it may."""
    if minutes is None:
        return violation("seating.no_show_not_in_rules",
                         "The ruleset does not let the organiser give away missing tables.")
    allowed = no_show_allowed_at(starts_at, minutes)
    if allowed is None:
        return violation("seating.round_not_started", "The round has no start time yet.")
    if at < allowed:
        return violation("seating.no_show_too_early",
                         f"A table may be given away {minutes} minutes after the start, at "
                         f"{allowed.isoformat()}.", minutes=minutes, allowed=allowed)
    return None


@dataclass(frozen=True)
class RoundSetup:
    """What the organiser has given a round so far, as counted from the stored rows."""

    # The organiser's time limit and puzzle size (None: the ruleset's, if it names them).
    time_limit_minutes: int | None
    pieces: int | None
    # Entrants: a first round's confirmed entries, a later round's confirmed qualifiers.
    entrants: int
    # Entrants without a group, where the ruleset splits the round into groups.
    ungrouped: int
    # Entrants without a table, where the hall is set up.
    unseated: int


def round_readiness(ruleset: Ruleset, event_id: str, round_id: str,
                    setup: RoundSetup) -> tuple[RuleViolation, ...]:
    """What the round still needs before it may start; empty when it is ready.

    A time limit and a puzzle size (where the rulebook names none: Australia, Norway), its
    entrants, their groups where the round has groups, and their tables once there is a hall.
    """
    problems = list(round_rule_problems(ruleset, event_id, round_id,
                                        time_limit_minutes=setup.time_limit_minutes,
                                        pieces=setup.pieces))
    _, spec = find_round(ruleset, event_id, round_id)
    if setup.entrants == 0:
        problems.append(violation("round.no_entrants", "the round has no entrants yet",
                                  field="entrants"))
    if spec.groups and setup.ungrouped:
        problems.append(violation("round.groups_missing",
                                  f"{setup.ungrouped} entrants have no group yet",
                                  field="groups", count=setup.ungrouped))
    if setup.unseated:
        problems.append(violation("round.seats_missing",
                                  f"{setup.unseated} entrants have no table yet",
                                  field="seats", count=setup.unseated))
    return tuple(problems)
