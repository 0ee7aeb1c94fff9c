"""A round's life in the engine: moves, the clock at the limit, the dispute window, the no-show
rule and what a round needs before it starts (rules/round_life.py, no database)."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.loading import load_ruleset
from puzzlecomp.rules.round_life import (
    NEXT_STATES,
    RoundSetup,
    RoundState,
    clock_at,
    dispute_window_ends,
    disputes_accepted,
    final_check,
    move_check,
    no_show_allowed_at,
    no_show_refusal,
    round_readiness,
    state_at,
)

START = dt.datetime(2027, 7, 1, 12, 0, tzinfo=dt.UTC)
LIMIT = 90 * 60
READY = RoundSetup(time_limit_minutes=None, pieces=None, entrants=36, ungrouped=0, unseated=0)


def codes(problems) -> list[str]:
    return [p.code for p in problems]


def test_a_round_moves_forward_one_state_at_a_time_and_back_only_from_the_results():
    assert NEXT_STATES[RoundState.PLANNED] == (RoundState.RUNNING,)
    move_check("provisional", "counting")
    move_check("published", "provisional")
    with pytest.raises(RulesError) as refused:
        move_check("planned", "published")
    assert refused.value.code == "round.state_order"
    with pytest.raises(RulesError):
        move_check("final", "published")


def test_a_running_round_reads_as_counting_from_its_limit_on():
    """wjpc-2025.txt, Unfinished Puzzles: when the maximum time is reached, pieces are
    counted; the clock says so whether or not the move was written yet."""
    before = START + dt.timedelta(seconds=LIMIT - 1)
    at = START + dt.timedelta(seconds=LIMIT)
    assert state_at("running", started_at=START, limit_seconds=LIMIT, now=before) == "running"
    assert state_at("running", started_at=START, limit_seconds=LIMIT, now=at) == "counting"
    clock = clock_at("running", started_at=START, limit_seconds=LIMIT, now=at)
    assert (clock.state, clock.ends_at, clock.elapsed_seconds) == ("counting", at, LIMIT)


def test_a_planned_round_has_no_start_on_its_clock_and_a_round_without_limit_no_end():
    planned = clock_at("planned", started_at=START, limit_seconds=LIMIT, now=START)
    assert (planned.started_at, planned.ends_at, planned.elapsed_seconds) == (None, None, None)
    unlimited = clock_at("running", started_at=START, limit_seconds=None,
                         now=START + dt.timedelta(days=1))
    assert (unlimited.state, unlimited.ends_at, unlimited.limit_seconds) == ("running", None,
                                                                            None)


@given(state=st.sampled_from(list(RoundState)), seconds=st.integers(0, 10 * LIMIT))
def test_only_a_running_round_changes_state_on_the_clock(state, seconds):
    read = state_at(state, started_at=START, limit_seconds=LIMIT,
                    now=START + dt.timedelta(seconds=seconds))
    assert read == state or (state, read) == (RoundState.RUNNING, RoundState.COUNTING)


def test_disputes_are_taken_for_four_hours_after_publication_wjpc_2025():
    """wjpc-2025.txt, Disputes and Reviews: within 4 hours of the results being posted; the
    hours are the ruleset's `dispute_window_hours`."""
    hours = load_ruleset("wjpc-2025").dispute_window_hours
    ends = dispute_window_ends(START, hours)
    assert ends == START + dt.timedelta(hours=4)
    assert disputes_accepted("published", window_ends=ends, now=ends)
    assert not disputes_accepted("published", window_ends=ends,
                                 now=ends + dt.timedelta(seconds=1))
    assert not disputes_accepted("provisional", window_ends=ends, now=START)
    with pytest.raises(RulesError) as refused:
        final_check(window_ends=ends, open_disputes=0, now=START)
    assert refused.value.code == "round.dispute_window_open"
    with pytest.raises(RulesError) as refused:
        final_check(window_ends=ends, open_disputes=2, now=ends)
    assert refused.value.code == "round.disputes_open"
    final_check(window_ends=ends, open_disputes=0, now=ends)


