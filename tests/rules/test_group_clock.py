"""A clock per group: groups of one round that share the tables play one after another, each
with its own start and limit (wjpc-2025.txt: groups A-F on the same tables; czech-2025: groups
A and B). Pure (rules/round_life.py), no database."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.round_life import (
    EARLY_START_MINUTES,
    GroupStart,
    clock_at,
    group_clock_at,
    group_start_check,
    round_clock_of_groups,
    starts_early,
)

START = dt.datetime(2027, 7, 1, 12, 0, tzinfo=dt.UTC)
LIMIT = 90 * 60
LATER = START + dt.timedelta(hours=2)


def groups(a: dt.datetime | None = None, b: dt.datetime | None = None) -> list[GroupStart]:
    return [GroupStart("A", START, a), GroupStart("B", LATER, b)]


def error_code(call) -> str:
    with pytest.raises(RulesError) as refused:
        call()
    return refused.value.violations[0].code


def test_each_group_has_its_own_start_and_end():
    starts = groups(a=START, b=LATER)
    now = LATER + dt.timedelta(minutes=30)
    a = group_clock_at(starts[0], state="running", limit_seconds=LIMIT, now=now)
    b = group_clock_at(starts[1], state="running", limit_seconds=LIMIT, now=now)
    assert a.state == "counting"
    assert a.ends_at == START + dt.timedelta(seconds=LIMIT)
    assert b.state == "running"
    assert b.elapsed_seconds == 30 * 60
    assert b.ends_at == LATER + dt.timedelta(seconds=LIMIT)


def test_a_group_not_yet_started_waits_while_the_round_runs():
    clock = group_clock_at(groups(a=START)[1], state="running", limit_seconds=LIMIT,
                           now=START + dt.timedelta(minutes=5))
    assert clock.state == "planned"
    assert clock.started_at is None
    assert clock.ends_at is None


def test_the_round_counts_only_once_the_last_group_reaches_the_limit():
    after_a = START + dt.timedelta(seconds=LIMIT + 60)
    between = round_clock_of_groups(groups(a=START), state="running", limit_seconds=LIMIT,
                                    now=after_a)
    assert between.state == "running"
    during_b = round_clock_of_groups(groups(a=START, b=LATER), state="running",
                                     limit_seconds=LIMIT, now=LATER + dt.timedelta(minutes=1))
    assert during_b.state == "running"
    assert during_b.started_at == LATER
    after_b = round_clock_of_groups(groups(a=START, b=LATER), state="running",
                                    limit_seconds=LIMIT,
                                    now=LATER + dt.timedelta(seconds=LIMIT))
    assert after_b.state == "counting"


def test_a_round_without_group_starts_reads_as_before():
    now = START + dt.timedelta(minutes=3)
    assert (round_clock_of_groups(groups(), state="planned", limit_seconds=LIMIT, now=now)
            == clock_at("planned", started_at=None, limit_seconds=LIMIT, now=now))


def test_groups_sharing_tables_start_one_at_a_time():
    during_a = START + dt.timedelta(minutes=10)
    assert error_code(lambda: group_start_check(groups(a=START), "B", state="running",
                                                limit_seconds=LIMIT, now=during_a)) \
        == "round.group_playing"
    group_start_check(groups(a=START), "B", state="running", limit_seconds=LIMIT,
                      now=START + dt.timedelta(seconds=LIMIT))


def test_a_group_starts_once_and_only_a_group_of_the_round():
    now = START + dt.timedelta(hours=3)
    assert error_code(lambda: group_start_check(groups(a=START), "A", state="running",
                                                limit_seconds=LIMIT, now=now)) \
        == "round.group_started"
    assert error_code(lambda: group_start_check(groups(), "Z", state="planned",
                                                limit_seconds=LIMIT, now=now)) \
        == "round.group_unknown"
    assert error_code(lambda: group_start_check(groups(), "A", state="provisional",
                                                limit_seconds=LIMIT, now=now)) \
        == "round.state_order"


def test_starting_long_before_the_planned_start_is_early():
    assert starts_early(START, START - dt.timedelta(minutes=EARLY_START_MINUTES + 1))
    assert not starts_early(START, START - dt.timedelta(minutes=EARLY_START_MINUTES - 1))
    assert not starts_early(None, START)


@given(st.integers(min_value=0, max_value=10 * LIMIT))
def test_at_most_one_group_is_ever_at_the_tables(minutes_after_a: int):
    """Whenever B may start, A's clock has reached the limit."""
    now = START + dt.timedelta(seconds=minutes_after_a)
    try:
        group_start_check(groups(a=START), "B", state="running", limit_seconds=LIMIT, now=now)
    except RulesError:
        return
    assert group_clock_at(groups(a=START)[0], state="running", limit_seconds=LIMIT,
                          now=now).state == "counting"


def test_a_countdown_with_groups_still_to_start_names_the_wait_it_turns_to():
    """Issue 24 (review): a screen left open while the group at the tables runs out of time
    and others still wait shows the round's wait, as the server does, not "counting"."""
    four = [*groups(a=START, b=LATER), GroupStart("C", None, None), GroupStart("D", None, None)]
    running = round_clock_of_groups(four, state="running", limit_seconds=LIMIT,
                                    now=LATER + dt.timedelta(minutes=89))
    assert running.shows == "countdown"
    assert running.as_json()["after_limit"] == "waiting"
    after = round_clock_of_groups(four, state="running", limit_seconds=LIMIT,
                                  now=LATER + dt.timedelta(minutes=91))
    assert (after.state, after.shows) == ("running", "waiting")
    # Every group started: the last one's limit is the round's end, counting follows.
    last = round_clock_of_groups(groups(a=START, b=LATER), state="running",
                                 limit_seconds=LIMIT, now=LATER + dt.timedelta(minutes=89))
    assert "after_limit" not in last.as_json()
