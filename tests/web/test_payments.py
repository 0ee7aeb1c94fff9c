"""Payments by bank transfer through the database and the command line (issue 28): the
organiser's account, references, statements imported once, the treasurer's queue."""

from __future__ import annotations

import datetime as dt
import io
from contextlib import redirect_stderr, redirect_stdout
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase as HypothesisTestCase

from puzzlecomp.championships.demo import DEMO_SLUG, demo_load
from puzzlecomp.championships.models import (
    AuditEntry,
    BankTransaction,
    Championship,
    Entry,
    EntryStatus,
)
from puzzlecomp.championships.selectors.payments import (
    entry_reference,
    treasurer_overview,
    treasurer_queue,
)
from puzzlecomp.championships.services.payments import (
    AccountDetails,
    bank_line_assign,
    bank_line_resolve,
    payment_account_set,
    statement_import,
)
from puzzlecomp.cli.main import main
from puzzlecomp.formats.bank.camt053 import write_camt053
from puzzlecomp.formats.bank.csv_statements import write_czech_csv
from puzzlecomp.formats.bank.statements import StatementLine
from puzzlecomp.rules.errors import RulesError

DAY = dt.date(2026, 5, 4)


def _cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def demo(db) -> Championship:
    demo_load(individuals=12, pairs=4, teams=4)
    return Championship.objects.get(slug=DEMO_SLUG)


def test_an_iban_is_validated_and_a_czech_account_number_becomes_its_iban(championship):
    with pytest.raises(RulesError) as error:
        payment_account_set(championship=championship, by=None, details=AccountDetails(
            holder="CAP", iban="CZ65 0800 0000 1920 0014 5398"))
    assert error.value.code == "payments.iban_invalid"
    account = payment_account_set(championship=championship, by=None, details=AccountDetails(
        holder="CAP", local_account="19-2000145399/0800"))
    assert (account.iban, account.bic) == ("CZ6508000000192000145399", "GIBACZPX")
    with pytest.raises(RulesError) as error:
        payment_account_set(championship=championship, by=None, details=AccountDetails(
            holder="CAP", bsb="06-2000", account_number="1234"))
    assert error.value.code == "payments.bsb_invalid"


def test_the_demo_has_an_account_and_entries_paid_by_its_imported_statement(demo):
    assert demo.payment_account.iban == "ES9121000418450200051332"
    paying = BankTransaction.objects.filter(championship=demo, entry__isnull=False)
    assert paying.exists()
    assert all(t.entry.paid_amount > 0 for t in paying)
    assert treasurer_queue(demo).filter(status="unknown").exists()


def test_payments_references_prints_one_line_per_entry(demo):
    code, out, _ = _cli("payments", "references", DEMO_SLUG)
    assert code == 0
    rows = out.splitlines()
    assert rows[0] == "entry,event,name,reference,amount_due,paid,currency"
    entries = Entry.objects.filter(event__championship=demo)
    assert len(rows) == entries.count() + 1
    first = entries.order_by("event__position", "number").first()
    assert rows[1].split(",")[:4] == [str(first.number), first.event.code, first.name,
                                      entry_reference(first)]
    assert rows[1].split(",")[3].startswith("RF")


def test_payments_import_matches_then_counts_nothing_twice_and_dry_run_stores_nothing(
        demo, tmp_path):
    unpaid = list(Entry.objects.filter(event__championship=demo, paid_amount=0)
                  .order_by("event__position", "number")[:2])
    lines = [StatementLine(1, "X-1", DAY, unpaid[0].fee_amount, "EUR",
                           entry_reference(unpaid[0]), "Payer"),
             StatementLine(2, "X-2", DAY, Decimal("7.00"), "EUR", "", "Nobody")]
    path = tmp_path / "june.xml"
    path.write_bytes(write_camt053(lines, iban="ES9121000418450200051332", statement_id="J"))
    before = BankTransaction.objects.count()
    code, out, _ = _cli("payments", "import", str(path), "--championship", DEMO_SLUG,
                        "--dry-run")
    assert code == 0
    assert BankTransaction.objects.count() == before
    assert out.splitlines() == [
        "line,transaction,amount,currency,reference,entry,status,reason",
        f"1,X-1,{unpaid[0].fee_amount},EUR,{entry_reference(unpaid[0])},{unpaid[0].number},"
        "matched,reference",
        "2,X-2,7.00,EUR,,,unknown,no_reference"]
    assert _cli("payments", "import", str(path), "--championship", DEMO_SLUG)[1] == out
    unpaid[0].refresh_from_db()
    assert unpaid[0].paid_amount == unpaid[0].fee_amount
    audits = AuditEntry.objects.count()
    code, again, _ = _cli("payments", "import", str(path), "--championship", DEMO_SLUG)
    assert [row.split(",")[6] for row in again.splitlines()[1:]] == ["already_imported"] * 2
    unpaid[0].refresh_from_db()
    assert unpaid[0].paid_amount == unpaid[0].fee_amount
    assert AuditEntry.objects.count() == audits


