"""Overall standings across rounds: finalists, then each earlier round's eliminated entrants."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.loading import load_ruleset
from puzzlecomp.rules.ranking import RankedEntry, rank_round
from puzzlecomp.rules.results import Entry, Result, Status
from puzzlecomp.rules.standings import StandingLine, event_standings
from tests.conftest import round_of

WJPC = load_ruleset("wjpc-2025")
WJPC_INDIVIDUAL = WJPC.event("individual")


def finished(minutes: int) -> Result:
    return Result(Status.FINISHED, time=minutes * 60)


def unfinished(pieces: int) -> Result:
    return Result(Status.UNFINISHED, pieces=pieces)


def ranked_rounds(
    ruleset_id: str,
    event_id: str,
    rounds: Mapping[str, Sequence[tuple[Entry, Result]]],
    **overrides: int,
) -> dict[str, list[RankedEntry]]:
    """Each round ranked under the bundled ruleset, as `puzzlecomp rank` would."""
    return {
        round_id: rank_round(results, round_of(ruleset_id, event_id, round_id, **overrides))
        for round_id, results in rounds.items()
    }


def wjpc_standings(rounds: Mapping[str, Sequence[tuple[Entry, Result]]]) -> list[StandingLine]:
    return event_standings(ranked_rounds("wjpc-2025", "individual", rounds), WJPC_INDIVIDUAL)


def in_group(group: str, *pairs: tuple[str, Result]) -> list[tuple[Entry, Result]]:
    return [(Entry(entry_id, group=group), result) for entry_id, result in pairs]


def places(standings: Sequence[StandingLine]) -> list[tuple[str, int | None]]:
    return [(line.entry.id, line.place) for line in standings]


def test_finalists_come_first_in_final_order_then_each_earlier_rounds_eliminated():
    """wjpc-2025.txt, Individual Category: first round, second round and final, in that order."""
    standings = wjpc_standings(
        {
            "first": in_group(
                "A", ("f1", finished(50)), ("s1", finished(55)), ("o1", finished(60))
            ),
            "second": in_group("S1", ("f1", finished(40)), ("s1", finished(30))),
            "final": in_group("", ("f1", finished(45))),
        }
    )

    assert places(standings) == [("f1", 1), ("s1", 2), ("o1", 3)]
    assert [line.round_id for line in standings] == ["final", "second", "first"]


def test_eliminated_entrants_of_parallel_groups_interleave_by_group_rank_then_time():
    """wjpc-2025.txt, Individual First Round: groups A-F are ranked apart, each on its own."""
    standings = wjpc_standings(
        {
            "first": in_group(
                "A", ("a-q", finished(40)), ("a2", finished(60)), ("a3", finished(61))
            )
            + in_group("B", ("b-q", finished(30)), ("b2", finished(50)), ("b3", finished(55))),
            "second": in_group("S1", ("a-q", finished(40)), ("b-q", finished(41))),
        }
    )

    # b3 ran faster than a2 but was third in its group: group rank decides before time.
    assert places(standings) == [("a-q", 1), ("b-q", 2), ("b2", 3), ("a2", 4), ("b3", 5), ("a3", 6)]


def test_equal_group_rank_and_equal_time_share_a_standing_place_and_the_next_is_skipped():
    """shared/data/README.md: standard competition ranking; equal results share a place."""
    standings = wjpc_standings(
        {
            "first": in_group("A", ("a1", finished(50)), ("a2", finished(65)))
            + in_group("B", ("b1", finished(51)), ("b2", finished(65)), ("b3", finished(66))),
        }
    )

    assert places(standings) == [("a1", 1), ("b1", 2), ("a2", 3), ("b2", 3), ("b3", 5)]


def test_unfinished_entrants_of_equal_group_rank_interleave_by_pieces_placed():
    """wjpc-2025.txt, Individual Final: with no finish, the most pieces placed correctly wins."""
    standings = wjpc_standings(
        {
            "first": in_group("A", ("a1", finished(50)), ("a2", unfinished(300)))
            + in_group("B", ("b1", finished(51)), ("b2", unfinished(420))),
        }
    )

    assert places(standings) == [("a1", 1), ("b1", 2), ("b2", 3), ("a2", 4)]


def test_disqualified_and_non_starters_follow_their_rounds_eliminated_and_take_no_place():
    """wjpc-2025.txt is silent: our default lists DSQ, then DNS, after that round's eliminated."""
    standings = wjpc_standings(
        {
            "first": in_group(
                "A",
                ("f1", finished(50)),
                ("f2", finished(51)),
                ("dns-final", finished(52)),
                ("out", finished(80)),
                ("dns-first", Result(Status.DNS)),
            ),
            "second": in_group(
                "S1",
                ("f1", finished(40)),
                ("f2", finished(41)),
                ("dns-final", finished(42)),
                ("dsq-second", Result(Status.DSQ)),
            ),
            "final": in_group(
                "", ("f1", finished(45)), ("dns-final", Result(Status.DNS)), ("f2", finished(60))
            ),
        }
    )

    assert places(standings) == [
        ("f1", 1),
        ("f2", 2),
        ("dns-final", None),
        ("dsq-second", None),
        ("out", 3),
        ("dns-first", None),
    ]


