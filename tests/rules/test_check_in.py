"""The no-show rule read against the check-in desk (wjpc-2025.txt and czech-championship.txt:
a table may be given to another participant 10 minutes after the round starts)."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from puzzlecomp.rules.check_in import (
    CheckInStatus,
    offered_for_replacement,
    replacement_refusal,
    table_free_at,
)
from puzzlecomp.rules.loading import load_ruleset

START = dt.datetime(2025, 9, 20, 9, 0, tzinfo=dt.UTC)
STATUSES: list[CheckInStatus | None] = [None, "present", "late", "no_show", "replaced"]


@pytest.mark.parametrize("ruleset_id", ["wjpc-2025", "czech-championship"])
def test_a_table_is_free_ten_minutes_after_the_start_in_wjpc_and_czech_rules(
        ruleset_id: str) -> None:
    minutes = load_ruleset(ruleset_id).no_show_after_minutes
    assert table_free_at(round_start=START, no_show_after_minutes=minutes) == (
        START + dt.timedelta(minutes=10))


def test_norway_names_no_no_show_rule_so_no_table_is_ever_offered() -> None:
    minutes = load_ruleset("norway-nm-2025").no_show_after_minutes
    assert minutes is None
    offered = offered_for_replacement({"1": None}, round_start=START,
                                      no_show_after_minutes=minutes,
                                      now=START + dt.timedelta(hours=2))
    assert offered == ()


def test_an_entrant_not_checked_in_is_offered_from_the_tenth_minute_not_before() -> None:
    check_ins: dict[str, CheckInStatus | None] = {"7": None}
    before = offered_for_replacement(check_ins, round_start=START, no_show_after_minutes=10,
                                     now=START + dt.timedelta(minutes=9, seconds=59))
    at = offered_for_replacement(check_ins, round_start=START, no_show_after_minutes=10,
                                 now=START + dt.timedelta(minutes=10))
    assert (before, at) == ((), ("7",))


def test_present_and_late_entrants_keep_their_tables_and_no_shows_are_offered() -> None:
    check_ins: dict[str, CheckInStatus | None] = {
        "1": "present", "2": "late", "3": "no_show", "4": None, "5": "replaced"}
    offered = offered_for_replacement(check_ins, round_start=START, no_show_after_minutes=10,
                                      now=START + dt.timedelta(minutes=30))
    assert offered == ("3", "4")


def test_a_round_without_a_start_offers_nobody() -> None:
    assert offered_for_replacement({"1": None}, round_start=None, no_show_after_minutes=10,
                                   now=START) == ()


def test_replacing_an_entrant_who_checked_in_is_refused_with_their_status() -> None:
    refusal = replacement_refusal("late", entrant="12", round_start=START,
                                  no_show_after_minutes=10,
                                  now=START + dt.timedelta(minutes=15))
    assert refusal is not None
    assert (refusal.code, refusal.entry, refusal.params["status"]) == (
        "check_in.shown_up", "12", "late")


def test_replacing_before_the_tenth_minute_is_refused_with_the_time_it_becomes_possible() -> None:
    refusal = replacement_refusal(None, entrant="12", round_start=START,
                                  no_show_after_minutes=10,
                                  now=START + dt.timedelta(minutes=5))
    assert refusal is not None
    assert refusal.code == "seating.no_show_too_early"
    assert refusal.params["allowed"] == START + dt.timedelta(minutes=10)


@pytest.mark.parametrize(("minutes", "start", "code"), [
    (None, START, "seating.no_show_not_in_rules"),
    (10, None, "seating.round_not_started"),
])
def test_replacing_without_the_rule_or_a_start_is_refused(
        minutes: int | None, start: dt.datetime | None, code: str) -> None:
    refusal = replacement_refusal(None, entrant="1", round_start=start,
                                  no_show_after_minutes=minutes, now=START)
    assert refusal is not None
    assert refusal.code == code


@given(statuses=st.lists(st.sampled_from(STATUSES), max_size=30),
       minutes_after=st.integers(min_value=-60, max_value=240))
def test_offered_entrants_are_exactly_those_the_replacement_rule_allows(
        statuses: list[CheckInStatus | None], minutes_after: int) -> None:
    check_ins = {str(i): s for i, s in enumerate(statuses)}
    now = START + dt.timedelta(minutes=minutes_after)
    offered = set(offered_for_replacement(check_ins, round_start=START,
                                          no_show_after_minutes=10, now=now))
    allowed = {entrant for entrant, status in check_ins.items()
               if replacement_refusal(
                   status, entrant=entrant, round_start=START, no_show_after_minutes=10,
                   now=now) is None}
    assert offered == allowed
