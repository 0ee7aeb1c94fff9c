"""The organiser's side of registration: payments, cancellations, the waiting list, relay draws."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from puzzlecomp.championships.models import AuditEntry, Entry, EntryStatus, RelayDraw, Role
from puzzlecomp.championships.selectors.registration import relay_pool
from puzzlecomp.championships.services.registration import (
    MemberDetails,
    entry_confirm,
    entry_register,
)
from puzzlecomp.championships.services.relay import pool_label, relay_teams_draw
from puzzlecomp.planning import draw_teams

START = dt.datetime(2027, 9, 20, 9, 0, tzinfo=dt.UTC)


@pytest.fixture
def wjpc(make_championship):
    return make_championship("wjpc-2025", starts_at=START)


@pytest.fixture
def organiser(client_as, wjpc, clock, settings):
    """An organiser signed in on the test clock, for a session that outlives clock jumps."""
    settings.SESSION_COOKIE_AGE = 365 * 24 * 3600
    return client_as(wjpc, Role.ORGANISER)


def someone(n: int, *, nationality: str = "ES") -> MemberDetails:
    return MemberDetails(first_name=f"Person{n}", last_name=f"Surname{n}",
                         email=f"p{n}@example.org", nationality=nationality,
                         birth_date=dt.date(1980, 1, 1) + dt.timedelta(days=n),
                         consent_publish=True)


def confirmed(championship, event: str, *members: MemberDetails) -> Entry:
    entry = entry_register(event=championship.events.get(code=event), members=members).entry
    return entry_confirm(entry=entry)


def url(name: str, championship, *args) -> str:
    return reverse(f"control:registrations:{name}", args=[championship.slug, *args])


def test_the_entry_list_shows_status_fee_due_and_paid(wjpc, organiser, clock):
    confirmed(wjpc, "individual", someone(1))
    html = organiser.get(url("event", wjpc, "individual")).content.decode()
    assert "Person1 Surname1" in html
    assert "Confirmed" in html
    assert "75.00 EUR" in html


def test_the_organiser_marks_a_payment_received(wjpc, organiser, clock):
    entry = confirmed(wjpc, "individual", someone(1))
    response = organiser.post(url("payment", wjpc, "individual", entry.number),
                              {"amount": "75.00"})
    assert response.status_code == 302
    entry.refresh_from_db()
    assert (entry.paid_amount, entry.paid_at) == (Decimal("75.00"), timezone.now())
    assert AuditEntry.objects.filter(action="puzzlecomp.entry.payment_recorded").exists()


def test_a_payment_of_nothing_is_refused_with_a_message(wjpc, organiser, clock):
    entry = confirmed(wjpc, "individual", someone(1))
    response = organiser.post(url("payment", wjpc, "individual", entry.number), {"amount": "0"})
    assert "greater than or equal to 0.01" in response.content.decode()
    entry.refresh_from_db()
    assert entry.paid_amount == 0


def test_a_cancellation_15_days_before_the_start_is_refunded_in_full(wjpc, organiser, clock):
    """wjpc-2025.txt: "only those paid up to 15 days before the start ... are entitled to a
    refund": 5 September for a start on 20 September."""
    entry = confirmed(wjpc, "individual", someone(1))
    organiser.post(url("payment", wjpc, "individual", entry.number), {"amount": "75"})
    clock("2027-09-05T20:00")
    assert "refund if cancelled today: 75.00 EUR" in organiser.get(
        url("cancel", wjpc, "individual", entry.number)).content.decode()
    organiser.post(url("cancel", wjpc, "individual", entry.number))
    entry.refresh_from_db()
    assert (entry.status, entry.refund_amount) == (EntryStatus.CANCELLED, Decimal("75.00"))


def test_a_later_cancellation_gets_no_refund_and_the_page_says_why(wjpc, organiser, clock):
    """wjpc-2025.txt: the 15-day refund rule; 6 September is too late for 20 September."""
    entry = confirmed(wjpc, "individual", someone(1))
    organiser.post(url("payment", wjpc, "individual", entry.number), {"amount": "75"})
    clock("2027-09-06T08:00")
    html = organiser.get(url("cancel", wjpc, "individual", entry.number)).content.decode()
    assert "a refund needs a cancellation by Sept. 5, 2027 (15 days before" in html
    organiser.post(url("cancel", wjpc, "individual", entry.number))
    entry.refresh_from_db()
    assert (entry.status, entry.refund_amount) == (EntryStatus.CANCELLED, Decimal("0.00"))


