"""The demo's first rounds: groups assigned, tables seated, one round half recorded with a time
credit, one running, and the teams' round played to the end: models chosen, results published,
a dispute ruled on, qualifiers confirmed and the final seated."""

from __future__ import annotations

import datetime as dt
import random

from django.db import transaction
from django.utils import timezone

from puzzlecomp.championships.engine import round_rules
from puzzlecomp.championships.models import (
    Championship,
    EntryStatus,
    Result,
    Round,
    RoundState,
    Seat,
)
from puzzlecomp.championships.services.disputes import (
    dispute_file,
    dispute_resolve,
    time_credit_grant,
)
from puzzlecomp.championships.services.groups import entry_group_move, groups_assign
from puzzlecomp.championships.services.qualifiers import next_round_create, qualifiers_confirm
from puzzlecomp.championships.services.results import ResultValues, result_record, result_submit
from puzzlecomp.championships.services.rounds import group_plan, round_state_set
from puzzlecomp.championships.services.seating import seating_assign
from puzzlecomp.championships.services.settings import entry_models_choose, round_model_choice
from puzzlecomp.rules.results import Status


@transaction.atomic
def demo_plan_and_record(championship: Championship, *, seed: int) -> None:
    """Assign groups and seat every first round; record half the first individual round, start
    the pairs' round and play the teams' round to its end."""
    rng = random.Random(seed)
    firsts = {}
    for event in championship.events.filter(code__in=("individual", "pairs", "teams")):
        rnd = event.rounds.order_by("position").first()
        if rnd is None or not rnd.groups or not event.entries.exists():
            continue
        groups_assign(round=rnd, seed=seed)
        if event.code == "individual":
            _moved_by_hand(rnd)
        seating_assign(round=rnd)
        firsts[event.code] = rnd
    individual = firsts.get("individual")
    if individual is not None:
        _record_half(individual, rng)
    pairs = firsts.get("pairs")
    if pairs is not None:
        _running_with_first_finishes(pairs, rng)
    teams = firsts.get("teams")
    if teams is not None:
        _played_to_the_end(teams, rng)


def _moved_by_hand(rnd: Round) -> None:
    """One entrant asked to compete in another group, and the organiser moved them."""
    entry = rnd.event.entries.filter(status=EntryStatus.CONFIRMED).order_by("number").first()
    if entry is None:
        return
    to_group = next(g for g in rnd.groups if g != entry.group)
    entry_group_move(entry=entry, to_group=to_group, user=None,
                     reason="Travels with a pair that competes in this group")


def _record_half(rnd: Round, rng: random.Random) -> None:
    """Start the round 100 minutes ago (so it is counting) and record about half its groups."""
    started = timezone.now() - dt.timedelta(minutes=100)
    # The schedule the organiser published: every group planned to start together.
    group_plan(round=rnd, planned=dict.fromkeys(rnd.groups, started))
    round_state_set(round=rnd, state=RoundState("counting"), starts_at=started)
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
    # wjpc-2025.txt, Start of the round: a wrong puzzle handed out costs the organisation time.
    credited = seats.first()
    if credited is not None:
        time_credit_grant(round=rnd, entry=credited.entry, seconds=90,
                          reason="Wrong puzzle handed out at the start")


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
    _one_finish_at_two_tables(rnd)


def _one_finish_at_two_tables(rnd: Round) -> None:
    """A judge's slip for the head judge's queue to flag: a finish awaiting its check tapped
    again at the next table of its group (docs/live-rounds.md, Second looks)."""
    for tapped in Result.objects.filter(round=rnd, status=Status.FINISHED, checked=False,
                                        time_seconds__isnull=False).order_by("entry__number"):
        seat = Seat.objects.get(round=rnd, entry=tapped.entry)
        neighbour = (Seat.objects.filter(round=rnd, group=seat.group, table=seat.table + 1)
                     .exclude(entry__results__round=rnd).select_related("entry").first())
        if neighbour is not None:
            result_submit(round=rnd, entry=neighbour.entry, action="tap",
                          values=ResultValues(status=Status.FINISHED,
                                              time_seconds=tapped.time_seconds, checked=False))
            return


def _played_to_the_end(rnd: Round, rng: random.Random) -> None:
    """The teams' round of three hours ago: every team chose its models, finished both
    puzzles or counted at the limit; the results are published, one team's dispute was
    rejected, the qualifiers are confirmed and the final is seated."""
    offered, to_choose = round_model_choice(rnd)
    seats = list(Seat.objects.filter(round=rnd).select_related("entry").order_by("table"))
    for seat in seats:
        if offered:
            entry_models_choose(entry=seat.entry, rnd=rnd,
                                models=rng.sample(range(1, offered + 1), to_choose), by=None)
    round_state_set(round=rnd, state=RoundState("counting"),
                    starts_at=timezone.now() - dt.timedelta(hours=3, minutes=10))
    rules = round_rules(rnd)
    limit = rules.time_limit_seconds
    for seat in seats:
        finished = rng.random() < 0.8
        # Puzzles are done one after another: each finish comes after the one before.
        times = sorted(rng.sample(range(limit // 3, limit), len(rules.puzzle_sizes)))
        puzzles = [{"time": time, "verified": True} if finished or n == 0 else
                   {"pieces": rng.randint(200, 900), "verified": True}
                   for n, time in enumerate(times)]
        result_submit(round=rnd, entry=seat.entry, action="record", rules=rules,
                      values=ResultValues(status=Status.FINISHED if finished
                                          else Status.UNFINISHED, puzzles=puzzles,
                                          competitor_confirmed=True))
    round_state_set(round=rnd, state=RoundState("published"))
    if seats:
        disputed = seats[-1].entry
        dispute = dispute_file(entry=disputed, round=rnd,
                               text="Our second puzzle was finished before the limit.")
        dispute_resolve(dispute=dispute, uphold=False,
                        resolution="The judge's record and the video agree with the result.")
    # Published a moment ago: the demo confirms within the dispute window, knowingly.
    qualifiers_confirm(round=rnd, knowingly=True)
    next_round_create(round=rnd)
