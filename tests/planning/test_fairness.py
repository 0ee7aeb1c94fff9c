"""Issue 15, group fairness after a round: each group's puzzle difficulty from its entrants'
ratings and results (docs/seeding.md, Group fairness)."""

from __future__ import annotations

import math

import pytest

from puzzlecomp.planning.fairness import (
    GroupEntrant,
    expected_seconds,
    group_difficulties,
    group_paces,
    groups_told_apart,
)

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


def scattered(name: str, factor: float, spread: float, n: int = 40) -> list[GroupEntrant]:
    """Entrants of rating 0 who took `factor` times the prediction, give or take `spread`
    (a log-scale wobble alternating in sign)."""
    return [GroupEntrant(name, 0.0, True,
                         3000 * factor * math.exp(spread * (1 if i % 2 else -1) * (i % 5) / 4),
                         None) for i in range(n)]


def test_each_figure_has_an_interval_and_a_clear_difference_is_told_apart():
    """Issue 30: a figure with its uncertainty. Two groups 20 % apart with little scatter are
    told apart; their 90 % intervals leave out the average group."""
    found = difficulties(scattered("A", 1.0, 0.05) + scattered("B", 1.2, 0.05))
    a, b = found["A"], found["B"]
    assert a.low < a.percent < a.high
    assert a.high < 0 < b.low
    assert a.told_apart
    assert b.told_apart
    assert groups_told_apart(found.values())


def test_groups_whose_difference_is_within_the_fields_scatter_cannot_be_told_apart():
    """Issue 30: a 2 % difference inside a scatter of ±40 % is no finding."""
    found = difficulties(scattered("A", 1.0, 0.4) + scattered("B", 1.02, 0.4))
    assert found["A"].low < 0 < found["A"].high
    assert not groups_told_apart(found.values())


def test_an_entrants_expected_time_is_its_rating_at_the_groups_pace():
    """Issue 30: the second looks' expected time, from the same pace as the fairness figures."""
    paces = group_paces(group("A", RATINGS, 1.5), puzzle_pieces=PIECES,
                        time_limit_seconds=LIMIT)
    assert expected_seconds(100.0, paces["A"]) == pytest.approx(3000 * 1.5 * math.exp(-0.1))
    assert group_paces(group("B", RATINGS[:4], 1.0), puzzle_pieces=PIECES,
                       time_limit_seconds=LIMIT) == {}
