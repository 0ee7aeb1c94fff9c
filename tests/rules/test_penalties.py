"""Missing-piece penalties, one test per rulebook rule."""

from __future__ import annotations

import pytest

from puzzlecomp.rules.results import MissingPieces, Result, Status
from puzzlecomp.rules.scoring import score_result
from tests.conftest import round_of


def finish(time: int, missing: int = 0, contiguous: int = 0, found: int = 0) -> Result:
    return Result(Status.FINISHED, time=time, missing=MissingPieces(missing, contiguous, found))


def test_wjpc_2025_each_missing_piece_costs_5_seconds():
    """wjpc-2025.txt, Time Recording: the penalty for each missing piece is 5 seconds."""
    score = score_result(finish(3000, missing=3), round_of("wjpc-2025", "individual", "first"))
    assert (score.penalty_seconds, score.final_time) == (15, 3015)


def test_wjpc_2025_contiguous_missing_pieces_are_a_manufacturing_defect_and_cost_nothing():
    """wjpc-2025.txt, Contiguous Missing Pieces: two or more contiguous ones cost nothing."""
    rules = round_of("wjpc-2025", "individual", "first")
    assert score_result(finish(3000, missing=2, contiguous=2), rules).penalty_seconds == 0
    assert score_result(finish(3000, missing=3, contiguous=2), rules).penalty_seconds == 5


@pytest.mark.parametrize(("ruleset", "event"), [
    ("czech-championship", "individual"), ("czech-blind-relay", "individual"),
])
def test_czech_rulebooks_charge_10_seconds_for_every_missing_piece_even_adjacent(ruleset, event):
    """czech-championship.txt and czech-blind-and-relay.txt: 10 seconds per missing piece."""
    score = score_result(finish(3000, missing=3, contiguous=2), round_of(ruleset, event))
    assert (score.penalty_seconds, score.final_time) == (30, 3030)


@pytest.mark.parametrize("ruleset", ["australia-state", "australia-national"])
def test_australia_charges_10_seconds_per_missing_piece_but_not_adjacent_ones(ruleset):
    """australia-state-national.txt, Competitive Rules: 10 s a piece; adjacent ones a defect."""
    rules = round_of(ruleset, "individual", time_limit_minutes=120, pieces=1000)
    assert score_result(finish(3000, missing=1), rules).penalty_seconds == 10
    assert score_result(finish(3000, missing=4, contiguous=3), rules).penalty_seconds == 10


def test_norway_a_truly_lost_piece_costs_nothing_and_a_misplaced_one_5_seconds():
    """norway-nm-2025.txt: no penalty for a piece that is gone; 5 s if found in bag or on floor."""
    rules = round_of("norway-nm-2025", "individual", time_limit_minutes=120, pieces=500)
    assert score_result(finish(3000, missing=1), rules).penalty_seconds == 0
    assert score_result(finish(3000, missing=2, found=1), rules).penalty_seconds == 5


def test_a_finish_within_the_limit_stays_a_finish_when_penalties_push_it_past_the_limit():
    """wjpc-2025.txt, Time Recording: penalties are added to the recorded time."""
    rules = round_of("wjpc-2025", "individual", "first")
    score = score_result(finish(5399, missing=4), rules)
    assert score.status is Status.FINISHED
    assert score.final_time == 5419 > rules.time_limit_seconds


def test_time_credit_is_subtracted_and_extends_the_entrys_own_limit():
    """wjpc-2025.txt, Start of the round: a wrong puzzle's delay is subtracted and given back."""
    rules = round_of("wjpc-2025", "individual", "first")
    score = score_result(Result(Status.FINISHED, time=5500, time_credit=180), rules)
    assert score.final_time == 5320
