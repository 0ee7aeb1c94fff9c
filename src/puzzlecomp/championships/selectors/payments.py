"""Reads of payments by bank transfer: each entry's reference, what it owes and paid, the QR
code to pay with, a statement's matches before anything is stored, the treasurer's totals."""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import QuerySet

from puzzlecomp.championships.models import (
    BankTransaction,
    Championship,
    Entry,
    EntryMember,
    EntryStatus,
    PaymentAccount,
    PayoutAccount,
)
from puzzlecomp.championships.selectors.offers import entry_offer, offered_entry_ids
from puzzlecomp.championships.selectors.registration import entry_currency, event_currency
from puzzlecomp.championships.selectors.standings import event_standings_get
from puzzlecomp.formats.bank.payouts import Payout
from puzzlecomp.formats.bank.qr import PaymentOrder, payment_qr
from puzzlecomp.formats.bank.statements import StatementLine
from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.payments.matching import QUEUED, LineMatch, Payable, match_statement
from puzzlecomp.rules.payments.references import EntryKey, payment_reference, reference_kind


def payment_account(championship: Championship) -> PaymentAccount | None:
    """The organiser's bank account for the championship; None until set."""
    return PaymentAccount.objects.filter(championship=championship).first()


def championship_currency(championship: Championship) -> str:
    """The currency statements are read in: that of the championship's first event's fees."""
    event = championship.events.order_by("position").first()
    if event is None:
        return championship.fee_currency
    return event_currency(event)


def entry_key(entry: Entry) -> EntryKey:
    """Which entry a reference names: its event's position and its number."""
    return EntryKey(event_position=entry.event.position, number=entry.number)


def entry_reference(entry: Entry) -> str:
    """The payment reference of the entry in its currency (variable symbol, RF, KID, plain)."""
    return payment_reference(entry_key(entry), entry_currency(entry))


def entry_due(entry: Entry, *, offered: bool = False) -> Decimal:
    """What the entry owes in all: its fee, except while it waits without an offer of a place,
    or once cancelled (nothing)."""
    if entry.status == EntryStatus.CANCELLED or (entry.status == EntryStatus.WAITING
                                                 and not offered):
        return Decimal(0)
    return entry.fee_amount or Decimal(0)


@dataclass(frozen=True)
class PaymentBox:
    """How an entrant pays: what is due, paid and left, the account, the reference, and the QR
    code as SVG (None where the currency has no payment QR code)."""

    currency: str
    due: Decimal
    paid: Decimal
    left: Decimal
    reference: str
    reference_kind: str
    account: PaymentAccount | None
    qr_svg: str | None
    qr_text: str | None

    @property
    def iban_grouped(self) -> str:
        """The IBAN in groups of four, as it is printed and read aloud."""
        iban = self.account.iban if self.account else ""
        return " ".join(iban[i:i + 4] for i in range(0, len(iban), 4))


def payment_box(entry: Entry) -> PaymentBox:
    """The entrant's payment box: amounts, account, reference and QR code."""
    account = payment_account(entry.event.championship)
    currency = entry_currency(entry)
    offer = entry_offer(entry)
    due = entry_due(entry, offered=offer is not None and offer.state in ("offered", "holds"))
    left = max(due - entry.paid_amount, Decimal(0))
    reference = entry_reference(entry)
    qr_svg = qr_text = None
    code = _payment_code(entry, account, left)
    if code is not None:
        qr_svg = code.svg_inline(scale=4, title=str(reference))
        qr_text = reference
    return PaymentBox(currency=currency, due=due, paid=entry.paid_amount, left=left,
                      reference=reference, reference_kind=reference_kind(currency),
                      account=account, qr_svg=qr_svg, qr_text=qr_text)


def payment_qr_png(entry: Entry) -> bytes | None:
    """The entry's payment QR code as a PNG (for an email); None where there is none."""
    box = payment_box(entry)
    code = _payment_code(entry, box.account, box.left)
    if code is None:
        return None
    png = io.BytesIO()
    code.save(png, kind="png", scale=5, border=4)
    return png.getvalue()


def _payment_code(entry: Entry, account: PaymentAccount | None, left: Decimal) -> Any:
    """The QR code paying what is left to the account: SPAYD (CZK), EPC (EUR), else None."""
    if account is None or not account.iban or left <= 0:
        return None
    return payment_qr(PaymentOrder(iban=account.iban, bic=account.bic, holder=account.holder,
                                   amount=left, currency=entry_currency(entry),
                                   reference=entry_reference(entry), message=entry.name))


def championship_entries(championship: Championship) -> QuerySet[Entry]:
    """Every entry of the championship, events in order, with its event."""
    return (Entry.objects.filter(event__championship=championship)
            .select_related("event__championship").order_by("event__position", "number"))


def payables(championship: Championship, entries: Sequence[Entry]) -> list[Payable]:
    """The open entries as the matching rules read them (cancelled entries take no money)."""
    # One query for every member's name (a prefetch of thousands of entries is too deep for
    # SQLite's query parser).
    names: dict[int, list[str]] = {}
    offered = offered_entry_ids(championship)
    for entry_id, first, last in EntryMember.objects.filter(
            entry__event__championship=championship).values_list(
            "entry_id", "person__first_name", "person__last_name"):
        names.setdefault(entry_id, []).append(f"{first} {last}")
    return [Payable(key=entry_key(entry), names=(entry.name, *names.get(entry.pk, ())),
                    due=entry_due(entry, offered=entry.pk in offered), paid=entry.paid_amount)
            for entry in entries if entry.status != EntryStatus.CANCELLED]


@dataclass(frozen=True)
class LinePreview:
    """A statement line with what the matching rules decided and the entry it pays."""

    line: StatementLine
    match: LineMatch
    entry: Entry | None


