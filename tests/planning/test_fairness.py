"""Issue 15, group fairness after a round: each group's puzzle difficulty from its entrants'
ratings and results (docs/seeding.md, Group fairness)."""

from __future__ import annotations

import math

import pytest

from puzzlecomp.planning.fairness import GroupEntrant, group_difficulties

PIECES = 500
LIMIT = 5400


def group(name: str, ratings: list[float | None], factor: float) -> list[GroupEntrant]:
    """Entrants who each took `factor` times what their rating predicts (3000 s at 0)."""
    return [GroupEntrant(name, rating, True,
                         3000 * factor * math.exp(-(rating or 0) / 1000), None)
            for rating in ratings]


RATINGS = [-200.0, -100.0, 0.0, 100.0, 200.0, 300.0]


def difficulties(entrants, **kwargs):
    return {d.group: d for d in group_difficulties(entrants, puzzle_pieces=PIECES,
                                                     time_limit_seconds=LIMIT, **kwargs)}


def test_a_slower_puzzle_shows_whoever_sat_in_the_group():
    """Group B's puzzle took everyone 10 % longer than A's: B is the harder group, however
    strong its entrants, and the two are shown against their mean."""
    found = difficulties(group("A", RATINGS, 1.0) + group("B", [r + 150 for r in RATINGS], 1.1))
    assert found["B"].percent == pytest.approx(100 * (math.sqrt(1.1) - 1), abs=1e-6)
    assert found["A"].percent == pytest.approx(100 * (1 / math.sqrt(1.1) - 1), abs=1e-6)
    assert (found["A"].entrants, found["A"].rated) == (6, 6)


def test_a_strong_field_with_fast_times_is_not_an_easy_puzzle():
    found = difficulties(group("A", RATINGS, 1.0) + group("B", [r + 400 for r in RATINGS], 1.0))
    assert found["A"].percent == pytest.approx(0.0, abs=1e-9)
    assert found["B"].percent == pytest.approx(0.0, abs=1e-9)


def test_entrants_without_rating_count_as_entrants_but_not_in_the_estimate():
    found = difficulties(group("A", RATINGS + [None, None], 1.0) + group("B", RATINGS, 1.2))
    assert (found["A"].entrants, found["A"].rated) == (8, 6)


def test_a_group_with_too_few_rated_entrants_has_no_figure():
    found = difficulties(group("A", RATINGS, 1.0) + group("B", RATINGS, 1.2)
                         + group("C", RATINGS[:4], 2.0))
    assert found["C"].percent is None
    assert found["A"].percent == pytest.approx(100 * (1 / math.sqrt(1.2) - 1), abs=1e-6)


def test_one_group_alone_has_nothing_to_be_compared_with():
    assert [d.percent for d in difficulties(group("A", RATINGS, 1.0)).values()] == [None]


def test_an_unfinished_entry_counts_at_its_pace_and_the_median_ignores_an_outlier():
    """As in the ratings: 250 of 500 pieces in 5,400 s stands for 10,800 s."""
    a = group("A", RATINGS, 1.0)
    b = group("B", RATINGS[:5], 1.0) + [GroupEntrant("B", 300.0, False, None, 250)]
    found = difficulties(a + b)
    assert found["B"].percent == pytest.approx(found["A"].percent, abs=1e-9)
    b_estimate = math.log(10800) - 300 / 1000
    assert b_estimate > math.log(3000)  # far above the others, and the median ignores it


def test_the_groups_come_in_the_order_they_first_appear():
    entrants = group("C", RATINGS, 1.0) + group("A", RATINGS, 1.0)
    assert [d.group for d in group_difficulties(entrants, puzzle_pieces=PIECES,
                                                time_limit_seconds=LIMIT)] == ["C", "A"]
