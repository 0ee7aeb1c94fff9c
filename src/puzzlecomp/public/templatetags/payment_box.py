"""`{% payment_box entry %}`: how the entrant pays, on every page that shows their fee."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.formats import number_format
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from puzzlecomp.championships.models import Entry, PayoutAccount
from puzzlecomp.championships.selectors.offers import entry_offer
from puzzlecomp.championships.selectors.payments import payment_box as payment_box_get
from puzzlecomp.championships.selectors.registration import entry_currency, fee_basis

register = template.Library()


@register.inclusion_tag("public/payments/_box.html")
def payment_box(entry: Entry) -> dict[str, Any]:
    """The entrant's payment box: due, paid, left, the account, the reference and the QR code."""
    box = payment_box_get(entry)
    payout = PayoutAccount.objects.filter(entry=entry).first()
    return {"entry": entry, "box": box, "payout": payout, "offer": entry_offer(entry),
            # segno writes the SVG from the account, amount and reference: nothing typed by a
            # visitor reaches it unescaped.
            "qr": mark_safe(box.qr_svg) if box.qr_svg else None}


@register.simple_tag
def fee_words(entry: Entry) -> str:
    """The entry's fee as it is charged: "300.00 NOK per person (600.00 a pair)", "per team"."""
    if entry.fee_amount is None:
        return ""
    total = entry.fee_amount
    currency = entry.fee_currency or entry_currency(entry)
    basis = fee_basis(entry.event)
    people = entry.members.count()
    if basis == "person" and people > 1:
        each = number_format(total / people, 2)
        text = (_("%(each)s %(currency)s per person (%(total)s a pair)") if people == 2 else
                _("%(each)s %(currency)s per person (%(total)s a team)"))
        return text % {"each": each, "currency": currency, "total": number_format(total, 2)}
    words = {"person": _("%(total)s %(currency)s per person"),
             "pair": _("%(total)s %(currency)s per pair"),
             "team": _("%(total)s %(currency)s per team")}.get(basis, "%(total)s %(currency)s")
    return words % {"total": number_format(total, 2), "currency": currency}


@register.simple_tag
def waiting_offer(entry: Entry) -> Any:
    """The waiting entry's offer (rules/payments/offers.py), or None."""
    return entry_offer(entry)