def test_the_first_waiting_entry_gets_the_place_a_cancellation_frees(wjpc, organiser, clock):
    """wjpc-2025.txt: places are limited; we fill a freed place from the waiting list in the
    order of registration."""
    wjpc.events.filter(code="individual").update(capacity=1)
    first = confirmed(wjpc, "individual", someone(1))
    clock("2027-07-02T12:00")
    second = confirmed(wjpc, "individual", someone(2))
    clock("2027-07-03T12:00")
    third = confirmed(wjpc, "individual", someone(3))
    assert (second.status, third.status) == (EntryStatus.WAITING, EntryStatus.WAITING)
    organiser.post(url("promote", wjpc, "individual"))
    second.refresh_from_db()
    assert second.status == EntryStatus.WAITING  # no free place yet
    organiser.post(url("cancel", wjpc, "individual", first.number))
    organiser.post(url("promote", wjpc, "individual"))
    second.refresh_from_db()
    third.refresh_from_db()
    assert (second.status, third.status) == (EntryStatus.CONFIRMED, EntryStatus.WAITING)


def test_a_new_confirmation_does_not_overtake_the_waiting_list(wjpc, clock):
    wjpc.events.filter(code="individual").update(capacity=1)
    first = confirmed(wjpc, "individual", someone(1))
    confirmed(wjpc, "individual", someone(2))
    Entry.objects.filter(pk=first.pk).update(status=EntryStatus.CANCELLED)
    assert confirmed(wjpc, "individual", someone(3)).status == EntryStatus.WAITING


@pytest.mark.parametrize("role", [None, Role.JUDGE, Role.HEAD_JUDGE])
def test_only_organisers_see_registrations(wjpc, client_as, role):
    client = client_as(wjpc, role)
    for name, args in [("index", ()), ("event", ("individual",)), ("draw", ("individual",))]:
        response = client.get(url(name, wjpc, *args))
        assert response.status_code == (302 if role is None else 403)


# ------------------------------------------------------------------------- relay teams

@pytest.fixture
def relay(make_championship, clock):
    """The Czech relay (czech-blind-and-relay.txt) with nine people registered alone."""
    championship = make_championship("czech-blind-relay", starts_at=START)
    for n in range(9):
        confirmed(championship, "relay", someone(n, nationality="CZ"))
    return championship


def test_each_person_registers_alone_for_the_relay_and_pays_800_czk(relay):
    """czech-blind-and-relay.txt: "Each competitor registers individually"; CZK 3,200 per team
    (CZK 800 per person)."""
    entries = Entry.objects.filter(event__code="relay")
    assert {(e.members.count(), e.fee_amount, e.fee_currency) for e in entries} == {
        (1, Decimal("800.00"), "CZK")}


def test_the_relay_draw_makes_teams_of_four_and_lists_the_people_left_over(relay, client_as):
    """czech-blind-and-relay.txt: "Team composition is determined randomly by the organizer"."""
    organiser = client_as(relay, Role.ORGANISER)
    organiser.post(url("draw", relay, "relay"), {"seed": "2027"})
    teams = Entry.objects.filter(event__code="relay", status=EntryStatus.CONFIRMED,
                                 members__position=3)
    assert [(t.members.count(), t.fee_amount) for t in teams] == [(4, 3200), (4, 3200)]
    assert len(relay_pool(event=relay.events.get(code="relay"))) == 1
    page = organiser.get(url("draw", relay, "relay")).content.decode()
    assert "seed 2027" in page
    assert "Left over" in page


def test_the_relay_draw_can_be_repeated_from_its_recorded_seed(relay):
    """czech-blind-and-relay.txt: teams are drawn at random; the seed makes the draw
    checkable by anyone."""
    event = relay.events.get(code="relay")
    pool = [pool_label(entry) for entry in relay_pool(event=event)]
    result = relay_teams_draw(event=event, by=None)
    record = RelayDraw.objects.get(event=event)
    assert record.seed == result.draw.seed
    again = draw_teams(record.pool, team_size=4, seed=record.seed)
    assert [team["members"] for team in record.teams] == [list(t) for t in again.teams]
    assert sorted(record.pool) == sorted(pool)
    assert record.left_over == list(again.left_over)
    assert AuditEntry.objects.get(action="puzzlecomp.relay.drawn").data["seed"] == record.seed
