"""`{% entry_fee entry %}` (what an entry is charged) and `{% event_fee event fee %}` (the fee
quoted before registering), worded by championships/fee_words.py alike everywhere."""

from __future__ import annotations

from django import template

from puzzlecomp.championships.fee_words import fee_words
from puzzlecomp.championships.models import Entry, Event
from puzzlecomp.championships.selectors.registration import fee_basis
from puzzlecomp.rules.fees import Money

register = template.Library()


@register.simple_tag
def entry_fee(entry: Entry) -> str:
    """The entry's fee as charged, for its number of people ("" without a fee)."""
    if entry.fee_amount is None:
        return ""
    return fee_words(entry.fee_amount, entry.fee_currency, fee_basis(entry.event),
                     people=max(1, entry.members.count()))


@register.simple_tag
def event_fee(event: Event, fee: Money) -> str:
    """The fee of one registration made today, per person or per entry as charged."""
    return fee_words(fee.amount, fee.currency, fee_basis(event))
