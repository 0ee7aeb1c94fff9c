"""Finishes at the same second never pass an order check (issue 23, item 2): a puzzle that
starts only once the one before is checked finishes at least the ruleset's
`next_finish_after_seconds` (1 s in every bundled ruleset) after it."""

from __future__ import annotations

import pytest

from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.loading import load_ruleset
from puzzlecomp.rules.puzzle_order import earliest_next_finish
from puzzlecomp.rules.results import PuzzleRecord, Result, Status
from puzzlecomp.rules.rounds import RoundRules
from puzzlecomp.rules.ruleset import Ruleset
from puzzlecomp.rules.scoring import score_result
from tests.conftest import round_of

WJPC_TEAMS = round_of("wjpc-2025", "teams", "final")
CZECH_TEAMS = round_of("czech-championship", "teams", "final")
RELAY = round_of("czech-blind-relay", "relay")


def codes(result: Result, rules: RoundRules) -> set[tuple[str, str]]:
    try:
        score_result(result, rules, entry="T1")
    except RulesError as refused:
        return {(v.code, v.field) for v in refused.violations}
    return set()


def test_wjpc_teams_second_puzzle_cannot_finish_at_the_second_the_first_did():
    """wjpc-2025.txt, Teams: the second puzzle may not be started "until first puzzle has been
    correctly completed and a member of the Organization verifies the correct assembly, records
    the time ... and authorizes to start next puzzle": it ends later, never at the same second."""
    same = Result(Status.FINISHED, puzzles=(PuzzleRecord(time=4000), PuzzleRecord(time=4000)))
    assert codes(same, WJPC_TEAMS) == {("result.puzzle_before_previous", "puzzle 2")}
    later = Result(Status.FINISHED, puzzles=(PuzzleRecord(time=4000), PuzzleRecord(time=4001)))
    assert score_result(later, WJPC_TEAMS).final_time == 4001


def test_czech_teams_two_puzzles_never_finish_at_the_same_second_in_either_order():
    """czech-championship.txt, Stacking rules: "Only one puzzle may be laid out on the table at
    a time" and the referee "checks it, records the time and allows them to start the next"."""
    for times in ((5000, 5000), (6000, 6000)):
        same = Result(Status.FINISHED, puzzles=tuple(PuzzleRecord(time=t) for t in times))
        assert codes(same, CZECH_TEAMS) == {("result.puzzle_before_previous", "puzzle 2")}
    either = Result(Status.FINISHED, puzzles=(PuzzleRecord(time=6000), PuzzleRecord(time=5000)))
    assert codes(either, CZECH_TEAMS) == set()


def test_a_relay_part_cannot_finish_at_the_second_its_previous_part_ended():
    """czech-blind-and-relay.txt, 3.3-3.5 and 3.7: a part starts after the part before is
    finished and checked, and the next puzzle only once the finished one is packed in its box;
    the four puzzles of part 1 may still finish at the same second as each other (four people
    at four puzzles, 3.2)."""
    part1 = tuple(PuzzleRecord(time=3000) for _ in range(4))
    same = Result(Status.FINISHED, puzzles=(*part1, PuzzleRecord(time=3000),
                                            PuzzleRecord(time=5000), PuzzleRecord(time=6000),
                                            PuzzleRecord(time=9000)))
    assert codes(same, RELAY) == {("result.puzzle_before_previous", "puzzle 5")}
    apart = Result(Status.FINISHED, puzzles=(*part1, PuzzleRecord(time=3001),
                                             PuzzleRecord(time=5000), PuzzleRecord(time=6000),
                                             PuzzleRecord(time=6001)))
    assert codes(apart, RELAY) == set()


@pytest.mark.parametrize("ruleset_id", ["wjpc-2025", "czech-championship", "czech-blind-relay",
                                        "norway-nm-2025", "australia-state",
                                        "australia-national"])
def test_every_ruleset_states_a_gap_of_at_least_one_second(ruleset_id):
    """docs/rulesets.md, Multi-puzzle rounds: each rulebook checks a finished puzzle before the
    next may start, and judges record whole seconds; none names a longer gap."""
    ruleset = load_ruleset(ruleset_id)
    assert ruleset.next_finish_after_seconds == 1
    assert earliest_next_finish(4000, ruleset.next_finish_after_seconds) == 4001


def test_a_ruleset_gap_below_one_second_is_refused_and_a_longer_gap_is_applied():
    base = load_ruleset("wjpc-2025").model_dump(by_alias=True)
    with pytest.raises(ValueError, match="next_finish_after_seconds"):
        Ruleset.model_validate({**base, "next_finish_after_seconds": 0})
    longer = Ruleset.model_validate({**base, "next_finish_after_seconds": 60})
    rules = RoundRules(longer, longer.event("teams"), longer.event("teams").round("final"),
                       WJPC_TEAMS.time_limit_seconds, WJPC_TEAMS.puzzle_sizes)
    soon = Result(Status.FINISHED, puzzles=(PuzzleRecord(time=4000), PuzzleRecord(time=4059)))
    assert codes(soon, rules) == {("result.puzzle_before_previous", "puzzle 2")}
