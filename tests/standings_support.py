"""A championship played to its end: the demo's individual event through its final round."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from puzzlecomp.championships.demo import DEMO_SLUG, demo_load
from puzzlecomp.championships.models import (
    Championship,
    EntryMember,
    Event,
    Person,
    Result,
    Round,
    RoundState,
    Seat,
)
from puzzlecomp.championships.selectors.rounds import event_rounds_to_come, round_limit_seconds
from puzzlecomp.championships.services.qualifiers import next_round_create, qualifiers_confirm
from puzzlecomp.championships.services.results import result_record
from puzzlecomp.championships.services.rounds import round_state_set
from puzzlecomp.championships.services.standings import event_standings_publish
from puzzlecomp.rules.results import Status


def played_championship(*, individuals: int = 60, pairs: int = 8,
                        event: str = "individual") -> Championship:
    """The demo with one event (the individual one by default) played through every round:
    times for everyone seated, some unfinished, one disqualified and one absent per round."""
    demo_load(individuals=individuals, pairs=pairs, teams=4)
    championship = Championship.objects.get(slug=DEMO_SLUG)
    rng = random.Random(13)
    _birth_dates_given(championship, rng)
    rounds = list(Round.objects.filter(event__championship=championship,
                                       event__code=event).order_by("position"))
    for rnd in rounds:
        _record_everyone(rnd, rng)
        round_state_set(round=rnd, state=RoundState.PUBLISHED)
        if rnd is not rounds[-1]:
            qualifiers_confirm(round=rnd, knowingly=True)
            next_round_create(round=rnd)
    # Titles and prizes come only from a final that is final (rules.prizes).
    round_state_set(round=rounds[-1], state=RoundState.FINAL)
    return championship


def _birth_dates_given(championship: Championship, rng: random.Random) -> None:
    """Every entrant states a birth date, for the age categories: the demo's entrants are the
    archive's people, who gave none, and the demo invents none for them (issue 30)."""
    undated = list(Person.objects.filter(
        pk__in=EntryMember.objects.filter(entry__event__championship=championship)
        .values("person_id"), birth_date=None).order_by("pk"))
    for person in undated:
        person.birth_date = dt.date(rng.randint(1950, 2009), rng.randint(1, 12),
                                    rng.randint(1, 28))
    Person.objects.bulk_update(undated, ["birth_date"])


def _record_everyone(rnd: Round, rng: random.Random) -> None:
    done = set(Result.objects.filter(round=rnd).values_list("entry_id", flat=True))
    seats = list(Seat.objects.filter(round=rnd).exclude(entry_id__in=done)
                 .select_related("entry").order_by("table"))
    limit = round_limit_seconds(rnd)
    for n, seat in enumerate(seats):
        if n == 0:
            result_record(round=rnd, entry=seat.entry, status=Status.DSQ)
        elif n == 1:
            result_record(round=rnd, entry=seat.entry, status=Status.DNS)
        elif n % 7 == 3:
            result_record(round=rnd, entry=seat.entry, status=Status.UNFINISHED,
                          pieces=rng.randint(200, 490))
        else:
            result_record(round=rnd, entry=seat.entry, status=Status.FINISHED,
                          time_seconds=min(rng.randint(1800, 4400), limit - 1))


def standings_publish_mid_event(event: Event, **fields: Any) -> Event:
    """Publish an event's standings before its final, as an organiser may knowingly
    (rules/guards.py `event_not_final_guard`)."""
    return event_standings_publish(event=event, published=True,
                                   knowingly=len(event_rounds_to_come(event.pk)), **fields)
