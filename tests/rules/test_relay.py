"""The relay's rotating part (czech-blind-and-relay.txt, 3.2)."""

from __future__ import annotations

from puzzlecomp.rules.loading import load_ruleset
from puzzlecomp.rules.relay import Move, rotation_schedule

PART = load_ruleset("czech-blind-relay").event("relay").rounds[0].relay_parts[0]
MEMBERS = ("Ana", "Ben", "Cyril", "Dana")


def test_every_8_minutes_everyone_moves_clockwise_to_the_next_puzzle():
    """czech-blind-and-relay.txt, 3.2: a signal every 8 minutes; all move clockwise."""
    signals = rotation_schedule(PART, members=MEMBERS, finishes={}, until=20 * 60)
    assert [s.at for s in signals] == [480, 960]
    assert signals[0].moves == (
        Move("Ana", 0, 1), Move("Ben", 1, 2), Move("Cyril", 2, 3), Move("Dana", 3, 0)
    )


def test_who_finishes_a_puzzle_stops_and_the_others_rotate_among_unfinished_ones():
    """czech-blind-and-relay.txt, 3.2: a member who finished a puzzle no longer assembles;
    the rest rotate only among unfinished puzzles."""
    # Puzzle 1 is finished at 10:00 by Ana, who moved there at the first signal.
    signals = rotation_schedule(PART, members=MEMBERS, finishes={1: 600}, until=30 * 60)
    second = signals[1]
    assert second.at == 960
    assert {m.member for m in second.moves} == {"Ben", "Cyril", "Dana"}
    assert Move("Dana", 0, 2) in second.moves  # skips the finished puzzle 1


def test_the_rotation_stops_when_every_puzzle_is_finished():
    finishes = {0: 500, 1: 700, 2: 900, 3: 950}
    signals = rotation_schedule(PART, members=MEMBERS, finishes=finishes, until=300 * 60)
    assert [s.at for s in signals] == [480]
