"""Ranking lists (docs/archive.md, "Ranking lists"): points against the field, each person's
best result of the series' newest editions."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from puzzlecomp.planning.ranking_list import (
    FieldResult,
    ScoredResult,
    printed_points,
    ranking_lines,
    recent_editions,
    result_points,
)


def finished(result: int, seconds: float, field: str = "A") -> FieldResult:
    return FieldResult(result, field, True, seconds, None, 500, 5400)


def test_the_median_finisher_scores_1000_and_half_the_median_time_2000():
    points = result_points([finished(1, 1500), finished(2, 3000), finished(3, 6000)])
    assert points == {1: 2000.0, 2: 1000.0, 3: 500.0}


def test_an_unfinished_result_counts_as_its_pace_over_the_whole_puzzle():
    """400 of 500 pieces in 90 minutes stands for 112.5 minutes (docs/seeding.md, step 1)."""
    unfinished = FieldResult(2, "A", False, None, 400, 500, 5400)
    points = result_points([finished(1, 5400), unfinished])
    assert points[2] == pytest.approx(1000 * (5400 + 6750) / 2 / 6750)


def test_each_field_is_its_own_median():
    points = result_points([finished(1, 3000, "A"), finished(2, 6000, "B")])
    assert points == {1: 1000.0, 2: 1000.0}


def test_only_the_newest_editions_count():
    assert recent_editions(["2019", "2024", "2022", "2023", "2024"]) == ("2022", "2023", "2024")
    lines = ranking_lines([ScoredResult(1, 10, "2019", 3000.0), ScoredResult(1, 11, "2024", 900.0),
                           ScoredResult(2, 12, "2024", 1100.0)], editions=("2023", "2024"))
    assert [(line.person, line.points, line.result) for line in lines] == [
        (2, 1100.0, 12), (1, 900.0, 11)]


scored = st.lists(st.builds(
    ScoredResult, person=st.integers(1, 8), result=st.integers(1, 100),
    edition=st.sampled_from(["2019", "2022", "2023", "2024"]),
    points=st.floats(100, 3000).map(lambda p: round(p, 1))), max_size=40)


@given(scored)
def test_a_ranking_list_names_each_person_once_best_first_with_shared_places(found):
    editions = recent_editions(s.edition for s in found)
    lines = ranking_lines(found, editions=editions)
    assert len({line.person for line in lines}) == len(lines)
    assert [line.points for line in lines] == sorted((line.points for line in lines),
                                                     reverse=True)
    for index, line in enumerate(lines):
        own = [s.points for s in found if s.person == line.person and s.edition in editions]
        assert line.points == round(max(own), 1)
        better = sum(1 for other in lines if other.points > line.points)
        assert line.place == better + 1, index
    assert {line.person for line in lines} == {s.person for s in found if s.edition in editions}


def test_points_are_printed_and_compared_rounded_half_up_to_one_decimal():
    """Issue 30: one number, one rounding (5565.85 is 5565.9 on every page)."""
    assert printed_points(5565.85) == 5565.9
    assert printed_points(5565.86) == 5565.9
    assert printed_points(5565.84) == 5565.8
