"""Ratings from past results and the seeding they give (docs/seeding.md)."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from puzzlecomp.planning.rating import (
    PastResult,
    RatingMethod,
    SeedingEntry,
    estimated_seconds,
    rate_people,
    seed_entries,
    seed_ranks,
)


def finish(edition: int, rnd: str, person: str, seconds: float) -> PastResult:
    return PastResult(edition, rnd, (person,), True, seconds, None, 500, 5400)


def unfinished(edition: int, rnd: str, person: str, placed: float) -> PastResult:
    return PastResult(edition, rnd, (person,), False, None, placed, 500, 5400)


def test_an_unfinished_entry_counts_as_its_pace_extrapolated_to_the_whole_puzzle():
    assert estimated_seconds(unfinished(2024, "A", "p", 450)) == 6000


def test_an_unfinished_entry_never_counts_as_faster_than_the_limit():
    """The 2022 teams final placed more pieces than the scraper's puzzle size (data README)."""
    over = PastResult(2022, "final", ("p",), False, None, 2230, 1000, 5400)
    assert estimated_seconds(over) == 5400


def test_an_entry_that_placed_almost_nothing_counts_as_the_least_share():
    assert estimated_seconds(unfinished(2024, "A", "p", 0)) == 5400 / 0.05


def test_faster_in_the_same_round_rates_higher():
    ratings = rate_people([finish(2024, "A", "fast", 3000), finish(2024, "A", "slow", 4000)])
    assert ratings["fast"] > ratings["slow"]


def test_a_finisher_rates_above_an_entry_that_did_not_finish():
    ratings = rate_people([finish(2024, "A", "done", 5300), unfinished(2024, "A", "left", 499)])
    assert ratings["done"] > ratings["left"]


def test_a_round_difficulty_comes_from_who_took_part():
    """Equal times in a harder round (the same people slower there) rate higher."""
    history = [
        finish(2024, "A", "x", 3000), finish(2024, "B", "x", 4000),
        finish(2024, "A", "y", 3100), finish(2024, "B", "y", 4100),
        finish(2024, "A", "easy", 3500), finish(2024, "B", "hard", 3500),
    ]
    ratings = rate_people(history)
    assert ratings["hard"] > ratings["easy"]


def test_recent_editions_weigh_more():
    """A person who improved rates above one who declined by as much over the same editions."""
    history = [
        finish(2019, "final", "improved", 4000), finish(2024, "final", "improved", 3000),
        finish(2019, "final", "declined", 3000), finish(2024, "final", "declined", 4000),
    ]
    ratings = rate_people(history)
    assert ratings["improved"] > ratings["declined"]


def test_shrinkage_keeps_one_good_result_below_many_equally_good_ones():
    history = [finish(2024, "A", "once", 3000), finish(2024, "A", "field", 4000)]
    history += [finish(2024, r, "often", 3000) for r in ("B", "C")]
    history += [finish(2024, r, "field2", 4000) for r in ("B", "C")]
    ratings = rate_people(history, method=RatingMethod(shrinkage=1.0))
    assert ratings["often"] > ratings["once"]


def test_pair_members_share_the_pair_result_and_a_pair_rates_as_its_members_mean():
    history = [
        PastResult(2024, "A", ("a", "b"), True, 3000, None, 1000, 7200),
        PastResult(2024, "A", ("c", "d"), True, 4000, None, 1000, 7200),
    ]
    ratings = rate_people(history)
    assert ratings["a"] == ratings["b"] > ratings["c"] == ratings["d"]
    seeds = seed_entries([SeedingEntry("new", ("a", "c"))], ratings)
    assert math.isclose(seeds[0].rating or 0, (ratings["a"] + ratings["c"]) / 2)


def test_entries_without_history_follow_every_rated_entry_unranked_in_given_order():
    ratings = {"p1": 10.0, "p2": 20.0}
    seeds = seed_entries(
        [SeedingEntry("new1", ("x",)), SeedingEntry("e1", ("p1",)),
         SeedingEntry("new2", ()), SeedingEntry("e2", ("p2",))],
        ratings,
    )
    assert [(s.entry, s.seed_rank) for s in seeds] == [
        ("e2", 1), ("e1", 2), ("new1", None), ("new2", None)
    ]


def test_a_typed_seed_rank_places_entries_without_history_after_the_rated_ones():
    seeds = seed_entries(
        [SeedingEntry("typed", ("x",)), SeedingEntry("rated", ("p",)),
         SeedingEntry("none", ("y",))],
        {"p": 1.0},
    )
    assert seed_ranks(seeds, {"typed": 1, "rated": 7}) == {"rated": 1, "typed": 2, "none": None}


def test_no_history_gives_no_ratings():
    assert rate_people([]) == {}


results = st.lists(
    st.builds(
        finish,
        st.integers(2019, 2025),
        st.sampled_from(["A", "B", "final"]),
        st.sampled_from(["p1", "p2", "p3", "p4", "p5"]),
        st.floats(600, 7200),
    ),
    min_size=1,
    max_size=40,
)


@given(results)
def test_every_person_with_a_result_gets_a_finite_rating_and_a_seed_rank(history):
    ratings = rate_people(history)
    people = {p for r in history for p in r.people}
    assert set(ratings) == people
    assert all(math.isfinite(v) for v in ratings.values())
    seeds = seed_entries([SeedingEntry(p, (p,)) for p in sorted(people)], ratings)
    assert [s.seed_rank for s in seeds] == list(range(1, len(people) + 1))
    ratings_in_order = [s.rating for s in seeds]
    assert ratings_in_order == sorted(ratings_in_order, reverse=True)


@given(results)
def test_the_rating_does_not_depend_on_the_order_of_the_history(history):
    forward, backward = rate_people(history), rate_people(history[::-1])
    assert all(math.isclose(forward[p], backward[p], abs_tol=1e-3) for p in forward)
