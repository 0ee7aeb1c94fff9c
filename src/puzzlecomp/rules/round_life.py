"""A round's life: its states and the moves between them, its clock, the dispute window, the
no-show rule and what a round needs before it may start.

Pure: every function takes the stored facts as values and the moment to judge them at, so a
page computes the same answer as the service that writes, and a restarted server is right at
once (nothing waits for a timer).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Mapping, Sequence
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


class ClockShows(StrEnum):
    """What a clock shows: a group's limit while it waits (the round planned, or another group
    at the tables), the time left while it assembles, "counting" once assembly stopped (at the
    limit or by "Stop assembling"), and the round's end once its results are provisional or
    later. Never a countdown after the stop, never a frozen time left."""

    WAITING = "waiting"
    COUNTDOWN = "countdown"
    COUNTING = "counting"
    ENDED = "ended"


SHOWS_OF_STATE: Mapping[RoundState, ClockShows] = {
    RoundState.PLANNED: ClockShows.WAITING,
    RoundState.RUNNING: ClockShows.COUNTDOWN,
    RoundState.COUNTING: ClockShows.COUNTING,
    RoundState.PROVISIONAL: ClockShows.ENDED,
    RoundState.PUBLISHED: ClockShows.ENDED,
    RoundState.FINAL: ClockShows.ENDED,
}


@dataclass(frozen=True)
class RoundClock:
    """Where a round's (or one group's) clock stands at `server_now`; every screen draws it
    from these, and shows what `shows` says.

    `limit_seconds` is None while the round has no time limit (it is not ready to start).
    `ends_at` is when assembly ends at the limit; `ended_at` when it did end (the limit, or
    the head judge's earlier stop), known once the clock stopped.
    """

    state: str
    started_at: dt.datetime | None
    limit_seconds: int | None
    ends_at: dt.datetime | None
    server_now: dt.datetime
    shows: str = ClockShows.WAITING
    ended_at: dt.datetime | None = None
    # What a countdown turns to at its limit when that is not counting: "waiting" for a round
    # whose group at the tables is the last started while others still wait their turn.
    after_limit: str | None = None

    @property
    def elapsed_seconds(self) -> float | None:
        if self.started_at is None:
            return None
        return max(0.0, (self.server_now - self.started_at).total_seconds())

    def as_json(self, zone: dt.tzinfo | None = None) -> dict[str, Any]:
        """The clock as JSON; `zone`: its times in that zone (ISO 8601 with its offset, the
        championship's local time), else as stored."""
        def iso(t: dt.datetime | None) -> str | None:
            if t is None:
                return None
            return (t.astimezone(zone) if zone is not None else t).isoformat()

        json = {"state": self.state, "shows": self.shows, "started_at": iso(self.started_at),
                "limit_seconds": self.limit_seconds, "ends_at": iso(self.ends_at),
                "ended_at": iso(self.ended_at), "server_now": iso(self.server_now)}
        if self.after_limit is not None:
            json["after_limit"] = self.after_limit
        return json


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
             now: dt.datetime, stopped_at: dt.datetime | None = None) -> RoundClock:
    """The round's clock at `now`: the state it reads as, its start and end (none before it
    runs), the limit, and what it shows. `stopped_at`: when the head judge stopped assembly
    ("Stop assembling: count"), which ends it before the limit."""
    read = state_at(state, started_at=started_at, limit_seconds=limit_seconds, now=now)
    started = started_at if read != RoundState.PLANNED else None
    ends = (started + dt.timedelta(seconds=limit_seconds)
            if started is not None and limit_seconds is not None else None)
    shows = SHOWS_OF_STATE[read]
    ended = None
    if shows in (ClockShows.COUNTING, ClockShows.ENDED) and started is not None:
        ended = min((t for t in (ends, stopped_at) if t is not None and t >= started),
                    default=None)
    return RoundClock(str(read), started, limit_seconds, ends, now, str(shows), ended)


@dataclass(frozen=True)
class GroupStart:
    """One group of a round that shares its tables with the others (WJPC groups A-F on the
    same tables play one after another): its planned start and the start the head judge gave."""

    group: str
    planned_at: dt.datetime | None
    started_at: dt.datetime | None


# Starting a round or a group this long before its planned start asks the head judge to confirm.
EARLY_START_MINUTES = 15


def starts_early(planned_at: dt.datetime | None, now: dt.datetime) -> bool:
    """Whether starting now comes long before the planned start (a slip of the finger)."""
    return (planned_at is not None
            and now < planned_at - dt.timedelta(minutes=EARLY_START_MINUTES))


def group_clock_at(start: GroupStart | None, *, state: str, limit_seconds: int | None,
                   now: dt.datetime, stopped_at: dt.datetime | None = None) -> RoundClock:
    """What one group's clock shows at `now`: the one decision every screen draws.

    `state` is the round's stored state and `stopped_at` when the head judge stopped
    assembly. While the round is planned or running, a group not started waits (its limit,
    even while another group is at the tables), a started one counts down, then counts at
    its own limit; from counting on every group reads as the round, its end being its own
    limit or the stop, whichever came first.
    """
    started_at = start.started_at if start is not None else None
    if state in (RoundState.PLANNED, RoundState.RUNNING):
        own = RoundState.RUNNING if started_at is not None else RoundState.PLANNED
        return clock_at(own, started_at=started_at, limit_seconds=limit_seconds, now=now)
    return clock_at(state, started_at=started_at, limit_seconds=limit_seconds, now=now,
                    stopped_at=stopped_at)


def round_clock_of_groups(starts: Sequence[GroupStart], *, state: str,
                          limit_seconds: int | None, now: dt.datetime,
                          stopped_at: dt.datetime | None = None) -> RoundClock:
    """The clock of a round whose groups start one after another: that of the group started
    last, and the round counts only once every group has started and reached the limit."""
    started = [s for s in starts if s.started_at is not None]
    if not started:
        return clock_at(state, started_at=None, limit_seconds=limit_seconds, now=now)
    last = max(started, key=lambda s: s.started_at or now)
    clock = group_clock_at(last, state=state, limit_seconds=limit_seconds, now=now,
                           stopped_at=stopped_at)
    if state == RoundState.RUNNING and len(started) < len(starts):
        # Between groups the round runs on and shows the next group's wait, not 00:00.
        # A countdown names what it turns to at the limit, so that a screen left open
        # shows the wait (not "counting") without asking the server again.
        shows = ClockShows.COUNTDOWN if clock.shows == ClockShows.COUNTDOWN else ClockShows.WAITING
        return dataclasses.replace(clock, state=str(RoundState.RUNNING), shows=str(shows),
                                   ended_at=None, after_limit=str(ClockShows.WAITING))
    return clock


def group_start_check(starts: Sequence[GroupStart], group: str, *, state: str,
                      limit_seconds: int | None, now: dt.datetime) -> None:
    """RulesError unless `group` may start now: the round is planned or running, the group
    has not started, and no other group is at the tables (they share them)."""
    if state not in (RoundState.PLANNED, RoundState.RUNNING):
        raise RulesError(violation("round.state_order", f"a {state} round cannot start a group",
                                   field="state", state=state, to=str(RoundState.RUNNING)))
    found = {s.group: s for s in starts}
    if group not in found:
        raise RulesError(violation("round.group_unknown", f"the round has no group {group!r}",
                                   field="group", group=group))
    if found[group].started_at is not None:
        raise RulesError(violation("round.group_started", f"group {group} has already started",
                                   field="group", group=group))
    for other in starts:
        clock = group_clock_at(other, state=state, limit_seconds=limit_seconds, now=now)
        if clock.state == RoundState.RUNNING:
            raise RulesError(violation("round.group_playing",
                                       f"group {other.group} is still at the tables",
                                       field="group", group=other.group))


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
