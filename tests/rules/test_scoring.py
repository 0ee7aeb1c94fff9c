"""Scoring a judge's record: bad records, counts at the limit, multi-puzzle rounds."""

from __future__ import annotations

import pytest

from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.results import MissingPieces, PuzzleRecord, Result, Status
from puzzlecomp.rules.scoring import score_result
from tests.conftest import round_of

WJPC_FIRST = round_of("wjpc-2025", "individual", "first")


def codes(result: Result, rules=WJPC_FIRST) -> set[str]:
    with pytest.raises(RulesError) as caught:
        score_result(result, rules, entry="E1")
    assert all(v.entry == "E1" for v in caught.value.violations)
    return {v.code for v in caught.value.violations}


def test_a_finish_past_the_limit_is_refused():
    """wjpc-2025.txt, Individual First Round: a maximum time of 90 minutes."""
    assert codes(Result(Status.FINISHED, time=5401)) == {"result.finish_past_limit"}


def test_a_finish_past_the_limit_is_accepted_within_the_entrys_time_credit():
    """wjpc-2025.txt, Start of the round: extra time equal to the delay at the start."""
    score = score_result(Result(Status.FINISHED, time=5500, time_credit=120), WJPC_FIRST)
    assert score.final_time == 5380


def test_a_finish_without_a_time_is_refused():
    assert codes(Result(Status.FINISHED)) == {"result.finish_without_time"}


def test_pieces_above_the_puzzle_size_are_refused():
    assert codes(Result(Status.UNFINISHED, pieces=501)) == {"result.pieces_above_size"}


def test_negative_numbers_are_refused():
    assert "result.negative" in codes(Result(Status.UNFINISHED, pieces=-1))
    assert "result.negative" in codes(
        Result(Status.FINISHED, time=10, missing=MissingPieces(-1))
    )


def test_contiguous_or_found_pieces_cannot_exceed_the_missing_ones():
    assert codes(Result(Status.FINISHED, time=10, missing=MissingPieces(1, 2))) >= {
        "result.contiguous_above_missing"
    }
    assert codes(Result(Status.FINISHED, time=10, missing=MissingPieces(1, 0, 2))) == {
        "result.found_above_missing"
    }


def test_a_contiguous_cluster_has_at_least_two_pieces():
    """wjpc-2025.txt, Contiguous Missing Pieces: two or more contiguous missing pieces."""
    assert codes(Result(Status.FINISHED, time=10, missing=MissingPieces(3, 1))) == {
        "result.contiguous_single"
    }


def test_an_unfinished_result_needs_a_count():
    """wjpc-2025.txt, Unfinished Puzzles: correctly placed pieces are recorded for ranking."""
    assert codes(Result(Status.UNFINISHED)) == {"result.unfinished_without_count"}


def test_a_dnf_carries_no_count():
    assert codes(Result(Status.DNF, pieces=10)) == {"result.count_without_unfinished"}


def test_norway_counts_the_remaining_pieces_and_placed_is_size_minus_remaining():
    """norway-nm-2025.txt: the remaining pieces are laid in piles of 10 and counted."""
    rules = round_of("norway-nm-2025", "individual", time_limit_minutes=90, pieces=500)
    assert score_result(Result(Status.UNFINISHED, remaining=130), rules).pieces == 370


def test_teams_final_time_is_the_last_puzzle_finish_plus_all_penalties():
    """wjpc-2025.txt, Time Recording: with two or more puzzles the penalty is added to the final
    time; teams' time runs from the shared start."""
    rules = round_of("wjpc-2025", "teams", "first")
    result = Result(
        Status.FINISHED,
        puzzles=(
            PuzzleRecord(time=4000, missing=MissingPieces(1)),
            PuzzleRecord(time=8000, missing=MissingPieces(2)),
        ),
    )
    score = score_result(result, rules)
    assert (score.final_time, score.penalty_seconds) == (8015, 15)


def test_an_unfinished_team_counts_its_finished_puzzle_whole_plus_the_counted_pieces():
    """czech-championship.txt, teams: 1000 + 500 pieces in the order the team chooses."""
    rules = round_of("czech-championship", "teams", "final")
    result = Result(
        Status.UNFINISHED, puzzles=(PuzzleRecord(pieces=640), PuzzleRecord(time=3100))
    )
    assert score_result(result, rules).pieces == 1140


def test_the_relay_counts_all_eight_puzzles():
    """czech-blind-and-relay.txt, 3.6: the total of correctly assembled pieces decides."""
    rules = round_of("czech-blind-relay", "relay")
    assert rules.puzzle_sizes == (500,) * 7 + (1000,)
    records = tuple(PuzzleRecord(time=1000 * (i + 1)) for i in range(7)) + (
        PuzzleRecord(pieces=800),
    )
    assert score_result(Result(Status.UNFINISHED, puzzles=records), rules).pieces == 4300


def test_a_puzzle_counted_with_none_remaining_holds_all_its_pieces():
    """czech-blind-and-relay.txt, 3.6: remaining pieces counted per puzzle; 0 left is complete."""
    rules = round_of("czech-blind-relay", "relay")
    records = (PuzzleRecord(remaining=0), PuzzleRecord(remaining=120),
               *(PuzzleRecord(remaining=500) for _ in range(5)), PuzzleRecord(remaining=1000))
    assert score_result(Result(Status.UNFINISHED, puzzles=records), rules).pieces == 500 + 380


def test_a_multi_puzzle_result_must_give_every_puzzle():
    rules = round_of("wjpc-2025", "teams", "first")
    result = Result(Status.FINISHED, puzzles=(PuzzleRecord(time=10),))
    assert codes(result, rules) == {"result.puzzle_count"}
