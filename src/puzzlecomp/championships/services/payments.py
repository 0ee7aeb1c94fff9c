"""Writes of payments by bank transfer: the organiser's account, statements imported and
matched, the treasurer's queue decided. Each one unit of work, audited."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import F
from django.utils import timezone
from schwifty import BIC, IBAN
from schwifty.exceptions import SchwiftyException

from puzzlecomp.championships.actions import (
    BANK_LINE_ASSIGNED,
    BANK_LINE_RESOLVED,
    PAYMENT_ACCOUNT_SET,
    PAYOUT_ACCOUNT_SET,
    PAYOUTS_EXPORTED,
    STATEMENT_IMPORTED,
)
from puzzlecomp.championships.models import (
    BankTransaction,
    Championship,
    Entry,
    EntryStatus,
    PaymentAccount,
    PayoutAccount,
)
from puzzlecomp.championships.plain_sql import insert_many
from puzzlecomp.championships.selectors.payments import (
    LinePreview,
    payment_account,
    payouts,
    statement_preview,
)
from puzzlecomp.championships.services.registration import places_settle
from puzzlecomp.championships.services.work import action_audit, unit_of_work
from puzzlecomp.formats.bank.payouts import payouts_csv, payouts_pain001
from puzzlecomp.formats.bank.statements import StatementLine
from puzzlecomp.rules.errors import RulesError, violation

_CZECH_ACCOUNT = re.compile(r"(?:(\d{1,6})-)?(\d{2,10})/(\d{4})")
_BSB = re.compile(r"(\d{3})-?(\d{3})")


@dataclass(frozen=True)
class AccountDetails:
    """The account as the organiser typed it."""

    holder: str
    iban: str = ""
    bic: str = ""
    local_account: str = ""
    bsb: str = ""
    account_number: str = ""
    instructions: str = ""


def payment_account_set(*, championship: Championship, details: AccountDetails,
                        by: Any) -> PaymentAccount:
    """Set the organiser's bank account, validated: an IBAN (and BIC) checked with schwifty, a
    Czech account number turned into its IBAN, or an Australian BSB and account number."""
    iban, bic = _checked_iban(details)
    bsb = details.bsb.strip()
    if bsb and not _BSB.fullmatch(bsb):
        raise RulesError(violation("payments.bsb_invalid", f"{bsb!r} is not a BSB", field="bsb"))
    if not iban and not (bsb and details.account_number.strip()):
        raise RulesError(violation("payments.no_account", "no account given", field="iban"))
    with unit_of_work(PAYMENT_ACCOUNT_SET, championship=championship, user=by,
                      holder=details.holder) as work:
        account, _ = PaymentAccount.objects.update_or_create(championship=championship, defaults={
            "holder": details.holder.strip(), "iban": iban, "bic": bic,
            "local_account": details.local_account.strip(),
            "bsb": f"{bsb[:3]}-{bsb[-3:]}" if bsb else "",
            "account_number": details.account_number.strip(),
            "instructions": details.instructions.strip()})
        work.record(iban=iban, bic=bic, bsb=account.bsb)
        return account


def _checked_iban(details: AccountDetails) -> tuple[str, str]:
    """The IBAN and BIC to store: typed, or made from a Czech account number."""
    text = details.iban.strip()
    if not text and details.local_account.strip():
        found = _CZECH_ACCOUNT.fullmatch(details.local_account.replace(" ", ""))
        if found is None:
            raise RulesError(violation("payments.local_account_invalid", "not prefix-number/bank",
                                       field="local_account", account=details.local_account))
        prefix, number, bank = found.groups()
        try:
            generated = IBAN.generate("CZ", bank_code=bank, branch_code=prefix or "0",
                                      account_code=number)
        except SchwiftyException as error:
            raise RulesError(violation("payments.local_account_invalid", str(error),
                                       field="local_account",
                                       account=details.local_account)) from error
        text = str(generated)
    if not text:
        return "", ""
    try:
        iban = IBAN(text)
    except SchwiftyException as error:
        raise RulesError(violation("payments.iban_invalid", str(error), field="iban", iban=text,
                                   problem=str(error))) from error
    bic_text = details.bic.strip().upper()
    if bic_text:
        try:
            bic = str(BIC(bic_text))
        except SchwiftyException as error:
            raise RulesError(violation("payments.bic_invalid", str(error), field="bic",
                                       bic=bic_text, problem=str(error))) from error
    else:
        bic = str(iban.bic) if iban.bic is not None else ""
    return str(iban.compact), bic


def statement_import(*, championship: Championship, lines: Sequence[StatementLine], source: str,
                     by: Any, dry_run: bool = False) -> list[LinePreview]:
    """Import a statement's lines: each new bank transaction stored once with its match, and its
    money added to the entry it pays. All or nothing; `dry_run` stores nothing."""
    if dry_run:
        return statement_preview(championship, lines)
    with unit_of_work(STATEMENT_IMPORTED, championship=championship, user=by,
                      source=source) as work:
        # Held while matching: two imports of one statement at once count it once.
        list(Entry.objects.select_for_update().filter(event__championship=championship)
             .values_list("pk", flat=True))
        previews = statement_preview(championship, lines)
        stored = []
        paid: dict[int, Any] = {}
        for preview in previews:
            match, line = preview.match, preview.line
            if match.status == "already_imported":
                continue
            entry = preview.entry if match.pays else None
            if entry is not None:
                paid[entry.pk] = paid.get(entry.pk, 0) + line.amount
            stored.append(BankTransaction(
                championship=championship, transaction_id=line.transaction, source=source[:200],
                line=line.line, booked_on=line.booked_on, amount=line.amount,
                currency=line.currency, reference=line.reference[:140], payer=line.payer[:140],
                payer_account=line.payer_account[:60], message=line.message[:500],
                status=match.status, reason=match.reason, entry=entry))
        insert_many(stored)
        now = timezone.now()
        # One update per amount paid (a few: the fees), not per entry.
        by_amount: dict[Any, list[int]] = {}
        for pk, amount in paid.items():
            by_amount.setdefault(amount, []).append(pk)
        for amount, pks in by_amount.items():
            for start in range(0, len(pks), 500):
                Entry.objects.filter(pk__in=pks[start:start + 500]).update(
                    paid_amount=F("paid_amount") + amount, paid_at=now)
        if not stored:
            work.nothing_changed()  # the statement was imported before: nothing new
        places = [change for event in {p.entry.event for p in previews
                                       if p.entry is not None and p.entry.pk in paid
                                       and p.entry.status in (EntryStatus.WAITING,
                                                              EntryStatus.UNPAID)}
                  for change in places_settle(event)]
        work.record(lines=len(lines), stored=len(stored),
                    paying=sum(1 for p in previews if p.match.pays),
                    amount=str(sum(paid.values(), start=0)), places=places)
        return previews


def bank_line_assign(*, transaction: BankTransaction, entry: Entry, reason: str,
                     by: Any) -> BankTransaction:
    """Assign a queued bank transaction to an entry: its money counts as the entry's."""
    with unit_of_work(BANK_LINE_ASSIGNED, championship=transaction.championship, user=by,
                      transaction=transaction.transaction_id, number=entry.number,
                      event=entry.event.code, reason=reason) as work:
        transaction = BankTransaction.objects.select_for_update().get(pk=transaction.pk)
        if transaction.resolved_at is not None or transaction.entry_id is not None:
            raise RulesError(violation("payments.line_decided", "off the queue already",
                                       field="transaction"))
        if entry.status == EntryStatus.CANCELLED:
            raise RulesError(violation("payments.entry_not_open", "cancelled", field="entry",
                                       number=entry.number))
        transaction.entry = entry
        transaction.resolved_at = timezone.now()
        transaction.resolution = reason[:200]
        transaction.save(update_fields=["entry", "resolved_at", "resolution"])
        Entry.objects.filter(pk=entry.pk).update(paid_amount=F("paid_amount")
                                                 + transaction.amount, paid_at=timezone.now())
        work.record(amount=str(transaction.amount), places=places_settle(entry.event))
        return transaction


