"""Money paid out (refunds, prize money) as a bank takes it: a SEPA credit-transfer file
(pain.001.001.03, built and schema-checked by sepaxml) for EUR, a CSV for other currencies."""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from sepaxml import SepaTransfer

PAYOUT_COLUMNS = ("kind", "event", "entry", "name", "holder", "iban", "bic", "account",
                  "amount", "currency", "reason")


@dataclass(frozen=True)
class Payout:
    """One transfer to make: to whom, how much, and why (for the payee's statement)."""

    kind: str  # "refund" or "prize"
    event: str
    entry: int
    name: str
    holder: str
    iban: str
    bic: str
    account: str
    amount: Decimal
    currency: str
    reason: str


def payouts_csv(payouts: Sequence[Payout]) -> str:
    """The transfers as CSV, one line each (an account not yet given stays empty)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(PAYOUT_COLUMNS)
    for p in payouts:
        writer.writerow((p.kind, p.event, p.entry, p.name, p.holder, p.iban, p.bic, p.account,
                         f"{p.amount:.2f}", p.currency, p.reason))
    return out.getvalue()


def payouts_pain001(payouts: Sequence[Payout], *, holder: str, iban: str, bic: str,
                    execution_date: dt.date) -> bytes:
    """A pain.001 credit transfer from the organiser's account of every EUR payout with an
    IBAN; validated against the pain.001.001.03 schema before it is returned."""
    transfer = SepaTransfer({"name": holder[:70], "IBAN": iban, "BIC": bic, "batch": True,
                             "currency": "EUR"}, clean=True)
    for p in payouts:
        if p.currency != "EUR" or not p.iban:
            continue
        payment = {"name": p.holder[:70], "IBAN": p.iban, "amount": int(p.amount * 100),
                   "execution_date": execution_date, "description": p.reason[:140],
                   "endtoend_id": f"{p.kind.upper()}-{p.event}-{p.entry}"[:35]}
        if p.bic:
            payment["BIC"] = p.bic
        transfer.add_payment(payment)
    return bytes(transfer.export(validate=True))
