"""A fee in words, as it is charged: "350.50 NOK per person (1,051.50 NOK for a team of 3)",
"120.00 EUR per pair", "75.00 EUR per team". One wording for the registration overview and
form, the page after registering, the confirmation page and the confirmation email, so that
the amount read before registering is the amount charged after it."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import ngettext


@dataclass(frozen=True)
class FeeBasis:
    """How an event charges: `per` "person" or "entry"; its entries' size (1: individuals)."""

    per: str
    members_min: int
    members_max: int
    drawn_teams: bool = False


def money(amount: Decimal, currency: str) -> str:
    """ "1,051.50 NOK" in the reader's language (its decimal and thousands separators)."""
    return f"{formats.number_format(amount, 2, use_l10n=True, force_grouping=True)} {currency}"


def _group(basis: FeeBasis, people: int) -> str:
    if people == 2:
        return _("for a pair")
    return ngettext("for a team of %(n)d", "for a team of %(n)d", people) % {"n": people}


def fee_words(amount: Decimal, currency: str, basis: FeeBasis | None, *,
              people: int | None = None) -> str:
    """The fee as charged. `amount` is what one registration of `people` pays (None: a fee
    quoted before registering, for one person or one entry as `basis.per` says)."""
    if basis is None or (basis.members_max == 1 and not basis.drawn_teams):
        return money(amount, currency)
    if basis.per == "person" or basis.drawn_teams:
        count = people or 1
        each = (amount / count).quantize(Decimal("0.01")) if people else amount
        words = _("%(amount)s per person") % {"amount": money(each, currency)}
        if people and people > 1 and not basis.drawn_teams:
            words += f" ({money(amount, currency)} {_group(basis, people)})"
        elif people is None and basis.members_min == basis.members_max > 1 \
                and not basis.drawn_teams:
            total = amount * basis.members_max
            words += f" ({money(total, currency)} {_group(basis, basis.members_max)})"
        return words
    if basis.members_max == 2:
        return _("%(amount)s per pair") % {"amount": money(amount, currency)}
    return _("%(amount)s per team") % {"amount": money(amount, currency)}
