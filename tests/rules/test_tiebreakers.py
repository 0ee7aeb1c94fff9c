"""wjpc-2025.txt, Subcategories (*): a tiebreaker for a subcategory short of finalists."""

from __future__ import annotations

import pytest

from puzzlecomp.rules.awards import event_awards
from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.loading import load_ruleset
from puzzlecomp.rules.people import Person
from puzzlecomp.rules.ranking import rank_round
from puzzlecomp.rules.results import Entry, Result, Status
from puzzlecomp.rules.standings import event_standings
from puzzlecomp.rules.tiebreakers import tiebreakers_needed
from tests.conftest import round_of

WJPC = load_ruleset("wjpc-2025")
EVENT = WJPC.event("individual")
TIEBREAKER = round_of("wjpc-2025", "individual", "tiebreaker")


def entrant(entry_id: str, group: str, *, junior: bool = False) -> Entry:
    return Entry(entry_id, group=group, members=(Person(birth_year=2009 if junior else 1980),))


def championship() -> list:
    """Ten adults and one junior in the final; juniors J1-J7 out in the second round (J1 the
    best), J8 out in the first."""
    final = [(entrant(f"F{n}", ""), Result(Status.FINISHED, time=2000 + n)) for n in range(10)]
    final.append((entrant("FJ", "", junior=True), Result(Status.FINISHED, time=2500)))
    second = [(entry, Result(Status.FINISHED, time=1000)) for entry, _ in final]
    second += [(entrant(f"J{n}", "S1", junior=True), Result(Status.FINISHED, time=3000 + n))
               for n in range(1, 8)]
    first = [(entrant(entry.id, "A", junior=entry.id.startswith(("J", "FJ"))),
              Result(Status.FINISHED, time=1000)) for entry, _ in second]
    first.append((entrant("J8", "A", junior=True), Result(Status.FINISHED, time=5000)))
    rankings = {
        "first": rank_round(first, round_of("wjpc-2025", "individual", "first")),
        "second": rank_round(second, round_of("wjpc-2025", "individual", "second")),
        "final": rank_round(final, round_of("wjpc-2025", "individual", "final")),
    }
    return event_standings(rankings, EVENT)


def test_a_subcategory_with_too_few_finalists_calls_its_best_5_eliminated_to_a_tiebreaker():
    """wjpc-2025.txt, Subcategories (*): "a tiebreaker will be held between the top 5
    finishers in the final round before they are eliminated"; Junior 18 has 3 prizes and one
    finalist, so two places are open."""
    calls = tiebreakers_needed(championship(), EVENT)
    assert [(c.category, c.open_places) for c in calls] == [("junior-18", 2)]
    assert [line.entry.id for line in calls[0].entrants] == ["J1", "J2", "J3", "J4", "J5"]


def test_the_tiebreakers_ranking_fills_the_places_after_the_finalists():
    """wjpc-2025.txt, Subcategories (*): the tiebreaker decides the places the final leaves."""
    tiebreak = rank_round([
        (entrant("J4", ""), Result(Status.FINISHED, time=900)),
        (entrant("J1", ""), Result(Status.FINISHED, time=950)),
        (entrant("J2", ""), Result(Status.UNFINISHED, pieces=250)),
    ], TIEBREAKER)
    awards = event_awards(championship(), EVENT, WJPC, tiebreakers={"junior-18": tiebreak})
    juniors = [(a.place, a.entry.id) for a in awards if a.category == "junior-18"]
    assert juniors == [(1, "FJ"), (2, "J4"), (3, "J1")]


def test_a_tiebreaker_for_a_full_subcategory_or_with_an_uncalled_entrant_is_refused():
    """Only the called entrants take part, and only where the final leaves places open."""
    stranger = rank_round([(entrant("J8", ""), Result(Status.FINISHED, time=900))], TIEBREAKER)
    with pytest.raises(RulesError) as caught:
        event_awards(championship(), EVENT, WJPC, tiebreakers={"junior-18": stranger})
    assert [(v.code, v.entry) for v in caught.value.violations] == [
        ("tiebreaker.not_called", "J8")]
    with pytest.raises(RulesError) as caught:
        event_awards(championship(), EVENT, WJPC, tiebreakers={"senior-a": stranger})
    assert caught.value.code == "tiebreaker.not_needed"
