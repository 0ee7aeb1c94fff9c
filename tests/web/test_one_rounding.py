"""One number, one rounding (issue 30): the same points read the same on every page."""

from __future__ import annotations

from django.utils import translation

from puzzlecomp.planning.ranking_list import ScoredResult, ranking_lines
from puzzlecomp.public.people.display import points_words


def test_a_person_page_prints_the_points_the_ranking_list_compares():
    """Django's number_format cuts a float's digits off (5565.86 read 5565.8 on the person
    page while the ranking list said 5565.9)."""
    [line] = ranking_lines([ScoredResult(1, 10, "2024", 5565.86)], editions=["2024"])
    with translation.override("en"):
        assert points_words(5565.86) == points_words(line.points) == "5565.9"
    with translation.override("cs"):
        assert points_words(5565.86) == "5565,9"
