"""A round's life: start (the clock never stops), counting at the limit, provisional results,
publication (opening the dispute window) and final results."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from puzzlecomp.championships.audit import log_action
from puzzlecomp.championships.engine import round_rules, ruleset_of
from puzzlecomp.championships.models import Dispute, DisputeStatus, Round, RoundState
from puzzlecomp.championships.notices import announce
from puzzlecomp.rules.errors import RulesError, violation
from puzzlecomp.rules.rounds import RoundRules

# Which state a round may move to from each state, by hand.
NEXT_STATES = {
    RoundState.PLANNED: (RoundState.RUNNING,),
    RoundState.RUNNING: (RoundState.COUNTING,),
    RoundState.COUNTING: (RoundState.PROVISIONAL,),
    RoundState.PROVISIONAL: (RoundState.PUBLISHED, RoundState.COUNTING),
    RoundState.PUBLISHED: (RoundState.FINAL, RoundState.PROVISIONAL),
    RoundState.FINAL: (),
}


@dataclass(frozen=True)
class RoundClock:
    """Where a round's clock stands; every screen draws it from these and the server's time."""

    state: str
    started_at: dt.datetime | None
    limit_seconds: int
    ends_at: dt.datetime | None
    server_now: dt.datetime

    @property
    def elapsed_seconds(self) -> float | None:
        if self.started_at is None:
            return None
        return max(0.0, (self.server_now - self.started_at).total_seconds())

    def as_json(self) -> dict[str, Any]:
        iso = (lambda t: t.isoformat() if t else None)  # noqa: E731
        return {"state": self.state, "started_at": iso(self.started_at),
                "limit_seconds": self.limit_seconds, "ends_at": iso(self.ends_at),
                "server_now": iso(self.server_now)}


def round_clock(rnd: Round, *, now: dt.datetime | None = None,
                rules: RoundRules | None = None) -> RoundClock:
    """The round's clock, after moving a round past its limit to counting (`rules`: the
    round's rules when the caller has them)."""
    now = now or timezone.now()
    limit = (rules or round_rules(rnd)).time_limit_seconds
    round_advance(rnd, now=now, limit_seconds=limit)
    started = rnd.starts_at if rnd.state != RoundState.PLANNED else None
    ends = started + dt.timedelta(seconds=limit) if started else None
    return RoundClock(str(rnd.state), started, limit, ends, now)


def round_advance(rnd: Round, *, now: dt.datetime | None = None,
                  limit_seconds: int | None = None) -> Round:
    """A running round whose limit has passed moves to counting (checked whenever it is read,
    so no timer process is needed and a restarted server is right at once)."""
    if rnd.state != RoundState.RUNNING or rnd.starts_at is None:
        return rnd
    now = now or timezone.now()
    if limit_seconds is None:
        limit_seconds = round_rules(rnd).time_limit_seconds
    ends = rnd.starts_at + dt.timedelta(seconds=limit_seconds)
    if now < ends:
        return rnd
    with transaction.atomic():
        moved = Round.objects.filter(pk=rnd.pk, state=RoundState.RUNNING).update(
            state=RoundState.COUNTING)
        if moved:
            announce(championship=rnd.event.championship, round=rnd, kind="state")
            log_action(rnd.event.championship, "puzzlecomp.round.counting", round=rnd.pk,
                       at=ends.isoformat())
    rnd.state = RoundState.COUNTING
    return rnd


@transaction.atomic
def round_state_set(*, round: Round, state: RoundState, starts_at: dt.datetime | None = None,
                    user: Any = None) -> Round:
    """Move a round to a state without the order check (demo, imports); sets its start."""
    rnd = round
    rnd.state = state
    fields = ["state"]
    if starts_at is not None:
        rnd.starts_at = starts_at
        fields.append("starts_at")
    if state == RoundState.PUBLISHED and rnd.published_at is None:
        rnd.published_at = timezone.now()
        fields.append("published_at")
    rnd.save(update_fields=fields)
    announce(championship=rnd.event.championship, round=rnd, kind="state")
    log_action(rnd.event.championship, "puzzlecomp.round.state_set", user=user, round=rnd.pk,
               state=str(state), starts_at=rnd.starts_at.isoformat() if rnd.starts_at else None)
    return rnd


def round_move(*, round: Round, to: RoundState, user: Any = None,
               now: dt.datetime | None = None) -> Round:
    """Move a round to its next state by hand; starting sets the start to the server's now.

    RulesError when the move is not allowed from the round's state.
    """
    rnd = round_advance(round, now=now)
    if to not in NEXT_STATES[RoundState(rnd.state)]:
        raise RulesError(violation("round.state_order",
                                   f"a {rnd.state} round cannot become {to}", field="state"))
    now = now or timezone.now()
    if to == RoundState.FINAL:
        _check_no_dispute_can_come(rnd, now)
    if to == RoundState.PUBLISHED:
        rnd.published_at = now
        rnd.save(update_fields=["published_at"])
    return round_state_set(round=rnd, state=to, user=user,
                           starts_at=now if to == RoundState.RUNNING else None)


def _check_no_dispute_can_come(rnd: Round, now: dt.datetime) -> None:
    """wjpc-2025.txt, Disputes and Reviews: results become final after the 4-hour window, and
    only once the head judge has resolved every dispute."""
    ends = dispute_window_ends(rnd)
    if ends is not None and now < ends:
        raise RulesError(violation("round.dispute_window_open",
                                   f"disputes may be filed until {ends.isoformat()}",
                                   field="state", ends=ends))
    waiting = Dispute.objects.filter(round=rnd, status=DisputeStatus.OPEN).count()
    if waiting:
        raise RulesError(violation("round.disputes_open", f"{waiting} disputes are still open",
                                   field="state", count=waiting))


def dispute_window_ends(rnd: Round) -> dt.datetime | None:
    """When disputes of a published round close; None when the ruleset sets no window."""
    hours = ruleset_of(rnd).dispute_window_hours
    if rnd.published_at is None or not hours:
        return None
    return rnd.published_at + dt.timedelta(hours=hours)
