"""A subcategory tiebreaker held as a round of its own (wjpc-2025.txt, Subcategories (*)): the
round "tiebreaker-CATEGORY" after the event's rounds, its called entrants seated one to a table.
Its results are entered as any round's; the standings, awards and ceremony papers follow its
order (selectors.standings), and the championship file carries it as a round."""

from __future__ import annotations

from typing import Any

from django.db.models import Max

from puzzlecomp.championships.actions import TIEBREAKER_ROUND_CREATED
from puzzlecomp.championships.models import Event, Puzzle, Round, Seat
from puzzlecomp.championships.selectors.standings import event_standings_get
from puzzlecomp.championships.services.work import unit_of_work
from puzzlecomp.rules.errors import RulesError, violation
from puzzlecomp.rules.prizes import decided_tiebreakers


def tiebreaker_round_create(*, event: Event, category: str, user: Any = None) -> Round:
    """Create the category's tiebreaker round and seat the entrants it calls.

    RulesError `tiebreaker.not_needed` when the category calls no tiebreaker (its finalists
    fill its prizes, or the final is not final yet) or its round exists already.
    """
    found = event_standings_get(event=event)
    call = next((c for c in decided_tiebreakers(found.overall, found.spec,
                                                final_rounds=found.final_rounds,
                                                settings=found.settings)
                 if c.category == category), None)
    code = f"{found.spec.subcategory_tiebreaker.round.id}-{category}" \
        if found.spec.subcategory_tiebreaker else ""
    if call is None or event.rounds.filter(code=code).exists():
        raise RulesError(violation(
            "tiebreaker.not_needed", f"the {category} subcategory of {event.code} calls no "
            "tiebreaker now", field="category", category=category))
    spec = found.spec.round(code)
    name = next(s.name for s in found.spec.subcategories if s.id == category)
    with unit_of_work(TIEBREAKER_ROUND_CREATED, championship=event.championship, user=user,
                      code=code, seats=len(call.entrants)) as work:
        position = (event.rounds.aggregate(last=Max("position"))["last"] or 0) + 1
        rnd = Round.objects.create(
            event=event, code=code, name=f"{spec.name}: {name}", position=position,
            time_limit_minutes=spec.time_limit_minutes, groups=[],
            groups_published=True, seating_published=True)
        Puzzle.objects.bulk_create(Puzzle(round=rnd, position=i, pieces=size)
                                   for i, size in enumerate(spec.puzzle_sizes))
        numbers = [int(line.entry.id) for line in call.entrants]
        entries = {e.number: e for e in event.entries.filter(number__in=numbers)}
        Seat.objects.bulk_create(Seat(round=rnd, entry=entries[number], table=table)
                                 for table, number in enumerate(numbers, start=1))
        work.announce(rnd)
    return rnd
