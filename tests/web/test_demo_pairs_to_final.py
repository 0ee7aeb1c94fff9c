"""The demo's pairs, 400 from 64 countries, from the first round to the final."""

from __future__ import annotations

import pytest

from puzzlecomp.championships.models import Entry, Seat
from tests.standings_support import played_championship

pytestmark = pytest.mark.django_db


def test_the_demo_pairs_of_64_countries_are_seated_in_every_round_up_to_the_final():
    """wjpc-2025.txt, Pairs: semifinals of at most 180 pairs per group (85 direct, the rest by
    play-off; docs/qualification.md "WJPC semifinal sizes"), so the hall's tables hold every
    round of a full pairs event without a seating error."""
    championship = played_championship(individuals=12, pairs=400, event="pairs")
    pairs = championship.events.get(code="pairs")
    assert len(set(Entry.objects.filter(event=pairs).values_list("country", flat=True))) >= 60
    seated = {rnd.code: Seat.objects.filter(round=rnd).count()
              for rnd in pairs.rounds.order_by("position")}
    assert list(seated) == ["first", "semifinal", "final"]
    assert all(seated.values()), seated