def test_a_bad_statement_exits_2_naming_file_line_and_field_and_stores_nothing(demo, tmp_path):
    path = tmp_path / "fio.csv"
    good = StatementLine(1, "C-1", DAY, Decimal("60"), "EUR", "", "A")
    path.write_bytes(write_czech_csv([good, good]).replace(b"60,00", b"6O,00", 1))
    before = BankTransaction.objects.count()
    code, _, err = _cli("payments", "import", str(path), "--championship", DEMO_SLUG)
    assert code == 2
    assert err.strip() == f"{path}, row 4, field amount: '6O,00' is not an amount"
    path.write_bytes(write_czech_csv([StatementLine(1, "C-1", DAY, Decimal("60"), "CZK", "",
                                                    "A")]))
    code, _, err = _cli("payments", "import", str(path), "--championship", DEMO_SLUG)
    assert code == 2
    assert "field currency: an amount in CZK" in err
    assert BankTransaction.objects.count() == before


def test_the_treasurer_assigns_an_unknown_line_or_takes_it_off_the_queue_reason_kept(demo):
    [unknown] = treasurer_queue(demo).filter(status="unknown")
    entry = Entry.objects.filter(event__championship=demo).exclude(
        status=EntryStatus.CANCELLED).first()
    paid = entry.paid_amount
    bank_line_assign(transaction=unknown, entry=entry, reason="her brother paid", by=None)
    entry.refresh_from_db()
    assert entry.paid_amount == paid + unknown.amount
    assert not treasurer_queue(demo).filter(pk=unknown.pk).exists()
    with pytest.raises(RulesError):
        bank_line_resolve(transaction=unknown, reason="again", by=None)
    audit = AuditEntry.objects.filter(action="puzzlecomp.payments.line_assigned").get()
    assert audit.data["reason"] == "her brother paid"


