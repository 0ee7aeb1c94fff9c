"""Entry fees by date of registration, and refunds on cancellation."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Literal

from puzzlecomp.rules.errors import RuleViolation, violation
from puzzlecomp.rules.ruleset import Event, Fee, RegistrationPolicy, month_day

_CENT = Decimal("0.01")


@dataclass(frozen=True)
class Money:
    """An amount of money, never negative, in a currency such as "EUR"."""

    amount: Decimal
    currency: str

    def __post_init__(self) -> None:
        if self.amount < 0:
            raise ValueError(f"a negative amount of money: {self.amount} {self.currency}")


@dataclass(frozen=True)
class Refund:
    """What a cancellation gives back; `refusal` says why nothing is given back."""

    amount: Money
    refusal: RuleViolation | None = None


@dataclass(frozen=True)
class OrganiserFee:
    """A fee the organiser sets where the rulebook names none (Czech, Norway, Australia).

    The early price applies on registrations up to and including `early_until`.
    """

    amount: Decimal
    per: Literal["entry", "person"] = "entry"
    early_amount: Decimal | None = None
    early_until: dt.date | None = None


def regular_price(fee: Fee) -> Decimal:
    """The full price of a fee: its amount, or the early price before its discount (60/0.8 = 75)."""
    if fee.amount is not None:
        return _cents(fee.amount)
    assert fee.early is not None  # Fee validation requires amount or early.
    return _cents(fee.early.amount / (1 - fee.early.discount_percent / 100))


def fee_due(
    event: Event,
    *,
    currency: str,
    registered_on: dt.date,
    competition_start: dt.date,
    people: int = 1,
    organiser_fee: OrganiserFee | None = None,
) -> Money | None:
    """The fee for one registration of `people` people; None when nobody has set one.

    The rulebook's fee wins; `organiser_fee` counts only for an event the rulebook prices not.

    The date of registration decides: the early price applies up to and including the
    early-price day (e.g. 31 May) of the competition year, the regular price after it.
    A per-person fee is multiplied by `people`; a per-entry fee is due once per entry,
    except in an event with drawn teams, where each person registers alone and pays an
    equal share of the team fee (3,200 CZK / 4 = 800 CZK).
    """
    if people < 1:
        raise ValueError(f"a registration covers at least one person, not {people}")
    fee = event.fee
    if fee is not None:
        early = fee.early
        if early is not None and registered_on <= month_day(early.until, competition_start.year):
            price = _cents(early.amount)
        else:
            price = regular_price(fee)
        per = fee.per
    elif organiser_fee is not None:
        early_price, until = organiser_fee.early_amount, organiser_fee.early_until
        in_time = until is not None and registered_on <= until
        price = _cents(early_price if early_price is not None and in_time
                       else organiser_fee.amount)
        per = organiser_fee.per
    else:
        return None
    if per == "person":
        price *= people
    elif event.drawn_teams:
        price = price * people / event.members_max
    return Money(_cents(price), currency)


def regular_price_from(
    event: Event, *, competition_start: dt.date, organiser_fee: OrganiserFee | None = None
) -> dt.date | None:
    """The first day of registration at the regular price; None without an early price."""
    if event.fee is not None:
        early = event.fee.early
        if early is None:
            return None
        return month_day(early.until, competition_start.year) + dt.timedelta(days=1)
    if organiser_fee is None or organiser_fee.early_until is None:
        return None
    return organiser_fee.early_until + dt.timedelta(days=1)


def last_refund_day(*, competition_start: dt.date, policy: RegistrationPolicy) -> dt.date | None:
    """The last day, inclusive, on which a cancellation is refunded; None when no rule says."""
    if policy.refund_days_before is None:
        return None
    return competition_start - dt.timedelta(days=policy.refund_days_before)


def refund_due(
    paid: Money,
    *,
    cancelled_on: dt.date,
    competition_start: dt.date,
    policy: RegistrationPolicy,
) -> Refund:
    """The refund for a participant's cancellation: all that was paid, if cancelled in time.

    In time means at least `refund_days_before` days before the competition day (15 days:
    a cancellation on 5 September is refunded for a competition on 20 September).
    """
    nothing = Money(Decimal(0), paid.currency)
    last_day = last_refund_day(competition_start=competition_start, policy=policy)
    if last_day is None:
        return Refund(
            nothing,
            violation(
                "refund.not_in_rulebook",
                "the rulebook grants no refund on cancellation; the organiser decides",
                field="cancelled_on",
            ),
        )
    if cancelled_on > last_day:
        return Refund(
            nothing,
            violation(
                "refund.too_late",
                f"cancelled on {cancelled_on.isoformat()}; a refund needs a cancellation "
                f"by {last_day.isoformat()} ({policy.refund_days_before} days before the start)",
                field="cancelled_on",
                last_day=last_day,
                days_before=policy.refund_days_before,
            ),
        )
    return Refund(paid)


def _cents(amount: Decimal) -> Decimal:
    return amount.quantize(_CENT, rounding=ROUND_HALF_UP)
