"""What a phone's banking app reads from a payment QR code: the Czech "QR Platba" (SPAYD 1.0,
for CZK) and the European Payments Council's QR code (EPC069-12, for EUR)."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from decimal import Decimal

import segno
from segno import helpers


@dataclass(frozen=True)
class PaymentOrder:
    """A transfer to the organiser, as the QR code carries it."""

    iban: str
    bic: str
    holder: str
    amount: Decimal
    currency: str
    reference: str
    message: str


def spayd(order: PaymentOrder) -> str:
    """The SPAYD text: "SPD*1.0*ACC:<IBAN>+<BIC>*AM:400.00*CC:CZK*X-VS:<digits>*MSG:...".

    Values may not hold "*" (the separator); the message is at most 60 characters and the
    recipient's name 35 (the specification's limits); accents are dropped, as older banking
    apps misread them.
    """
    account = order.iban + (f"+{order.bic}" if order.bic else "")
    fields = [("ACC", account), ("AM", f"{order.amount:.2f}"), ("CC", order.currency)]
    if order.reference.isdigit() and len(order.reference) <= 10:
        fields.append(("X-VS", order.reference))
    fields.append(("RN", _plain(order.holder)[:35]))
    if order.message:
        fields.append(("MSG", _plain(order.message)[:60]))
    return "SPD*1.0*" + "*".join(f"{key}:{value}" for key, value in fields if value)


def payment_qr(order: PaymentOrder) -> segno.QRCode | None:
    """The QR code a banking app pays from: SPAYD for CZK, EPC for EUR; None otherwise."""
    if order.currency == "CZK":
        return segno.make(spayd(order), error="m", micro=False)
    if order.currency == "EUR":
        return helpers.make_epc_qr(name=_plain(order.holder)[:70], iban=order.iban,
                                   amount=order.amount, bic=order.bic or None,
                                   reference=order.reference if order.reference.startswith("RF")
                                   else None,
                                   text=None if order.reference.startswith("RF")
                                   else order.reference)
    return None


def _plain(text: str) -> str:
    ascii_only = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[*\s]+", " ", ascii_only).strip()
