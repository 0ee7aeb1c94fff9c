"""Entry fees by date of registration, and refunds on cancellation, as the rulebooks set them."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from puzzlecomp.rules.fees import (
    Money,
    OrganiserFee,
    fee_due,
    refund_due,
    regular_price,
    regular_price_from,
)
from puzzlecomp.rules.loading import load_ruleset
from puzzlecomp.rules.ruleset import EarlyPrice, Event, Fee, PuzzleSpec, Round, Ruleset

START = dt.date(2025, 9, 20)


@pytest.fixture
def wjpc() -> Ruleset:
    return load_ruleset("wjpc-2025")


@pytest.fixture
def blind_relay() -> Ruleset:
    return load_ruleset("czech-blind-relay")


def due(ruleset: Ruleset, event_id: str, registered_on: dt.date, people: int = 1) -> Money | None:
    return fee_due(
        ruleset.event(event_id),
        currency=ruleset.currency,
        registered_on=registered_on,
        competition_start=START,
        people=people,
    )


def eur(amount: str) -> Money:
    return Money(Decimal(amount), "EUR")


def czk(amount: str) -> Money:
    return Money(Decimal(amount), "CZK")


def test_wjpc_individual_registration_up_to_and_including_31_may_pays_the_early_60_eur(
    wjpc: Ruleset,
) -> None:
    """wjpc-2025.txt, Individual: "The individual registration fee is €60, until May 31th"."""
    assert due(wjpc, "individual", dt.date(2025, 1, 1)) == eur("60")
    assert due(wjpc, "individual", dt.date(2025, 5, 31)) == eur("60")


def test_wjpc_individual_registration_from_1_june_pays_the_regular_75_eur(wjpc: Ruleset) -> None:
    """wjpc-2025.txt, Individual: €60 is the "20% discount", so the full price is 60 / 0.8."""
    assert due(wjpc, "individual", dt.date(2025, 6, 1)) == eur("75")
    assert due(wjpc, "individual", dt.date(2025, 9, 14)) == eur("75")


def test_wjpc_pairs_pay_60_eur_per_pair_early_and_75_eur_after(wjpc: Ruleset) -> None:
    """wjpc-2025.txt, Pairs: "€60 per pair, for registrations made until May 31th"."""
    assert due(wjpc, "pairs", dt.date(2025, 5, 31), people=2) == eur("60")
    assert due(wjpc, "pairs", dt.date(2025, 6, 1), people=2) == eur("75")


def test_wjpc_teams_pay_125_eur_early_and_156_25_eur_after(wjpc: Ruleset) -> None:
    """wjpc-2025.txt, Teams: "Registration fee in this category is €125, until May 31th"."""
    assert due(wjpc, "teams", dt.date(2025, 5, 31), people=4) == eur("125")
    assert due(wjpc, "teams", dt.date(2025, 6, 1), people=3) == eur("156.25")


def test_czech_blind_individual_pays_400_czk_a_person_whatever_the_date(
    blind_relay: Ruleset,
) -> None:
    """czech-blind-and-relay.txt, 2.1: "Entry fee is CZK 400 per person"."""
    assert due(blind_relay, "individual", dt.date(2025, 1, 1)) == czk("400")
    assert due(blind_relay, "individual", dt.date(2025, 9, 19)) == czk("400")


def test_czech_relay_team_costs_3200_czk_paid_as_800_czk_by_each_drawn_member(
    blind_relay: Ruleset,
) -> None:
    """czech-blind-and-relay.txt, 3.1: "CZK 3,200 per team (CZK 800 per person)"."""
    assert due(blind_relay, "relay", dt.date(2025, 5, 1)) == czk("800")
    assert due(blind_relay, "relay", dt.date(2025, 5, 1), people=4) == czk("3200")


@pytest.mark.parametrize(
    "ruleset_id", ["czech-championship", "norway-nm-2025", "australia-national", "australia-state"]
)
def test_a_rulebook_that_names_no_fee_leaves_the_fee_to_the_organiser(ruleset_id: str) -> None:
    """czech-championship.txt, norway-nm-2025.txt, australia-state-national.txt: no fee given."""
    ruleset = load_ruleset(ruleset_id)

    assert {due(ruleset, event.id, dt.date(2025, 3, 1)) for event in ruleset.events} == {None}


def test_a_registration_of_nobody_is_a_programming_error(wjpc: Ruleset) -> None:
    """A fee for zero people has no meaning in any rulebook."""
    with pytest.raises(ValueError, match="at least one person"):
        due(wjpc, "individual", dt.date(2025, 3, 1), people=0)


def test_wjpc_cancellation_15_days_before_the_start_is_refunded_in_full(wjpc: Ruleset) -> None:
    """wjpc-2025.txt, General conditions, Registration: refund "up to 15 days before the start"."""
    refund = refund_due(
        eur("60"),
        cancelled_on=dt.date(2025, 9, 5),
        competition_start=START,
        policy=wjpc.registration,
    )

    assert refund.amount == eur("60")
    assert refund.refusal is None


def test_wjpc_cancellation_14_days_before_the_start_is_not_refunded(wjpc: Ruleset) -> None:
    """wjpc-2025.txt, General conditions, Registration: "only those ... up to 15 days before"."""
    refund = refund_due(
        eur("75"),
        cancelled_on=dt.date(2025, 9, 6),
        competition_start=START,
        policy=wjpc.registration,
    )

    assert refund.amount == eur("0")
    assert refund.refusal is not None
    assert refund.refusal.code == "refund.too_late"
    assert refund.refusal.params["last_day"] == dt.date(2025, 9, 5)


@pytest.mark.parametrize(
    ("ruleset_id", "cancelled_on", "refunded"),
    [
        ("czech-championship", dt.date(2025, 9, 5), True),
        ("czech-championship", dt.date(2025, 9, 6), False),
        ("czech-blind-relay", dt.date(2025, 9, 5), True),
        ("czech-blind-relay", dt.date(2025, 9, 6), False),
    ],
)
def test_czech_cancellation_no_later_than_15_days_before_is_refunded(
    ruleset_id: str, cancelled_on: dt.date, refunded: bool
) -> None:
    """czech-championship.txt, czech-blind-and-relay.txt: "no later than 15 days before"."""
    refund = refund_due(
        czk("400"),
        cancelled_on=cancelled_on,
        competition_start=START,
        policy=load_ruleset(ruleset_id).registration,
    )

    assert (refund.amount == czk("400")) is refunded
    assert (refund.refusal is None) is refunded


def test_norway_names_no_refund_for_a_cancellation_so_the_engine_grants_none() -> None:
    """norway-nm-2025.txt, Other conditions: only cancellations by the NPF are mentioned."""
    refund = refund_due(
        Money(Decimal(200), "NOK"),
        cancelled_on=dt.date(2025, 1, 1),
        competition_start=START,
        policy=load_ruleset("norway-nm-2025").registration,
    )

    assert refund.amount == Money(Decimal(0), "NOK")
    assert refund.refusal is not None
    assert refund.refusal.code == "refund.not_in_rulebook"


def test_money_is_never_negative() -> None:
    """A fee or a refund below zero is a bug, refused where the amount is made."""
    with pytest.raises(ValueError, match="negative"):
        Money(Decimal("-0.01"), "EUR")


def event_with(fee: Fee, *, drawn_teams: bool = False) -> Event:
    return Event(
        id="event",
        name="Event",
        kind="relay" if drawn_teams else "team",
        members_min=4 if drawn_teams else 1,
        members_max=4,
        drawn_teams=drawn_teams,
        fee=fee,
        rounds=(Round(id="final", name="Final", puzzles=(PuzzleSpec(),)),),
    )


amounts = st.decimals(min_value=0, max_value=100_000, places=2)
early_prices = st.builds(
    EarlyPrice,
    amount=amounts,
    until=st.sampled_from(["01-31", "05-31", "12-31"]),
    discount_percent=st.decimals(min_value=0, max_value=Decimal("99.99"), places=2),
)
# A fee with both prices keeps the regular one at or above the early one, as every rulebook does.
fees = st.one_of(
    st.builds(Fee, amount=amounts, per=st.sampled_from(["entry", "person"])),
    st.builds(Fee, early=early_prices, per=st.sampled_from(["entry", "person"])),
    st.builds(
        lambda early, extra: Fee(amount=early.amount + extra, early=early),
        early_prices,
        amounts,
    ),
)


@given(
    fee=fees,
    drawn_teams=st.booleans(),
    registered_on=st.dates(dt.date(2024, 1, 1), dt.date(2025, 12, 31)),
    people=st.integers(1, 6),
)
def test_a_fee_is_never_negative(
    fee: Fee, drawn_teams: bool, registered_on: dt.date, people: int
) -> None:
    """Every fee the rules can express costs zero or more."""
    money = fee_due(
        event_with(fee, drawn_teams=drawn_teams),
        currency="EUR",
        registered_on=registered_on,
        competition_start=START,
        people=people,
    )

    assert money is not None
    assert money.amount >= 0


@given(fee=fees, people=st.integers(1, 6))
def test_the_early_price_is_never_above_the_regular_price(fee: Fee, people: int) -> None:
    """wjpc-2025.txt: the early price is a discount, so registering early never costs more."""
    event = event_with(fee)

    def on(day: dt.date) -> Money | None:
        return fee_due(
            event, currency="EUR", registered_on=day, competition_start=START, people=people
        )

    early, regular = on(dt.date(2025, 1, 1)), on(dt.date(2025, 12, 31))
    assert early is not None
    assert regular is not None
    assert early.amount <= regular.amount


def test_regular_price_is_the_early_price_before_its_discount() -> None:
    """wjpc-2025.txt, Teams: €125 with a 20% discount is a full price of €156.25."""
    fee = Fee(early=EarlyPrice(amount=Decimal(125), until="05-31", discount_percent=Decimal(20)))

    assert regular_price(fee) == Decimal("156.25")


@pytest.mark.parametrize(("registered_on", "expected"), [
    (dt.date(2027, 8, 31), Decimal("300.00")),
    (dt.date(2027, 9, 1), Decimal("400.00")),
])
def test_czech_rules_name_no_fee_so_the_organisers_early_and_regular_prices_apply(
        registered_on: dt.date, expected: Decimal) -> None:
    czech = load_ruleset("czech-championship")
    organiser = OrganiserFee(amount=Decimal(400), early_amount=Decimal(300),
                             early_until=dt.date(2027, 8, 31))
    due = fee_due(czech.event("pairs"), currency="CZK", registered_on=registered_on,
                  competition_start=dt.date(2027, 10, 2), people=2, organiser_fee=organiser)
    assert due == Money(expected, "CZK")


def test_an_organiser_fee_per_person_counts_each_member_of_a_norwegian_team() -> None:
    norway = load_ruleset("norway-nm-2025")
    team = next(e for e in norway.events if e.kind == "team")
    due = fee_due(team, currency="NOK", registered_on=dt.date(2025, 1, 10),
                  competition_start=dt.date(2025, 3, 1), people=4,
                  organiser_fee=OrganiserFee(amount=Decimal(250), per="person"))
    assert due == Money(Decimal("1000.00"), "NOK")


def test_the_rulebooks_fee_wins_over_an_organiser_fee_in_wjpc(wjpc: Ruleset) -> None:
    due = fee_due(wjpc.event("individual"), currency="EUR", registered_on=dt.date(2025, 5, 1),
                  competition_start=START, organiser_fee=OrganiserFee(amount=Decimal(999)))
    assert due == Money(Decimal("60.00"), "EUR")


def test_the_wjpc_regular_price_applies_from_1_june(wjpc: Ruleset) -> None:
    """wjpc-2025.txt: the early price until 31 May."""
    assert regular_price_from(wjpc.event("individual"), competition_start=START) == (
        dt.date(2025, 6, 1))


def test_an_organiser_fee_changes_the_day_after_its_early_price_ends() -> None:
    czech = load_ruleset("czech-championship")
    organiser = OrganiserFee(amount=Decimal(400), early_amount=Decimal(300),
                             early_until=dt.date(2027, 8, 31))
    assert regular_price_from(czech.event("individual"), competition_start=START,
                              organiser_fee=organiser) == dt.date(2027, 9, 1)
    assert regular_price_from(czech.event("individual"), competition_start=START) is None
