"""Fees, the registration window and refunds where a rulebook names none (czech-championship.txt,
norway-nm-2025.txt, australia-state-national.txt): the organiser sets them, registrants see them,
registrations and payments use them."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.core import mail
from django.urls import reverse

from puzzlecomp.championships.models import AuditEntry, Entry, Role
from puzzlecomp.championships.selectors.registration import entry_refund
from tests.web.test_registration_public import form_data, person

START = dt.datetime(2027, 10, 2, 8, 0, tzinfo=dt.UTC)


@pytest.fixture
def czech(make_championship):
    championship = make_championship("czech-championship", starts_at=START)
    championship.published = True
    championship.save()
    return championship


@pytest.fixture
def organiser(czech, client_as, clock, settings):
    settings.SESSION_COOKIE_AGE = 365 * 24 * 3600
    return client_as(czech, Role.ORGANISER)


def setup_url(name: str, championship, *args: str) -> str:
    return reverse(f"control:setup:{name}", args=[championship.slug, *args])


def set_czech_terms(organiser, czech) -> None:
    response = organiser.post(setup_url("registration", czech), {
        "opens_at": "2027-06-01T10:00", "closes_at": "2027-09-25T23:59",
        "fee_currency": "eur"})
    assert response.status_code == 302
    response = organiser.post(setup_url("event", czech, "pairs"), {
        "capacity": "120", "fee_amount": "40", "fee_per": "entry", "fee_early_amount": "30",
        "fee_early_until": "2027-08-31"})
    assert response.status_code == 302


def test_the_czech_rulebook_names_no_fee_so_the_organiser_sets_one_by_date(
        czech, organiser, client, clock):
    set_czech_terms(organiser, czech)
    pairs = czech.events.get(code="pairs")
    assert (pairs.fee_amount, pairs.fee_early_amount) == (Decimal(40), Decimal(30))
    assert AuditEntry.objects.filter(action="puzzlecomp.event.changed").exists()
    clock("2027-07-01T12:00")
    page = client.get(reverse("public:registration:index", args=[czech.slug])).content.decode()
    assert "Fee if you register today: 30.00 EUR" in page
    assert "From 1 September 2027: 40.00 EUR" in page


def test_a_registration_pays_the_organisers_fee_of_its_day_in_their_currency(
        czech, organiser, submit, clock):
    set_czech_terms(organiser, czech)
    clock("2027-09-05T12:00")
    path = reverse("public:registration:register", args=[czech.slug, "pairs"])
    submit(path, form_data(person("Jana", "Nová", nationality="CZ"),
                           person("Petr", "Novák", nationality="CZ")))
    entry = Entry.objects.get()
    assert (entry.fee_amount, entry.fee_currency) == (Decimal("40.00"), "EUR")
    assert "Fee due: 40.00 EUR" in mail.outbox[0].body


def test_registration_outside_the_organisers_window_is_refused(czech, organiser, client, clock):
    set_czech_terms(organiser, czech)
    clock("2027-05-31T12:00")
    path = reverse("public:registration:register", args=[czech.slug, "individual"])
    page = client.post(path, form_data(person("Jana", "Nová", nationality="CZ")))
    assert "opens" in page.content.decode()
    assert not Entry.objects.exists()


def test_norway_names_no_refund_so_the_organisers_rule_decides(make_championship, client_as,
                                                                clock):
    norway = make_championship("norway-nm-2025", starts_at=START)
    organiser = client_as(norway, Role.ORGANISER)
    organiser.post(setup_url("registration", norway), {"refund_days_before": "10",
                                                       "fee_currency": ""})
    norway.refresh_from_db()
    entry = Entry.objects.create(event=norway.events.get(code="individual"), number=1,
                                 paid_amount=Decimal(200), fee_currency="NOK")
    assert entry_refund(entry=entry, on=dt.date(2027, 9, 22)).amount.amount == Decimal(200)
    late = entry_refund(entry=entry, on=dt.date(2027, 9, 23))
    assert late.amount.amount == 0
    assert late.refusal is not None
    assert late.refusal.code == "refund.too_late"


def test_the_rulebooks_own_terms_are_not_offered_to_the_organiser(make_championship,
                                                                   client_as):
    """wjpc-2025.txt names the window, the refund and every fee: the organiser sets none."""
    wjpc = make_championship("wjpc-2025", starts_at=START)
    organiser = client_as(wjpc, Role.ORGANISER)
    terms = organiser.get(setup_url("registration", wjpc)).content.decode()
    assert 'name="opens_at"' not in terms
    assert 'name="refund_days_before"' not in terms
    event = organiser.get(setup_url("event", wjpc, "individual")).content.decode()
    assert 'name="fee_amount"' not in event


@pytest.mark.parametrize(("data", "message"), [
    ({"fee_amount": "40", "fee_early_amount": "30"},
     "An early price needs both its amount and its last day."),
    ({"fee_amount": "40", "fee_early_amount": "50", "fee_early_until": "2027-08-31"},
     "The early price is above the regular price."),
    ({"fee_early_amount": "30", "fee_early_until": "2027-08-31"},
     "An early price needs a regular price too."),
])
def test_an_inconsistent_fee_is_refused_with_the_reason(czech, organiser, data, message):
    page = organiser.post(setup_url("event", czech, "pairs"),
                          {"capacity": "", "fee_per": "entry", **data}).content.decode()
    assert message in page
    assert czech.events.get(code="pairs").fee_amount is None


def test_a_window_closing_before_it_opens_and_a_bad_currency_are_refused(czech, organiser):
    page = organiser.post(setup_url("registration", czech), {
        "opens_at": "2027-09-01T10:00", "closes_at": "2027-08-01T10:00",
        "fee_currency": "EUR"}).content.decode()
    assert "Registration must close after it opens." in page
    page = organiser.post(setup_url("registration", czech), {"fee_currency": "€"}).content.decode()
    assert "A currency is a three-letter code such as EUR or CZK" in page


def test_payments_show_the_currency(czech, organiser, clock):
    set_czech_terms(organiser, czech)
    entry = Entry.objects.create(event=czech.events.get(code="individual"), number=1,
                                 name="Jana Nová", status="confirmed", fee_currency="EUR",
                                 fee_amount=Decimal(40))
    payment = reverse("control:registrations:payment", args=[czech.slug, "individual", 1])
    shown = organiser.get(payment).content.decode()
    assert "Amount received (EUR)" in shown
    assert "paid so far 0.00 EUR." in shown
    organiser.post(payment, {"amount": "25"})
    entry.refresh_from_db()
    assert entry.paid_amount == Decimal(25)
    listing = organiser.get(reverse("control:registrations:event",
                                    args=[czech.slug, "individual"])).content.decode()
    assert "25.00 EUR" in listing