class TestImportsNeverCountTwice(HypothesisTestCase):
    """Whatever statements are imported, in any order and however often, each bank transaction
    is stored once and the entries' recorded payments sum to the matched amounts."""

    @settings(max_examples=15, deadline=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
    @given(st.lists(st.lists(st.tuples(st.integers(1, 12), st.integers(-30, 130),
                                       st.integers(0, 6)), max_size=8), min_size=1, max_size=4))
    def test_sum_of_matched_equals_sum_of_recorded_payments(self, statements):
        championship = _small_championship()
        entries = list(Entry.objects.filter(event__championship=championship).order_by("number"))
        paid_before = sum(e.paid_amount for e in entries)
        for statement in statements:
            lines = [StatementLine(n, f"T{t}", DAY, Decimal(amount), "EUR",
                                   entry_reference(entries[e - 1]) if e else "", "Payer")
                     for n, (t, amount, e) in enumerate(statement, start=1)]
            statement_import(championship=championship, lines=lines, source="s.xml", by=None)
        stored = BankTransaction.objects.filter(championship=championship)
        assert stored.count() == len({t for s in statements for t, _, _ in s})
        paying = sum(t.amount for t in stored.filter(entry__isnull=False))
        paid_after = sum(Entry.objects.filter(event__championship=championship)
                         .values_list("paid_amount", flat=True))
        assert paid_after - paid_before == paying


def _small_championship() -> Championship:
    from puzzlecomp.championships.services.setup import championship_create

    championship = championship_create(ruleset_id="wjpc-2025", name="Pay", slug="pay-test",
                                       starts_at=dt.datetime(2026, 9, 20, 9, tzinfo=dt.UTC),
                                       venue="", owner=None, country="ES")
    event = championship.events.get(code="individual")
    Entry.objects.bulk_create(Entry(event=event, number=n, name=f"Entrant {n}",
                                    status=EntryStatus.CONFIRMED, fee_amount=Decimal(60),
                                    fee_currency="EUR") for n in range(1, 7))
    return championship


def test_the_entrants_page_shows_what_is_left_the_account_the_reference_and_the_qr_code(
        demo, client):
    entry = Entry.objects.filter(event__championship=demo, paid_amount=0).exclude(
        status=EntryStatus.CANCELLED).first()
    page = client.get(f"/c/{DEMO_SLUG}/disputes/{entry.token}/").content.decode()
    box = page[page.index('id="payment"'):]
    box = box[:box.index("</section>")]
    assert entry_reference(entry) in box
    assert "ES91 2100 0418 4502 0005 1332" in box
    assert f"{entry.fee_amount:.2f} EUR" in box
    assert "<svg" in box


def _treasurer(demo, client):
    from puzzlecomp.championships.models import Membership, Role

    client.force_login(Membership.objects.filter(championship=demo,
                                                 role__lte=Role.ORGANISER).first().user)
    return client


def test_the_treasurer_previews_a_statement_before_anything_is_stored_then_imports_it(
        demo, client):
    treasurer = _treasurer(demo, client)
    page = treasurer.get(f"/control/{DEMO_SLUG}/payments/").content.decode()
    assert 'id="queue"' in page
    assert "ES9121000418450200051332" in page
    entry = Entry.objects.filter(event__championship=demo, paid_amount=0).exclude(
        status=EntryStatus.CANCELLED).first()
    content = write_camt053([StatementLine(1, "W-1", DAY, entry.fee_amount, "EUR",
                                           entry_reference(entry), "Payer")],
                            iban="ES9121000418450200051332", statement_id="W")
    before = BankTransaction.objects.count()
    preview = treasurer.post(f"/control/{DEMO_SLUG}/payments/statement/", {
        "statement": io.BytesIO(content)})
    assert preview.status_code == 200
    assert f"{entry.event.code}/{entry.number}" in preview.content.decode()
    assert BankTransaction.objects.count() == before
    treasurer.post(f"/control/{DEMO_SLUG}/payments/statement/", {
        "content": preview.context["content"], "name": "w.xml", "confirm": "1"})
    entry.refresh_from_db()
    assert entry.paid_amount == entry.fee_amount
    assert BankTransaction.objects.count() == before + 1


def test_a_bad_statement_upload_names_file_line_and_field_and_stores_nothing(demo, client):
    treasurer = _treasurer(demo, client)
    upload = io.BytesIO(b"Date,Amount,Currency\n2026-05-04,ten,EUR\n")
    upload.name = "june.csv"
    before = BankTransaction.objects.count()
    page = treasurer.post(f"/control/{DEMO_SLUG}/payments/statement/", {"statement": upload},
                          follow=True).content.decode()
    assert "june.csv, row 2, field amount: &#x27;ten&#x27; is not an amount" in page
    assert BankTransaction.objects.count() == before


def test_the_treasurer_assigns_a_queued_line_by_event_and_number_with_a_reason(demo, client):
    treasurer = _treasurer(demo, client)
    [unknown] = treasurer_queue(demo).filter(status="unknown")
    entry = Entry.objects.filter(event__championship=demo).exclude(
        status=EntryStatus.CANCELLED).first()
    treasurer.post(f"/control/{DEMO_SLUG}/payments/queue/{unknown.pk}/assign/", {
        "entry": f"{entry.event.code}/{entry.number}", "reason": "paid by her club"})
    unknown.refresh_from_db()
    assert unknown.entry == entry
    assert unknown.resolution == "paid by her club"


def test_the_confirmation_email_carries_the_account_reference_and_a_qr_platba_that_decodes(
        make_championship, mailoutbox, django_capture_on_commit_callbacks):
    import zxingcpp
    from PIL import Image

    from puzzlecomp.championships.services.registration import entry_confirm, entry_register
    from tests.web.test_registration_organiser import someone

    championship = make_championship("czech-championship")
    championship.published = True
    championship.save()
    event = championship.events.get(code="individual")
    event.fee_amount, event.fee_per = Decimal(400), "person"
    event.save()
    payment_account_set(championship=championship, by=None, details=AccountDetails(
        holder="Česká asociace puzzle", local_account="19-2000145399/0800"))
    with django_capture_on_commit_callbacks(execute=True):
        entry = entry_register(event=event, members=[someone(1, nationality="CZ")]).entry
    with django_capture_on_commit_callbacks(execute=True):
        entry = entry_confirm(entry=entry)
    message = mailoutbox[-1]
    reference = entry_reference(entry)
    assert "IBAN: CZ6508000000192000145399" in message.body
    assert f"{reference}" in message.body
    [(name, png, kind)] = message.attachments
    assert (name, kind) == ("payment-qr.png", "image/png")
    [decoded] = zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))
    fields = dict(part.split(":", 1) for part in decoded.text.split("*")[2:])
    assert fields["ACC"] == "CZ6508000000192000145399+GIBACZPX"
    assert (fields["AM"], fields["CC"], fields["X-VS"]) == ("400.00", "CZK", reference)