def statement_preview(championship: Championship,
                      lines: Sequence[StatementLine]) -> list[LinePreview]:
    """What importing the statement would do, line by line; stores nothing."""
    entries = list(championship_entries(championship))
    by_key = {entry_key(entry): entry for entry in entries}
    # All of the championship's ids: a filter by thousands of ids is too deep for SQLite.
    imported = BankTransaction.objects.filter(championship=championship).values_list(
        "transaction_id", flat=True)
    matches = match_statement([line.bank_line() for line in lines], payables(championship, entries),
                              imported=imported)
    return [LinePreview(line, match, by_key.get(match.key) if match.key else None)
            for line, match in zip(lines, matches, strict=True)]


def treasurer_queue(championship: Championship) -> QuerySet[BankTransaction]:
    """The bank transactions a treasurer still looks at: unknown, ambiguous, part- and
    overpaid lines not yet resolved."""
    return (BankTransaction.objects.filter(championship=championship, status__in=QUEUED,
                                           resolved_at__isnull=True)
            .select_related("entry__event").order_by("booked_on", "pk"))


@dataclass(frozen=True)
class EventMoney:
    """One event's money in one currency: what is due, paid, and how many entries stand how."""

    event: str
    currency: str
    due: Decimal
    paid: Decimal
    paid_entries: int
    partial_entries: int
    unpaid_entries: int
    refund_due: Decimal
    prize_due: Decimal


@dataclass(frozen=True)
class EntryMoney:
    """One entry's line on the treasurer page."""

    entry: Entry
    reference: str
    due: Decimal
    state: str


def entry_money_state(entry: Entry) -> str:
    """paid, partial, unpaid, refund_due, waiting or free: how the entry stands with money."""
    if entry.status == EntryStatus.CANCELLED:
        return "refund_due" if (entry.refund_amount or 0) > 0 else "cancelled"
    if entry.status == EntryStatus.WAITING:
        return "waiting"
    due = entry_due(entry)
    if due == 0:
        return "free"
    if entry.paid_amount >= due:
        return "paid"
    return "partial" if entry.paid_amount > 0 else "unpaid"


def treasurer_overview(championship: Championship) -> tuple[list[EventMoney], list[EntryMoney]]:
    """Totals per event and currency (prize money of published standings included), and
    every entry's money line."""
    prizes: dict[tuple[str, str], Decimal] = {}
    for prize in payouts(championship, "prize"):
        key = (prize.event, prize.currency)
        prizes[key] = prizes.get(key, Decimal(0)) + prize.amount
    codes: dict[str, str] = {}
    totals: dict[tuple[str, str], dict[str, Decimal | int]] = {}
    rows = []
    for entry in championship_entries(championship):
        currency = entry_currency(entry)
        state = entry_money_state(entry)
        due = entry_due(entry)
        rows.append(EntryMoney(entry=entry, reference=entry_reference(entry), due=due,
                               state=state))
        codes[entry.event.display_name] = entry.event.code
        total = totals.setdefault((entry.event.display_name, currency), {
            "due": Decimal(0), "paid": Decimal(0), "paid_entries": 0, "partial_entries": 0,
            "unpaid_entries": 0, "refund_due": Decimal(0)})
        total["due"] += due
        total["paid"] += entry.paid_amount
        if state in ("paid", "partial", "unpaid"):
            total[f"{state}_entries"] += 1
        if state == "refund_due":
            total["refund_due"] += entry.refund_amount or 0
    events = [EventMoney(event=event, currency=currency, due=Decimal(t["due"]),
                         paid=Decimal(t["paid"]), paid_entries=int(t["paid_entries"]),
                         partial_entries=int(t["partial_entries"]),
                         unpaid_entries=int(t["unpaid_entries"]),
                         refund_due=Decimal(t["refund_due"]),
                         prize_due=prizes.get((codes[event], currency), Decimal(0)))
              for (event, currency), t in totals.items()]
    return events, rows


def payouts(championship: Championship, kind: str) -> list[Payout]:
    """What to pay out: `refund` (cancelled entries the rulebook refunds) or `prize` (prize
    money of every event whose standings are published), each to the account its entrant gave
    (empty where they gave none yet)."""
    accounts = {a.entry_id: a for a in PayoutAccount.objects.filter(
        entry__event__championship=championship)}
    found: list[Payout] = []

    def payout(entry: Entry, amount: Decimal, currency: str, reason: str) -> Payout:
        account = accounts.get(entry.pk)
        return Payout(kind=kind, event=entry.event.code, entry=entry.number, name=entry.name,
                      holder=account.holder if account else "",
                      iban=account.iban if account else "", bic=account.bic if account else "",
                      account=account.account if account else "", amount=amount,
                      currency=currency, reason=reason)

    if kind == "refund":
        for entry in championship_entries(championship).filter(
                status=EntryStatus.CANCELLED, refund_amount__gt=0):
            found.append(payout(entry, entry.refund_amount or Decimal(0), entry_currency(entry),
                                f"Refund {championship.name} {entry.event.code} {entry.number}"))
        return found
    for event in championship.events.filter(standings_published_at__isnull=False).order_by(
            "position"):
        try:
            rows = event_standings_get(event=event).award_rows(public=False)
        except RulesError:
            continue  # prizes not decided yet: nothing to pay
        entries = {e.number: e for e in event.entries.all()}
        for row in rows:
            if row.money and row.entry in entries:
                found.append(payout(entries[row.entry], Decimal(row.money),
                                    row.currency or event_currency(event),
                                    f"Prize {championship.name} {row.category_name} {row.place}"))
    return found
