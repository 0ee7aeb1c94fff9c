"""`{% payment_box entry %}`: how the entrant pays, on every page that shows their fee."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import mark_safe

from puzzlecomp.championships.models import Entry, PayoutAccount
from puzzlecomp.championships.selectors.offers import entry_offer
from puzzlecomp.championships.selectors.payments import payment_box as payment_box_get
from puzzlecomp.championships.templatetags.fee_words import entry_fee

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
    """The entry's fee as it is charged, worded as everywhere (championships/fee_words.py)."""
    return entry_fee(entry)


@register.simple_tag
def waiting_offer(entry: Entry) -> Any:
    """The waiting entry's offer (rules/payments/offers.py), or None."""
    return entry_offer(entry)
