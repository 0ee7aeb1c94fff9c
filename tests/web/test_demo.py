"""The demo championship: groups assigned, first rounds seated, half a round recorded."""

from __future__ import annotations

from collections import Counter

from puzzlecomp.championships.demo import DEMO_SLUG, demo_load
from puzzlecomp.championships.models import (
    Championship,
    Entry,
    Result,
    Round,
    RoundState,
    Seat,
)


def test_the_demo_loads_with_groups_seats_and_half_the_first_results(db):
    message = demo_load(individuals=60, pairs=20, teams=8)
    assert DEMO_SLUG in message
    championship = Championship.objects.get(slug=DEMO_SLUG)
    for event, groups in (("individual", "ABCDEF"), ("pairs", "ABCD"), ("teams", "ABCD")):
        entries = Entry.objects.filter(event__championship=championship, event__code=event)
        assert set(entries.values_list("group", flat=True)) == set(groups), event
        first = Round.objects.get(event__championship=championship, event__code=event,
                                  code="first")
        assert Seat.objects.filter(round=first).count() == entries.count(), event
    first = Round.objects.get(event__championship=championship, event__code="individual",
                              code="first")
    assert first.state == RoundState.COUNTING
    assert first.starts_at is not None
    recorded = Result.objects.filter(round=first)
    assert 15 <= recorded.count() <= 45
    statuses = Counter(recorded.values_list("status", flat=True))
    assert statuses["finished"] > 0
    assert statuses["unfinished"] > 0
    assert recorded.filter(missing__gt=0).exists()
    assert "already loaded" in demo_load(individuals=60, pairs=20, teams=8)


def test_the_demo_publishes_its_standings(db, client):
    demo_load(individuals=30, pairs=8, teams=4)
    championship = Championship.objects.get(slug=DEMO_SLUG)
    assert not championship.events.filter(standings_published_at__isnull=True).exists()
    page = client.get(f"/c/{DEMO_SLUG}/standings/")
    assert page.status_code == 200
    assert b'id="standings"' in page.content


def test_the_demo_championship_starts_before_its_first_rounds_and_each_entry_owes_a_fee(db):
    demo_load(individuals=12, pairs=4, teams=4)
    championship = Championship.objects.get(slug=DEMO_SLUG)
    started = Round.objects.filter(event__championship=championship, starts_at__isnull=False)
    assert started.exists()
    assert all(championship.starts_at <= r.starts_at for r in started)
    entries = Entry.objects.filter(event__championship=championship)
    assert not entries.filter(fee_amount__isnull=True).exists()
    assert set(entries.values_list("fee_currency", flat=True)) == {"EUR"}
