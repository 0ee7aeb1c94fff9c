"""The demo's first rounds: groups assigned, tables seated, results half recorded."""

from __future__ import annotations

import datetime as dt
import random

from django.db import transaction
from django.utils import timezone

from puzzlecomp.championships.engine import round_rules
from puzzlecomp.championships.models import Championship, Round, RoundState, Seat
from puzzlecomp.championships.services.groups import groups_assign
from puzzlecomp.championships.services.results import ResultValues, result_record, result_submit
from puzzlecomp.championships.services.rounds import round_state_set
from puzzlecomp.championships.services.seating import seating_assign
from puzzlecomp.rules.results import Status


@transaction.atomic
def demo_plan_and_record(championship: Championship, *, seed: int) -> None:
    """Assign groups, seat every first round and record half the first individual round."""
    rng = random.Random(seed)
    firsts = {}
    for event in championship.events.filter(code__in=("individual", "pairs", "teams")):
        rnd = event.rounds.order_by("position").first()
        if rnd is None or not rnd.groups or not event.entries.exists():
            continue
        groups_assign(round=rnd, seed=seed)
        seating_assign(round=rnd)
        firsts[event.code] = rnd
    individual = firsts.get("individual")
    if individual is not None:
        _record_half(individual, rng)
    pairs = firsts.get("pairs")
    if pairs is not None:
        _running_with_first_finishes(pairs, rng)


def _record_half(rnd: Round, rng: random.Random) -> None:
    """Start the round 100 minutes ago (so it is counting) and record about half its groups."""
    round_state_set(round=rnd, state=RoundState("counting"),
                    starts_at=timezone.now() - dt.timedelta(minutes=100))
    rules = round_rules(rnd)
    limit = rules.time_limit_seconds
    pieces = rules.total_pieces
    seats = Seat.objects.filter(round=rnd).select_related("entry").order_by("group", "table")
    for seat in seats:
        if rng.random() >= 0.5:
            continue
        if rng.random() < 0.75:
            missing = rng.choice((0, 0, 0, 0, 1, 2, 3))
            contiguous = 2 if missing >= 2 and rng.random() < 0.3 else 0
            result_record(round=rnd, entry=seat.entry, status=Status.FINISHED,
                          time_seconds=rng.randint(limit // 3, limit - 1), missing=missing,
                          missing_contiguous=contiguous,
                          missing_found=rng.randint(0, missing - contiguous), rules=rules)
        else:
            result_record(round=rnd, entry=seat.entry, status=Status.UNFINISHED,
                          pieces=rng.randint(pieces // 3, pieces - 1), rules=rules)


def _running_with_first_finishes(rnd: Round, rng: random.Random) -> None:
    """Start the round 40 minutes ago (so its clock runs) and record the fastest finishes, some
    still awaiting the judge's check, as a round in progress looks."""
    round_state_set(round=rnd, state=RoundState("running"),
                    starts_at=timezone.now() - dt.timedelta(minutes=40))
    rules = round_rules(rnd)
    seats = list(Seat.objects.filter(round=rnd).select_related("entry").order_by("table"))
    for seat in rng.sample(seats, min(24, len(seats))):
        checked = rng.random() < 0.7
        result_submit(round=rnd, entry=seat.entry, action="verify" if checked else "tap",
                      values=ResultValues(status=Status.FINISHED,
                                          time_seconds=rng.randint(25 * 60, 40 * 60),
                                          missing=rng.choice((0, 0, 0, 1)) if checked else 0,
                                          checked=checked, competitor_confirmed=checked),
                      rules=rules)
