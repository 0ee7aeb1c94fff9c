"""The demo championship: groups assigned, first rounds seated, half a round recorded."""

from __future__ import annotations

from collections import Counter

from puzzlecomp.championships.demo import DEMO_SLUG, demo_load
from puzzlecomp.championships.models import (
    Championship,
    Entry,
    EntryMember,
    Result,
    Round,
    RoundState,
    Seat,
)
from puzzlecomp.formats.history_csv import read_history
from puzzlecomp.samples import SAMPLE_RESULTS


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


def test_the_demo_stands_on_the_archive_and_its_entrants_are_the_archives_2025_people(db):
    """Issue 15: the demo loads the earlier editions, and its entrants are the archive's 2025
    entrants, so seeding and debutants come from real histories."""
    demo_load(individuals=60, pairs=20, teams=8)
    assert sorted(Championship.objects.filter(archived=True).values_list("slug", flat=True)) == [
        "wjpc-2019", "wjpc-2022", "wjpc-2023", "wjpc-2024"]
    rows = read_history(SAMPLE_RESULTS.read_text(encoding="utf-8"), source="sample")
    solo = list(dict.fromkeys(r.people[0] for r in rows if r.year == 2025
                              and r.event == "individual" and r.people))
    members = EntryMember.objects.filter(entry__event__championship__slug=DEMO_SLUG,
                                         entry__event__code="individual")
    assert [m.person.archive_id for m in members.order_by("entry__number")] == solo[:60]
    debutant = Counter(members.values_list("debutant", flat=True))
    assert debutant[True] > 0
    assert debutant[False] > 0
    teams = EntryMember.objects.filter(entry__event__championship__slug=DEMO_SLUG,
                                       entry__event__code="teams")
    assert teams.exclude(person__archive_id=None).count() == teams.count()
    assert Entry.objects.filter(event__championship__slug=DEMO_SLUG).count() == 88


def test_without_the_archive_the_demo_invents_everyone(db):
    demo_load(individuals=12, pairs=4, teams=4, archive=False)
    assert not Championship.objects.filter(archived=True).exists()
    assert not EntryMember.objects.exclude(person__archive_id=None).exists()


def test_the_demo_puts_each_person_in_one_entry_and_invents_no_archived_birth_date(db):
    """Issue 30: wjpc-2025.txt, Registration, one entry per person per category (the source's
    namesakes shared teams of 2025); and no made-up birth date for a person of the archive,
    whose real results would otherwise make age records."""
    demo_load(individuals=12, pairs=8, teams=100)
    members = EntryMember.objects.filter(entry__event__championship__slug=DEMO_SLUG)
    per_event = Counter(members.values_list("entry__event__code", "person_id"))
    assert max(per_event.values()) == 1
    archived = members.exclude(person__archive_id=None)
    assert archived.filter(entry__event__code="teams").count() >= 300
    assert not archived.filter(person__birth_date__isnull=False).exists()


def test_the_demos_groups_start_one_after_another_and_its_entries_registered_in_the_window(db):
    """Issue 24: the demo started every group at once, dated every registration the moment it
    was loaded, and priced them all on one day (the teams' full 156.25 EUR)."""
    from decimal import Decimal

    from django.utils import timezone

    from puzzlecomp.championships.models import GroupStart
    from puzzlecomp.championships.selectors.rounds import group_schedule_get

    demo_load(individuals=60, pairs=20, teams=8, archive=False)
    championship = Championship.objects.get(slug=DEMO_SLUG)
    for event in ("individual", "pairs"):
        first = Round.objects.get(event__championship=championship, event__code=event,
                                  code="first")
        starts = sorted(GroupStart.objects.filter(round=first, started_at__isnull=False)
                        .values_list("started_at", flat=True))
        assert len(starts) == len(set(starts)) >= 2, event
        assert starts[0] >= championship.starts_at
        playing = [g.group for g in group_schedule_get(first, now=timezone.now())
                   if g.state == RoundState.RUNNING]
        assert len(playing) <= 1, (event, playing)
    pairs = Round.objects.get(event__championship=championship, event__code="pairs",
                              code="first")
    waiting = GroupStart.objects.filter(round=pairs, started_at__isnull=True)
    assert waiting.count() == 2
    assert all(g.planned_at and g.planned_at > timezone.now() for g in waiting)
    assert not Result.objects.filter(round=pairs, entry__group__in=["C", "D"]).exists()
    teams = Entry.objects.filter(event__championship=championship, event__code="teams")
    for entry in teams:
        assert entry.registered_at < championship.starts_at
        assert entry.confirmed_at > entry.registered_at
        early = timezone.localdate(entry.registered_at).replace(month=5, day=31)
        expected = Decimal("125") if timezone.localdate(entry.registered_at) <= early else \
            Decimal("156.25")
        assert entry.fee_amount == expected
    assert len({e.registered_at.date() for e in teams}) > 1