def test_the_entrant_gives_an_account_and_the_treasurer_downloads_the_refund_to_it(demo,
                                                                                 client):
    from puzzlecomp.championships.models import PayoutAccount

    entry = Entry.objects.filter(event__championship=demo, paid_amount__gt=0).first()
    url = f"/c/{DEMO_SLUG}/disputes/{entry.token}/payout-account/"
    client.post(url, {"holder": "Ana", "iban": "DE89 3704 0044 0532 0130 01"})
    assert not PayoutAccount.objects.filter(entry=entry).exists()  # a wrong check digit
    client.post(url, {"holder": "Ana", "iban": "DE89 3704 0044 0532 0130 00"})
    assert PayoutAccount.objects.get(entry=entry).bic == "COBADEFFXXX"
    Entry.objects.filter(pk=entry.pk).update(status=EntryStatus.CANCELLED,
                                             refund_amount=entry.paid_amount)
    treasurer = _treasurer(demo, client)
    rows = treasurer.get(f"/control/{DEMO_SLUG}/payments/payouts/refund.csv").content.decode()
    assert (f"refund,{entry.event.code},{entry.number},{entry.name},Ana,"
            f"DE89370400440532013000,COBADEFFXXX,,{entry.paid_amount:.2f},EUR") in rows
    sepa = treasurer.get(f"/control/{DEMO_SLUG}/payments/payouts/refund.xml").content
    assert b"<IBAN>DE89370400440532013000</IBAN>" in sepa
    assert AuditEntry.objects.filter(action="puzzlecomp.payments.payouts_exported").count() == 2


def test_published_prizes_make_the_prize_money_list_per_winner(db):
    """wjpc-2025.txt, Prizes: EUR 2,000 / 1,500 / 1,000 to the first three of the individual
    final and EUR 500 / 300 / 200 to the best debutants, paid to the account each winner
    gives."""
    from puzzlecomp.championships.models import PayoutAccount
    from puzzlecomp.championships.selectors.payments import payouts
    from puzzlecomp.championships.selectors.standings import event_standings_get
    from tests.standings_support import played_championship

    played = played_championship()
    event = played.events.get(code="individual")
    event.standings_published_at = dt.datetime(2026, 9, 21, tzinfo=dt.UTC)
    event.save()
    awards = [row for row in event_standings_get(event=event).award_rows(public=False)
              if row.money]
    winner = event.entries.get(number=awards[0].entry)
    PayoutAccount.objects.create(entry=winner, holder="Winner", iban="DE89370400440532013000")
    prizes = payouts(played, "prize")
    assert [(p.entry, p.amount) for p in prizes] == [(a.entry, Decimal(a.money))
                                                     for a in awards]
    # The overall winner and the best debutant (EUR 500).
    assert {p.amount for p in prizes if p.reason.endswith(" 1")} == {Decimal(2000), Decimal(500)}
    assert prizes[0].iban == "DE89370400440532013000"
    assert all(p.currency == "EUR" for p in prizes)
    events, _ = treasurer_overview(played)
    [individual] = [money for money in events if money.event == event.display_name]
    assert individual.prize_due == sum(Decimal(a.money) for a in awards)
