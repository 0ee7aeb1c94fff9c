"""Seating on the hall's floor plan: seeding order, solo tables, swaps and no-shows."""

from __future__ import annotations

import datetime as dt
from collections import Counter

import pytest
from django.utils import timezone

from puzzlecomp.championships.models import (
    Entry,
    EntryStatus,
    GroupStart,
    Role,
    Round,
    RoundState,
    Seat,
)
from puzzlecomp.championships.services.groups import groups_assign
from puzzlecomp.championships.services.results import result_record
from puzzlecomp.championships.services.seating import seating_assign
from puzzlecomp.rules.results import Status
from tests.judging.support import seat_round
from tests.web.test_groups import COUNTRIES, add_entries, first_round, url


@pytest.fixture
def organiser(championship, client_as):
    return client_as(championship, Role.ORGANISER)


@pytest.fixture
def grouped(championship) -> Round:
    rnd = first_round(championship)
    add_entries(rnd.event, COUNTRIES)
    groups_assign(round=rnd, seed=5)
    return rnd


def seats_of(rnd: Round, group: str) -> list[Seat]:
    return list(Seat.objects.filter(round=rnd, group=group, no_show=False)
                .select_related("entry").order_by("table", "seat"))


def test_a_first_round_group_sits_two_per_table_from_the_front_in_seeding_order(
        organiser, grouped):
    """wjpc-2025.txt: first-round entrants share a table with another participant."""
    response = organiser.post(url("seating_assign", grouped), {"group": "A"})
    assert response.status_code == 302
    seats = seats_of(grouped, "A")
    group_a = Entry.objects.filter(event=grouped.event, group="A")
    assert len(seats) == group_a.count()
    per_table = Counter(s.table for s in seats)
    assert set(per_table) == set(range(1, len(per_table) + 1))
    assert all(n == 2 for table, n in per_table.items() if table < len(per_table))
    expected = sorted(group_a, key=lambda e: (e.seed_rank is None, e.seed_rank or 0, e.number))
    assert [s.entry for s in seats] == expected
    assert not Seat.objects.filter(round=grouped).exclude(group="A").exists()


def test_seating_every_group_seats_each_one_from_table_1(organiser, grouped):
    """One hall: the groups compete one after another, each from the front tables."""
    organiser.post(url("seating_assign", grouped), {"group": ""})
    assert Seat.objects.filter(round=grouped).count() == sum(COUNTRIES.values())
    for group in "ABCDEF":
        assert seats_of(grouped, group)[0].table == 1


def test_later_rounds_seat_the_top_8_of_each_previous_group_alone(championship, organiser,
                                                                   grouped):
    """wjpc-2025.txt: "The top 8 classified in each group will participate on a single table
    in the next round, the rest will share a table with other participant"."""
    for entry in Entry.objects.filter(event=grouped.event):
        result_record(round=grouped, entry=entry, status=Status.FINISHED,
                      time_seconds=1000 + entry.number * 7)
    second = Round.objects.get(event=grouped.event, code="second")
    response = organiser.post(url("seating_assign", second), {"group": "S1"})
    assert response.status_code == 302
    seats = seats_of(second, "S1")
    from_ab = Entry.objects.filter(event=grouped.event, group__in="AB").count()
    assert len(seats) == from_ab
    per_table = Counter(s.table for s in seats)
    alone = [t for t, n in sorted(per_table.items()) if n == 1]
    assert alone[:16] == list(range(1, 17))
    for group in "AB":
        fastest = sorted(Entry.objects.filter(event=grouped.event, group=group),
                         key=lambda e: e.number)[:8]
        assert {s.entry for s in seats if s.table <= 16} >= set(fastest)
    assert all(per_table[t] == 2 for t in range(17, max(per_table)))
    page = organiser.get(url("groups", second)).content.decode()
    assert "S1" in page


def test_a_later_round_without_results_in_the_previous_one_is_not_seated(organiser, grouped):
    second = Round.objects.get(event=grouped.event, code="second")
    response = organiser.post(url("seating_assign", second), {"group": "S1"}, follow=True)
    assert "The previous round has no results yet" in response.content.decode()
    assert not Seat.objects.filter(round=second).exists()


def test_two_seats_are_swapped_by_hand(organiser, grouped):
    seating_assign(round=grouped, groups=["A"])
    first, last = seats_of(grouped, "A")[0], seats_of(grouped, "A")[-1]
    response = organiser.post(url("seats_swap", grouped), {
        "entry_a": first.entry.number, "entry_b": last.entry.number, "group": "A"})
    assert response.status_code == 302
    assert Seat.objects.get(round=grouped, entry=first.entry).table == last.table
    assert Seat.objects.get(round=grouped, entry=last.entry).table == first.table


