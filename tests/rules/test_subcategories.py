"""Subcategories: who belongs to Debutant, Junior 18, Senior A and B, and their own standings."""

from __future__ import annotations

import pytest

from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.people import Person
from puzzlecomp.rules.results import Entry
from puzzlecomp.rules.standings import event_standings
from puzzlecomp.rules.subcategories import (
    category_standings,
    subcategory_admits,
    subcategory_standings,
)
from tests.rules.test_standings import (
    WJPC,
    WJPC_INDIVIDUAL,
    finished,
    ranked_rounds,
    wjpc_standings,
)

WJPC_PAIRS = WJPC.event("pairs")


def subcategory(event_id: str, subcategory_id: str):
    return next(s for s in WJPC.event(event_id).subcategories if s.id == subcategory_id)


def person_entry(entry_id: str, *people: Person, group: str = "A") -> Entry:
    return Entry(entry_id, group=group, members=people)


@pytest.mark.parametrize(
    ("subcategory_id", "birth_year", "member"),
    [
        ("junior-18", 2007, True),
        ("junior-18", 2006, False),
        ("senior-a", 1979, True),
        ("senior-a", 1965, True),
        ("senior-a", 1980, False),
        ("senior-a", 1964, False),
        ("senior-b", 1964, True),
        ("senior-b", 1965, False),
    ],
)
def test_wjpc_age_subcategories_go_by_birth_year_with_both_ends_included(
    subcategory_id, birth_year, member
):
    """wjpc-2025.txt, Subcategories: Junior18 born 2007 or later; Senior A 1965 to 1979;
    Senior B 1964 or before."""
    entry = person_entry("e", Person(birth_year=birth_year))

    assert subcategory_admits(subcategory("individual", subcategory_id), entry) is member


def test_an_entrant_with_no_birth_year_belongs_to_no_age_subcategory():
    """wjpc-2025.txt, Subcategories: age categories need a birth year; unknown is not a member."""
    entry = person_entry("e", Person())

    assert not any(
        subcategory_admits(s, entry) for s in WJPC_INDIVIDUAL.subcategories if s.id != "debutant"
    )


def test_individual_debutant_is_whoever_has_not_competed_in_a_previous_edition():
    """wjpc-2025.txt, Individual Debutant: players who have not previously participated."""
    debutant = subcategory("individual", "debutant")

    assert subcategory_admits(debutant, person_entry("new", Person(debutant=True)))
    assert not subcategory_admits(debutant, person_entry("old", Person(debutant=False)))


def test_a_pair_is_debutant_only_when_both_members_are():
    """wjpc-2025.txt, Pairs Debutant: pairs of players who have not previously participated."""
    debutant = subcategory("pairs", "debutant")

    both = person_entry("both", Person(debutant=True), Person(debutant=True))
    one = person_entry("one", Person(debutant=True), Person(debutant=False))
    assert subcategory_admits(debutant, both)
    assert not subcategory_admits(debutant, one)


def test_subcategory_standings_keep_overall_order_and_renumber_with_shared_places():
    """wjpc-2025.txt, Subcategories: Trophy for 3 top classified; places among the category."""
    new = Person(debutant=True)
    standings = wjpc_standings(
        {
            "first": [
                (person_entry("old", Person(debutant=False)), finished(40)),
                (person_entry("new-a", new), finished(45)),
                (person_entry("new-b", new, group="B"), finished(45)),
                (person_entry("old-2", Person(debutant=False), group="B"), finished(44)),
                (person_entry("new-c", new), finished(50)),
            ]
        }
    )

    debutants = subcategory_standings(standings, subcategory("individual", "debutant"))

    assert [(line.entry.id, line.place, line.overall_place) for line in debutants] == [
        ("new-a", 1, 3),
        ("new-b", 1, 3),
        ("new-c", 3, 5),
    ]


def test_subcategory_standings_include_entrants_eliminated_in_earlier_rounds():
    """wjpc-2025.txt, Subcategories (*): subcategory entrants may be eliminated before the final;
    our default ranks them by the overall standings (a tiebreaker held on site is not modelled)."""
    junior = Person(birth_year=2009)
    rankings = ranked_rounds(
        "wjpc-2025",
        "individual",
        {
            "first": [
                (person_entry("finalist", junior), finished(40)),
                (person_entry("out", junior), finished(70)),
            ],
            "second": [(person_entry("finalist", junior, group="S1"), finished(40))],
            "final": [(person_entry("finalist", junior, group=""), finished(40))],
        },
    )
    standings = event_standings(rankings, WJPC_INDIVIDUAL)

    juniors = category_standings(standings, WJPC_INDIVIDUAL, "junior-18")

    assert [(line.entry.id, line.place, line.round_id) for line in juniors] == [
        ("finalist", 1, "final"),
        ("out", 2, "first"),
    ]


def test_overall_is_a_category_of_every_event_and_unknown_categories_are_refused():
    """wjpc-2025.txt, Prizes: the categories are the overall ranking and the subcategories."""
    standings = wjpc_standings({"first": [(person_entry("a", Person()), finished(40))]})

    assert category_standings(standings, WJPC_INDIVIDUAL, "overall") == standings
    with pytest.raises(RulesError) as caught:
        category_standings(standings, WJPC_PAIRS, "junior-18")
    assert caught.value.code == "category.unknown"