def test_a_championship_in_progress_puts_the_furthest_round_played_first():
    """wjpc-2025.txt, Second round: before the final, the second round's ranking leads."""
    standings = wjpc_standings(
        {
            "first": in_group("A", ("a", finished(50)), ("b", finished(51)), ("c", finished(70))),
            "second": in_group("S1", ("b", finished(40)), ("a", finished(41))),
        }
    )

    assert places(standings) == [("b", 1), ("a", 2), ("c", 3)]


def test_a_round_the_event_does_not_have_is_refused_with_a_code():
    """wjpc-2025.txt, Individual Category: the rounds are first round, second round and final."""
    rankings = ranked_rounds(
        "wjpc-2025", "individual", {"first": in_group("A", ("a", finished(5)))}
    )

    with pytest.raises(RulesError) as caught:
        event_standings({"semifinal": rankings["first"]}, WJPC_INDIVIDUAL)

    assert caught.value.code == "round.unknown"


RESULTS = st.one_of(
    st.integers(100, 104).map(lambda t: Result(Status.FINISHED, time=t)),
    st.integers(1, 4).map(lambda p: unfinished(p * 100)),
    st.sampled_from([Result(Status.DNF), Result(Status.DSQ), Result(Status.DNS)]),
)


@st.composite
def wjpc_championships(draw: st.DrawFn) -> dict[str, list[RankedEntry]]:
    """Random WJPC individual rounds: everyone plays the first, some go further, ties are likely."""
    count = draw(st.integers(1, 24))
    reached = draw(st.lists(st.integers(0, 2), min_size=count, max_size=count))
    rounds: dict[str, list[tuple[Entry, Result]]] = {}
    for index, rnd in enumerate(WJPC_INDIVIDUAL.rounds):
        rounds[rnd.id] = [
            (Entry(f"e{i}", group=draw(st.sampled_from(rnd.groups or ("",)))), draw(RESULTS))
            for i in range(count)
            if reached[i] >= index
        ]
    return ranked_rounds("wjpc-2025", "individual", {k: v for k, v in rounds.items() if v})


@given(wjpc_championships())
def test_standings_are_a_permutation_of_everyone_who_competed(rankings):
    """wjpc-2025.txt, Individual Category: every entrant of any round has one line."""
    standings = event_standings(rankings, WJPC_INDIVIDUAL)

    everyone = {line.entry.id for lines in rankings.values() for line in lines}
    assert sorted(line.entry.id for line in standings) == sorted(everyone)


@given(wjpc_championships())
def test_nobody_comes_before_an_entrant_who_reached_a_later_round(rankings):
    """wjpc-2025.txt, Individual Final: finalists are ranked above anyone eliminated earlier."""
    standings = event_standings(rankings, WJPC_INDIVIDUAL)

    order = [r.id for r in WJPC_INDIVIDUAL.rounds]
    reached = [order.index(line.round_id) for line in standings]
    assert reached == sorted(reached, reverse=True)


@given(wjpc_championships())
def test_places_follow_standard_competition_ranking(rankings):
    """shared/data/README.md: rank = 1 + the number of entries strictly better."""
    standings = event_standings(rankings, WJPC_INDIVIDUAL)

    placed = [line for line in standings if line.place is not None]
    assert all(line.round_rank is None for line in standings if line.place is None)
    for position, line in enumerate(placed):
        previous = placed[position - 1] if position else None
        same = previous is not None and (
            previous.round_id,
            previous.round_rank,
            previous.ranked.score.sort_key,
        ) == (line.round_id, line.round_rank, line.ranked.score.sort_key)
        assert line.place == (previous.place if same and previous else position + 1)
        assert line.overall_place == line.place
