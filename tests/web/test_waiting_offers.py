"""A waiting list that holds no money, through the database (issue 28, part 6): a freed place
is offered with a deadline to pay, mailed and shown on the entrant's page; unpaid, it passes
on by the next write or `puzzlecomp payments offers SLUG`; paid in time, the entry is
confirmed. The Czech rulebook keeps a waiting list when the capacity is reached."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone

from puzzlecomp.championships.models import AuditEntry, Entry, EntryStatus
from puzzlecomp.championships.selectors.offers import waiting_count, waiting_offers
from puzzlecomp.championships.selectors.payments import entry_reference, payment_box
from puzzlecomp.championships.services.payments import (
    AccountDetails,
    payment_account_set,
    statement_import,
)
from puzzlecomp.championships.services.registration import (
    entry_cancel,
    entry_confirm,
    entry_register,
    waiting_offers_settle,
)
from puzzlecomp.formats.bank.statements import StatementLine
from tests.web.test_payments import _cli
from tests.web.test_registration_organiser import someone

DAYS = dt.timedelta(days=5)


@pytest.fixture
def full(make_championship, django_capture_on_commit_callbacks):
    """A Czech championship whose individual event has one place: one confirmed, two waiting."""
    championship = make_championship("czech-championship", days_ahead=90)
    championship.published, championship.offer_days = True, 5
    championship.save()
    event = championship.events.get(code="individual")
    event.fee_amount, event.fee_per, event.capacity = Decimal(400), "person", 1
    event.save()
    payment_account_set(championship=championship, by=None, details=AccountDetails(
        holder="Česká asociace puzzle", local_account="19-2000145399/0800"))
    entries = []
    for n in (1, 2, 3):
        with django_capture_on_commit_callbacks(execute=True):
            entry = entry_register(event=event, members=[someone(n, nationality="CZ")]).entry
            entries.append(entry_confirm(entry=entry))
    return championship, event, entries


def test_waiting_costs_nothing_and_the_entrant_sees_their_position(full, client):
    championship, _, (first, second, third) = full
    assert [e.status for e in (first, second, third)] == ["confirmed", "waiting", "waiting"]
    assert payment_box(third).due == 0
    page = client.get(f"/c/{championship.slug}/disputes/{third.token}/").content.decode()
    assert "Your place on the waiting list: 2." in page


def test_a_cancellation_offers_the_place_with_a_deadline_by_email_and_on_the_page(
        full, client, mailoutbox, django_capture_on_commit_callbacks):
    championship, event, (first, second, _third) = full
    with django_capture_on_commit_callbacks(execute=True):
        entry_cancel(entry=first, by=None)
    second.refresh_from_db()
    assert second.offered_at is not None
    assert second.status == EntryStatus.WAITING
    offer = waiting_offers(event)[second.pk]
    assert (offer.state, offer.deadline) == ("offered", second.offered_at + DAYS)
    message = mailoutbox[-1]
    assert message.to == ["p2@example.org"]
    assert "offered" in message.subject
    assert entry_reference(second) in message.body
    assert "400.00 CZK" in message.body
    assert [name for name, _, _ in message.attachments] == ["payment-qr.png"]
    assert payment_box(second).left == Decimal(400)
    page = client.get(f"/c/{championship.slug}/disputes/{second.token}/").content.decode()
    assert "is offered to you" in page
    assert entry_reference(second) in page
    assert waiting_count(event) == 2


def test_unpaid_by_the_deadline_the_offer_passes_on_and_is_stored_by_the_next_settling(
        full, mailoutbox, django_capture_on_commit_callbacks):
    championship, event, (first, second, third) = full
    with django_capture_on_commit_callbacks(execute=True):
        entry_cancel(entry=first, by=None)
    second.refresh_from_db()
    later = second.offered_at + DAYS + dt.timedelta(hours=1)
    offers = waiting_offers(event, now=later)  # computed on read: nothing stored yet
    assert (offers[second.pk].state, offers[third.pk].state) == ("lapsed", "offered")
    assert offers[third.pk].deadline == second.offered_at + 2 * DAYS
    assert Entry.objects.get(pk=third.pk).offered_at is None
    with django_capture_on_commit_callbacks(execute=True):
        changed = waiting_offers_settle(championship=championship, now=later)
    assert changed == [{"event": "individual", "number": second.number, "offer": "lapsed"},
                       {"event": "individual", "number": third.number, "offer": "offered"}]
    third.refresh_from_db()
    second.refresh_from_db()
    assert third.offered_at == second.offered_at + DAYS
    assert second.status == EntryStatus.CANCELLED
    assert mailoutbox[-1].to == ["p3@example.org"]
    assert AuditEntry.objects.filter(action="puzzlecomp.entry.offers_settled").count() == 1
    assert waiting_offers_settle(championship=championship, now=later) == []
    assert AuditEntry.objects.filter(action="puzzlecomp.entry.offers_settled").count() == 1


def test_paying_the_offered_place_by_a_statement_line_confirms_the_entry(
        full, django_capture_on_commit_callbacks):
    championship, event, (first, second, _) = full
    with django_capture_on_commit_callbacks(execute=True):
        entry_cancel(entry=first, by=None)
    second.refresh_from_db()
    line = StatementLine(line=1, transaction="T-1", amount=Decimal(400), currency="CZK",
                         reference=entry_reference(second), payer="Person2 Surname2",
                         booked_on=timezone.localdate())
    [preview] = statement_import(championship=championship, lines=[line], source="s.xml",
                                 by=None)
    assert preview.match.status == "matched"
    second.refresh_from_db()
    assert second.status == EntryStatus.CONFIRMED
    assert waiting_count(event) == 1


def test_puzzlecomp_payments_offers_settles_for_an_organisers_cron(full):
    championship, _, (first, second, third) = full
    entry_cancel(entry=first, by=None)
    Entry.objects.filter(pk=second.pk).update(
        offered_at=timezone.now() - DAYS - dt.timedelta(days=1))
    code, out, _ = _cli("payments", "offers", championship.slug)
    assert code == 0
    assert out.splitlines() == ["event,entry,offer", f"individual,{second.number},lapsed",
                                f"individual,{third.number},offered"]


@pytest.fixture
def paid_first(make_championship, django_capture_on_commit_callbacks):
    """A Czech championship whose organiser confirms entries only once their fee is paid."""
    championship = make_championship("czech-championship", days_ahead=90)
    championship.published, championship.confirm_on_payment = True, True
    championship.save()
    event = championship.events.get(code="individual")
    event.fee_amount, event.fee_per, event.capacity = Decimal(400), "person", 1
    event.save()
    payment_account_set(championship=championship, by=None, details=AccountDetails(
        holder="Česká asociace puzzle", local_account="19-2000145399/0800"))
    return championship, event


def test_where_the_organiser_chooses_an_entry_is_confirmed_only_once_paid_in_full(
        paid_first, mailoutbox, django_capture_on_commit_callbacks):
    championship, event = paid_first
    with django_capture_on_commit_callbacks(execute=True):
        entry = entry_confirm(entry=entry_register(event=event,
                                                   members=[someone(1, nationality="CZ")]).entry)
    assert entry.status == EntryStatus.UNPAID
    assert "held until you pay" in mailoutbox[-1].subject
    assert payment_box(entry).left == Decimal(400)
    # It holds its place: the next entry waits.
    second = entry_confirm(entry=entry_register(event=event,
                                                members=[someone(2, nationality="CZ")]).entry)
    assert second.status == EntryStatus.WAITING

    def pay(amount: str, transaction: str) -> None:
        statement_import(championship=championship, by=None, source="s.xml", lines=[
            StatementLine(line=1, transaction=transaction, amount=Decimal(amount),
                          currency="CZK", reference=entry_reference(entry),
                          payer="Person1 Surname1", booked_on=timezone.localdate())])

    pay("150", "T-1")
    entry.refresh_from_db()
    assert entry.status == EntryStatus.UNPAID
    with django_capture_on_commit_callbacks(execute=True):
        pay("250", "T-2")
    entry.refresh_from_db()
    assert entry.status == EntryStatus.CONFIRMED
    assert entry.confirmed_at is not None
    assert "is confirmed" in mailoutbox[-1].subject
    audit = AuditEntry.objects.filter(action="puzzlecomp.payments.statement_imported").latest("pk")
    assert audit.data["places"] == [{"number": entry.number, "paid": "confirmed"}]


def test_without_the_choice_an_unpaid_entry_is_confirmed_at_once(make_championship):
    championship = make_championship("czech-championship", days_ahead=90)
    event = championship.events.get(code="individual")
    event.fee_amount, event.fee_per = Decimal(400), "person"
    event.save()
    entry = entry_confirm(entry=entry_register(event=event,
                                               members=[someone(1, nationality="CZ")]).entry)
    assert entry.status == EntryStatus.CONFIRMED


def test_the_entrant_sees_the_refund_rule_and_todays_refund_then_withdraws(
        make_championship, client):
    """Czech rulebook, startovné: a full refund up to 15 days before the start; later none."""
    championship = make_championship("czech-championship", days_ahead=90)
    championship.published = True
    championship.save()
    event = championship.events.get(code="individual")
    event.fee_amount, event.fee_per = Decimal(400), "person"
    event.save()
    entry = entry_confirm(entry=entry_register(event=event,
                                               members=[someone(1, nationality="CZ")]).entry)
    Entry.objects.filter(pk=entry.pk).update(paid_amount=Decimal(400))
    page = client.get(f"/c/{championship.slug}/disputes/{entry.token}/").content.decode()
    box = page[page.index('id="withdraw"'):]
    assert "up to 15 days before the start" in box
    assert "Withdrawing today, you are refunded 400.00 CZK." in box
    withdraw = f"/c/{championship.slug}/disputes/{entry.token}/withdraw/"
    client.post(withdraw)  # not confirmed: nothing happens
    entry.refresh_from_db()
    assert entry.status == EntryStatus.CONFIRMED
    answer = client.post(withdraw, {"confirm": "1"}, follow=True).content.decode()
    entry.refresh_from_db()
    assert entry.status == EntryStatus.CANCELLED
    assert entry.refund_amount == Decimal(400)
    assert "Refund due: 400.00 CZK" in answer
    assert 'id="withdraw"' not in answer


def test_withdrawing_later_than_the_rule_allows_shows_a_refund_of_nothing(
        make_championship, client):
    championship = make_championship("czech-championship", days_ahead=10)
    championship.published = True
    championship.save()
    event = championship.events.get(code="individual")
    event.fee_amount, event.fee_per = Decimal(400), "person"
    event.save()
    entry = entry_confirm(entry=entry_register(event=event,
                                               members=[someone(1, nationality="CZ")]).entry)
    Entry.objects.filter(pk=entry.pk).update(paid_amount=Decimal(400))
    page = client.get(f"/c/{championship.slug}/disputes/{entry.token}/").content.decode()
    assert "Withdrawing today, you are refunded 0.00 CZK." in page


def test_a_fee_reads_as_it_is_charged_on_the_confirmation_the_email_and_the_page(
        make_championship, client, mailoutbox, django_capture_on_commit_callbacks):
    """Issue 28, part 5: "300.00 NOK per person (600.00 NOK for a pair)", the same everywhere."""
    championship = make_championship("norway-nm-2025", days_ahead=60)
    championship.published = True
    championship.save()
    event = championship.events.get(code="pairs")
    event.fee_amount, event.fee_per = Decimal(300), "person"
    event.save()
    with django_capture_on_commit_callbacks(execute=True):
        entry = entry_register(event=event, members=[someone(1, nationality="NO"),
                                                     someone(2, nationality="NO")]).entry
        entry = entry_confirm(entry=entry)
    words = "300.00 NOK per person (600.00 NOK for a pair)"
    assert words in mailoutbox[-1].body
    page = client.get(f"/c/{championship.slug}/disputes/{entry.token}/").content.decode()
    assert words in page
    confirmation = client.get(f"/c/{championship.slug}/register/confirm/{entry.token}/")
    assert words in confirmation.content.decode()


def test_the_confirmation_page_of_an_offered_entry_says_a_place_is_offered(
        full, client, django_capture_on_commit_callbacks):
    championship, _, (first, second, _third) = full
    entry_cancel(entry=first, by=None)
    page = client.get(f"/c/{championship.slug}/register/confirm/{second.token}/").content.decode()
    assert "A place is offered to you" in page
    assert "You are on the waiting list" not in page