def test_swapping_entries_of_different_groups_is_refused(organiser, grouped):
    seating_assign(round=grouped)
    a, b = seats_of(grouped, "A")[0].entry, seats_of(grouped, "B")[0].entry
    response = organiser.post(url("seats_swap", grouped),
                              {"entry_a": a.number, "entry_b": b.number}, follow=True)
    assert "different groups" in response.content.decode()
    assert Seat.objects.get(round=grouped, entry=a).group == "A"


def test_a_no_show_table_is_given_away_only_10_minutes_after_the_start(championship, client_as,
                                                                      grouped):
    """wjpc-2025.txt: the Organization may use the tables of participants who have not shown
    up after 10 minutes of the start of the test."""
    seating_assign(round=grouped, groups=["A"])
    missing = seats_of(grouped, "A")[0]
    waiting = add_entries(grouped.event, {"FI": 1}, status=EntryStatus.WAITING)[0]
    head_judge = client_as(championship, Role.HEAD_JUDGE)
    data = {"no_show": missing.entry.number, "replacement": waiting.number, "group": "A"}

    Round.objects.filter(pk=grouped.pk).update(starts_at=timezone.now() - dt.timedelta(minutes=9))
    page = head_judge.post(url("seat_no_show", grouped), data, follow=True).content.decode()
    assert "Too early" in page
    assert "10 minutes after the start" in page
    assert not Seat.objects.filter(entry=waiting).exists()

    Round.objects.filter(pk=grouped.pk).update(starts_at=timezone.now() - dt.timedelta(minutes=11))
    assert head_judge.post(url("seat_no_show", grouped), data).status_code == 302
    taken = Seat.objects.get(round=grouped, entry=waiting)
    assert (taken.table, taken.seat, taken.group) == (missing.table, missing.seat, "A")
    left = Seat.objects.get(round=grouped, entry=missing.entry)
    assert left.no_show
    assert left.table == missing.table


def test_a_no_show_table_waits_10_minutes_after_its_own_groups_start(championship, client_as,
                                                                     grouped):
    """wjpc-2025.txt: 10 minutes after the start of the test; groups A-F play one after another
    on the same tables, so the test of group B starts when group B starts, not group A."""
    seating_assign(round=grouped, groups=["B"])
    missing = seats_of(grouped, "B")[0]
    waiting = add_entries(grouped.event, {"FI": 1}, status=EntryStatus.WAITING)[0]
    now = timezone.now()
    Round.objects.filter(pk=grouped.pk).update(starts_at=now - dt.timedelta(hours=3))
    GroupStart.objects.create(round=grouped, group="A", started_at=now - dt.timedelta(hours=3))
    GroupStart.objects.create(round=grouped, group="B", planned_at=now - dt.timedelta(minutes=5),
                              started_at=now - dt.timedelta(minutes=5))
    head_judge = client_as(championship, Role.HEAD_JUDGE)
    seating = head_judge.get(url("seating", grouped) + "?group=B").content.decode()
    allowed = timezone.localtime(now - dt.timedelta(minutes=5) + dt.timedelta(minutes=10))
    assert f"may be given away from: {allowed:%H:%M}" in seating
    data = {"no_show": missing.entry.number, "replacement": waiting.number, "group": "B"}
    page = head_judge.post(url("seat_no_show", grouped), data, follow=True).content.decode()
    assert "Too early" in page
    assert not Seat.objects.filter(entry=waiting).exists()


def test_the_seating_page_says_when_the_rulebook_has_no_no_show_rule(make_championship,
                                                                    client_as):
    """norway-nm-2025.txt names no time after which a missing entrant's table is given away:
    the page says so instead of claiming the round has no start time."""
    championship = make_championship("norway-nm-2025")
    championship.floor_rows = [4, 4]
    championship.save()
    rnd = seat_round(championship, "individual", "final", tables=2, state=RoundState.PLANNED)
    page = client_as(championship, Role.HEAD_JUDGE).get(url("seating", rnd)).content.decode()
    assert "The rulebook gives no time after which" in page
    assert "no start time yet" not in page


def test_the_floor_map_draws_every_table_of_the_hall_with_names(championship, client_as, grouped):
    seating_assign(round=grouped, groups=["A"])
    head_judge = client_as(championship, Role.HEAD_JUDGE)
    response = head_judge.get(url("seating", grouped) + "?group=A")
    assert response.status_code == 200
    page = response.content.decode()
    # Each table: its box, and the box its names are clipped to (they never overflow it).
    assert page.count("<rect ") == 2 * 108
    assert page.count("<clipPath ") == 108
    seat = seats_of(grouped, "A")[0]
    assert f"{seat.entry.number} {seat.entry.name}" in page
    assert client_as(championship, Role.JUDGE).get(url("seating", grouped)).status_code == 403


def test_a_judge_cannot_seat(championship, client_as, grouped):
    judge = client_as(championship, Role.JUDGE)
    assert judge.post(url("seating_assign", grouped), {"group": "A"}).status_code == 403
    assert not Seat.objects.exists()