def bank_line_resolve(*, transaction: BankTransaction, reason: str, by: Any) -> BankTransaction:
    """Take a bank transaction off the queue without assigning it (ignored, or its part- or
    overpayment dealt with), the reason kept."""
    with unit_of_work(BANK_LINE_RESOLVED, championship=transaction.championship, user=by,
                      transaction=transaction.transaction_id, reason=reason):
        transaction = BankTransaction.objects.select_for_update().get(pk=transaction.pk)
        if transaction.resolved_at is not None:
            raise RulesError(violation("payments.line_decided", "off the queue already",
                                       field="transaction"))
        transaction.resolved_at = timezone.now()
        transaction.resolution = reason[:200]
        transaction.save(update_fields=["resolved_at", "resolution"])
        return transaction


def payout_account_set(*, entry: Entry, holder: str, iban: str = "", bic: str = "",
                       account: str = "", by: Any = None) -> PayoutAccount:
    """The entrant's account for refunds and prize money: an IBAN (checked, with its BIC) or,
    outside SEPA, the account as their bank writes it."""
    iban_text, account_text = iban.strip(), account.strip()
    if not iban_text and not account_text:
        raise RulesError(violation("payments.payout_account_missing", "no account given",
                                   field="iban"))
    checked_iban, checked_bic = (_checked_iban(AccountDetails(holder=holder, iban=iban_text,
                                                              bic=bic))
                                 if iban_text else ("", ""))
    with unit_of_work(PAYOUT_ACCOUNT_SET, championship=entry.event.championship, user=by,
                      number=entry.number, event=entry.event.code):
        stored, _ = PayoutAccount.objects.update_or_create(entry=entry, defaults={
            "holder": holder.strip()[:70], "iban": checked_iban, "bic": checked_bic,
            "account": account_text[:60]})
        return stored


def payouts_export(*, championship: Championship, kind: str, fmt: str, by: Any) -> bytes:
    """The refunds or prize money to pay, as pain.001 (EUR transfers with an IBAN) or CSV
    (all); the download is audited, as it holds entrants' accounts."""
    found = payouts(championship, kind)
    if fmt == "pain001":
        account = payment_account(championship)
        if account is None or not account.iban:
            raise RulesError(violation("payments.no_account", "no account to pay from",
                                       field="iban"))
        content = payouts_pain001(found, holder=account.holder, iban=account.iban,
                                  bic=account.bic, execution_date=timezone.localdate())
    else:
        content = payouts_csv(found).encode()
    action_audit(PAYOUTS_EXPORTED, championship=championship, user=by, kind=kind, format=fmt,
                 count=len(found))
    return content
