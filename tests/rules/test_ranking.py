"""Ranking a round: standard competition ranking, unranked results, official ranking."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from puzzlecomp.rules.people import Person
from puzzlecomp.rules.ranking import competition_ranks, rank_round
from puzzlecomp.rules.results import Entry, Result, Status
from tests.conftest import results, round_of

WJPC_FIRST = round_of("wjpc-2025", "individual", "first")


def finished(time: int) -> Result:
    return Result(Status.FINISHED, time=time)


def unfinished(pieces: int) -> Result:
    return Result(Status.UNFINISHED, pieces=pieces)


def ranks(ranking) -> dict[str, int | None]:
    return {line.entry.id: line.rank for line in ranking}


def test_equal_times_share_a_place_and_the_next_place_is_skipped():
    """shared/data/README.md: standard competition ranking (1, 2, 2, 4)."""
    ranking = rank_round(
        results(("a", finished(100)), ("b", finished(200)), ("c", finished(200)),
                ("d", finished(300))),
        WJPC_FIRST,
    )
    assert ranks(ranking) == {"a": 1, "b": 2, "c": 2, "d": 4}


def test_finishers_come_first_then_unfinished_by_pieces_then_dnf_sharing_last_place():
    """wjpc-2025.txt, Unfinished Puzzles: pieces placed decide for those who did not finish."""
    ranking = rank_round(
        results(("u1", unfinished(400)), ("f", finished(5000)), ("u2", unfinished(450)),
                ("x1", Result(Status.DNF)), ("x2", Result(Status.DNF)),
                ("u3", unfinished(400))),
        WJPC_FIRST,
    )
    assert [line.entry.id for line in ranking] == ["f", "u2", "u1", "u3", "x1", "x2"]
    assert ranks(ranking) == {"f": 1, "u2": 2, "u1": 3, "u3": 3, "x1": 5, "x2": 5}


def test_disqualified_and_non_starters_get_no_rank_and_come_last():
    """wjpc-2025.txt, Accessories allowed: outside assistance may result in disqualification."""
    ranking = rank_round(
        results(("n", Result(Status.DNS)), ("q", Result(Status.DSQ)), ("f", finished(10))),
        WJPC_FIRST,
    )
    assert [(line.entry.id, line.rank) for line in ranking] == [
        ("f", 1), ("q", None), ("n", None)
    ]


def test_each_group_is_ranked_on_its_own_in_order_of_appearance():
    pairs = [
        (Entry("b1", group="B"), finished(300)),
        (Entry("a1", group="A"), finished(200)),
        (Entry("b2", group="B"), finished(100)),
    ]
    ranking = rank_round(pairs, WJPC_FIRST)
    assert [(line.entry.id, line.rank) for line in ranking] == [
        ("b2", 1), ("b1", 2), ("a1", 1)
    ]


def test_czech_official_ranking_counts_only_czech_residents():
    """czech-championship.txt: only a registered address in the Czech Republic competes for the
    title; foreigners compete outside the official ranking."""
    rules = round_of("czech-championship", "individual", "qualification")
    pairs = [
        (Entry("cz1", members=(Person(residence="CZE"),)), finished(100)),
        (Entry("sk", members=(Person(residence="SVK", nationality="CZE"),)), finished(150)),
        (Entry("cz2", members=(Person(residence="CZE"),)), finished(200)),
    ]
    official = {line.entry.id: line.official_rank for line in rank_round(pairs, rules)}
    assert official == {"cz1": 1, "sk": None, "cz2": 2}


def test_norway_official_ranking_takes_citizens_and_five_year_residents():
    """norway-nm-2025.txt: Norwegian citizenship or 5 years' residence for the title."""
    rules = round_of("norway-nm-2025", "individual", time_limit_minutes=90, pieces=500)
    pairs = [
        (Entry("swe4", members=(Person(nationality="SWE", years_resident=4),)), finished(90)),
        (Entry("nor", members=(Person(nationality="NOR"),)), finished(100)),
        (Entry("swe5", members=(Person(nationality="SWE", years_resident=5),)), finished(100)),
    ]
    official = {line.entry.id: line.official_rank for line in rank_round(pairs, rules)}
    assert official == {"swe4": None, "nor": 1, "swe5": 1}


def test_wjpc_has_no_official_ranking():
    ranking = rank_round(results(("a", finished(1))), WJPC_FIRST)
    assert ranking[0].official_rank is None


outcomes = st.one_of(
    st.integers(1, 5400).map(finished),
    st.integers(0, 500).map(unfinished),
    st.sampled_from([Result(Status.DNF), Result(Status.DSQ), Result(Status.DNS)]),
)


@given(st.lists(outcomes, max_size=60))
def test_ranking_is_ordered_shares_places_exactly_for_equal_scores_and_skips(outcome_list):
    """Invariants of standard competition ranking over any round."""
    ranking = rank_round(results(*((f"e{i}", r) for i, r in enumerate(outcome_list))),
                         WJPC_FIRST)
    ranked = [line for line in ranking if line.rank is not None]
    assert len(ranking) == len(outcome_list)
    assert all(line.rank is None for line in ranking[len(ranked):])
    for position, line in enumerate(ranked):
        earlier = [other for other in ranked if other.score.sort_key < line.score.sort_key]
        assert line.rank == 1 + len(earlier)
        if position:
            before = ranked[position - 1]
            assert before.score.sort_key <= line.score.sort_key
            assert (before.rank == line.rank) == (before.score.sort_key == line.score.sort_key)
    assert {line.score.status for line in ranking[len(ranked):]} <= {Status.DSQ, Status.DNS}


@given(st.lists(st.integers(0, 5), max_size=30).map(sorted))
def test_competition_ranks_count_the_strictly_better(keys):
    assert competition_ranks(keys) == [1 + sum(k < key for k in keys) for key in keys]