def test_without_a_window_disputes_are_taken_until_the_results_are_final():
    """czech-blind-relay names no dispute window: disputes until final, final at once."""
    assert load_ruleset("czech-blind-relay").dispute_window_hours is None
    assert dispute_window_ends(START, None) is None
    assert disputes_accepted("published", window_ends=None, now=START + dt.timedelta(days=9))
    final_check(window_ends=None, open_disputes=0, now=START)


def test_a_no_show_table_is_given_away_ten_minutes_after_the_start_wjpc_2025():
    """wjpc-2025.txt: the Organization may use the tables of participants who have not shown
    up 10 minutes after the start (the ruleset's `no_show_after_minutes`)."""
    minutes = load_ruleset("wjpc-2025").no_show_after_minutes
    assert no_show_allowed_at(START, minutes) == START + dt.timedelta(minutes=10)
    early = no_show_refusal(minutes=minutes, starts_at=START,
                            at=START + dt.timedelta(minutes=9, seconds=59))
    assert early is not None
    assert early.code == "seating.no_show_too_early"
    assert early.params["minutes"] == 10
    assert no_show_refusal(minutes=minutes, starts_at=START,
                           at=START + dt.timedelta(minutes=10)) is None
    unstarted = no_show_refusal(minutes=minutes, starts_at=None, at=START)
    assert unstarted is not None
    assert unstarted.code == "seating.round_not_started"


def test_rulesets_without_a_no_show_rule_keep_missing_tables():
    minutes = load_ruleset("australia-state").no_show_after_minutes
    refused = no_show_refusal(minutes=minutes, starts_at=START, at=START + dt.timedelta(days=1))
    assert refused is not None
    assert refused.code == "seating.no_show_not_in_rules"


def test_an_australian_round_needs_its_time_limit_and_puzzle_size_before_it_starts():
    """australia-state-national.txt names no time limit or puzzle size: the organiser gives
    them, and until then the round says so (in words, not as a command-line option)."""
    ruleset = load_ruleset("australia-state")
    problems = round_readiness(ruleset, "individual", "final", READY)
    assert codes(problems) == ["round.time_limit_required", "round.pieces_required"]
    assert all("--" not in p.message for p in problems)
    given_both = RoundSetup(time_limit_minutes=120, pieces=1000, entrants=36, ungrouped=0,
                            unseated=0)
    assert round_readiness(ruleset, "individual", "final", given_both) == ()


def test_a_wjpc_first_round_needs_entrants_in_groups_at_tables():
    """wjpc-2025.txt, Group Assignment for First Round: the first round is run in groups, and
    every participant has a table."""
    ruleset = load_ruleset("wjpc-2025")
    assert round_readiness(ruleset, "individual", "first", READY) == ()
    missing = RoundSetup(time_limit_minutes=None, pieces=None, entrants=36, ungrouped=5,
                         unseated=7)
    problems = round_readiness(ruleset, "individual", "first", missing)
    assert codes(problems) == ["round.groups_missing", "round.seats_missing"]
    assert [p.params["count"] for p in problems] == [5, 7]
    empty = RoundSetup(time_limit_minutes=None, pieces=None, entrants=0, ungrouped=0,
                       unseated=0)
    assert codes(round_readiness(ruleset, "individual", "first", empty)) == ["round.no_entrants"]


def test_a_round_without_groups_in_its_rules_needs_none():
    """wjpc-2025.txt: the final is one group."""
    ruleset = load_ruleset("wjpc-2025")
    ungrouped = RoundSetup(time_limit_minutes=None, pieces=None, entrants=20, ungrouped=20,
                           unseated=0)
    assert round_readiness(ruleset, "individual", "final", ungrouped) == ()
