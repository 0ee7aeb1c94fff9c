"""What every clock shows for each group of a two-group round, through every state of the round
(rules/round_life.py `group_clock_at`, the one decision every screen draws; issue 24, item 2).

WJPC groups share the tables and play one after another (wjpc-2025.txt, Group Assignment for
First Round); at the maximum time the pieces are counted (Unfinished Puzzles); results are
posted, then disputed within 4 hours (Disputes and Reviews).
"""

from __future__ import annotations

import datetime as dt

import pytest

from puzzlecomp.rules.round_life import (
    ClockShows,
    GroupStart,
    RoundState,
    group_clock_at,
    round_clock_of_groups,
)

T0 = dt.datetime(2026, 7, 1, 9, 0, tzinfo=dt.UTC)
LIMIT = 90 * 60
S1_START = T0
S2_START = T0 + dt.timedelta(hours=2)


def at(minutes: float) -> dt.datetime:
    return T0 + dt.timedelta(minutes=minutes)


def starts(s1: dt.datetime | None, s2: dt.datetime | None) -> list[GroupStart]:
    return [GroupStart("S1", None, s1), GroupStart("S2", None, s2)]


def faces(state: str, group_starts: list[GroupStart], now: dt.datetime,
          stopped_at: dt.datetime | None = None) -> dict[str, tuple[str, str, dt.datetime | None]]:
    """Each group's (and the round's) clock as (state, shows, ended_at)."""
    found = {}
    for s in group_starts:
        clock = group_clock_at(s, state=state, limit_seconds=LIMIT, now=now,
                               stopped_at=stopped_at)
        found[s.group] = (clock.state, clock.shows, clock.ended_at)
    whole = round_clock_of_groups(group_starts, state=state, limit_seconds=LIMIT, now=now,
                                  stopped_at=stopped_at)
    found["round"] = (whole.state, whole.shows, whole.ended_at)
    return found


S1_END = S1_START + dt.timedelta(seconds=LIMIT)
S2_END = S2_START + dt.timedelta(seconds=LIMIT)

# (stored round state, S1 start, S2 start, minutes after 9:00, stop, expected faces)
WALK = [
    ("both wait before the round", "planned", None, None, -10, None,
     {"S1": ("planned", "waiting", None), "S2": ("planned", "waiting", None),
      "round": ("planned", "waiting", None)}),
    ("S1 at the tables, S2 waits with its limit", "running", S1_START, None, 30, None,
     {"S1": ("running", "countdown", None), "S2": ("planned", "waiting", None),
      "round": ("running", "countdown", None)}),
    ("S1 at its limit counts, S2 still waits, the round waits for S2", "running", S1_START,
     None, 95, None,
     {"S1": ("counting", "counting", S1_END), "S2": ("planned", "waiting", None),
      "round": ("running", "waiting", None)}),
    ("S2 at the tables, S1 counted", "running", S1_START, S2_START, 150, None,
     {"S1": ("counting", "counting", S1_END), "S2": ("running", "countdown", None),
      "round": ("running", "countdown", None)}),
    ("S2 at its limit: the whole round counts", "running", S1_START, S2_START, 215, None,
     {"S1": ("counting", "counting", S1_END), "S2": ("counting", "counting", S2_END),
      "round": ("counting", "counting", S2_END)}),
    ("Stop assembling at 10 minutes before S2's limit: no countdown anywhere", "counting",
     S1_START, S2_START, 200, at(200),
     {"S1": ("counting", "counting", S1_END), "S2": ("counting", "counting", at(200)),
      "round": ("counting", "counting", at(200))}),
    ("provisional: the round's end, not a frozen time left", "provisional", S1_START,
     S2_START, 230, at(200),
     {"S1": ("provisional", "ended", S1_END), "S2": ("provisional", "ended", at(200)),
      "round": ("provisional", "ended", at(200))}),
    ("published", "published", S1_START, S2_START, 300, None,
     {"S1": ("published", "ended", S1_END), "S2": ("published", "ended", S2_END),
      "round": ("published", "ended", S2_END)}),
    ("final", "final", S1_START, S2_START, 600, None,
     {"S1": ("final", "ended", S1_END), "S2": ("final", "ended", S2_END),
      "round": ("final", "ended", S2_END)}),
]


@pytest.mark.parametrize(("state", "s1", "s2", "minutes", "stop", "expected"),
                         [case[1:] for case in WALK], ids=[case[0] for case in WALK])
def test_every_clock_of_a_two_group_round_shows_its_own_group_in_every_state(
        state: str, s1: dt.datetime | None, s2: dt.datetime | None, minutes: float,
        stop: dt.datetime | None, expected: dict[str, tuple[str, str, dt.datetime | None]]
) -> None:
    assert faces(state, starts(s1, s2), at(minutes), stop) == expected


def test_a_stop_before_the_limit_shows_counting_and_the_stop_not_a_countdown() -> None:
    clock = group_clock_at(GroupStart("A", None, T0), state=RoundState.COUNTING,
                           limit_seconds=LIMIT, now=at(40), stopped_at=at(30))
    assert clock.shows == ClockShows.COUNTING
    assert clock.ended_at == at(30)
    assert clock.as_json()["shows"] == "counting"
    assert clock.as_json()["ended_at"] == at(30).isoformat()


def test_every_state_has_a_face() -> None:
    for state in RoundState:
        clock = group_clock_at(GroupStart("A", None, T0 if state != "planned" else None),
                               state=state, limit_seconds=LIMIT, now=at(10))
        assert clock.shows in set(ClockShows)
