"""Prizes by the rulesets' award rules: places, money, items, and who is eligible for them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from puzzlecomp.rules.awards import AwardLine, award_admits, event_awards
from puzzlecomp.rules.conditions import Value
from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.loading import load_ruleset, ruleset_ids
from puzzlecomp.rules.people import Person
from puzzlecomp.rules.results import Entry, Result, Status
from puzzlecomp.rules.ruleset import AwardRule
from puzzlecomp.rules.standings import event_standings
from tests.rules.test_standings import ranked_rounds

# Rulesets that name no time limit or puzzle size: the organiser's, as with --time-limit/--pieces.
OVERRIDES = {"australia-state": {"time_limit_minutes": 60, "pieces": 500}}
OVERRIDES["australia-national"] = OVERRIDES["norway-nm-2025"] = OVERRIDES["australia-state"]
MEMBERS = {"individual": 1, "pairs": 2, "teams": 4, "relay": 4}


def awards_of(
    ruleset_id: str,
    event_id: str,
    field: Sequence[tuple[Entry, Result]],
    *,
    settings: Mapping[str, Value] | None = None,
) -> list[AwardLine]:
    """The awards of an event decided by its last round alone."""
    ruleset = load_ruleset(ruleset_id)
    event = ruleset.event(event_id)
    final = event.rounds[-1].id
    overrides = OVERRIDES.get(ruleset_id, {})
    rankings = ranked_rounds(ruleset_id, event_id, {final: field}, **overrides)
    return event_awards(event_standings(rankings, event), event, ruleset, settings=settings)


def field_of(event_id: str, *people: Person, size: int = 0) -> list[tuple[Entry, Result]]:
    """Entries e1, e2, ... finishing in that order; each person stands for every member."""
    people = people or (Person(),) * size
    members = MEMBERS[event_id]
    return [
        (Entry(f"e{i}", members=(person,) * members), Result(Status.FINISHED, time=1000 + i))
        for i, person in enumerate(people, start=1)
    ]


def prizes(awards: Sequence[AwardLine], category: str = "overall") -> list[tuple]:
    return [
        (a.place, a.entry.id, a.trophy, a.money, a.items) for a in awards if a.category == category
    ]


def winners(awards: Sequence[AwardLine]) -> list[tuple[int, str, int | None]]:
    return [(a.place, a.entry.id, a.overall_place) for a in awards]


WJPC_EVENTS = ["individual", "pairs", "teams"]


@pytest.mark.parametrize("event_id", WJPC_EVENTS)
def test_wjpc_places_1_to_3_take_a_trophy_and_2000_1500_1000_eur(event_id):
    """wjpc-2025.txt, Prizes: "First classified ... Trophy + €2.000, 2nd ... Trophy + €1.500
    and 3rd ... Trophy + €1.000"."""
    awards = awards_of("wjpc-2025", event_id, field_of(event_id, size=12))

    assert prizes(awards)[:3] == [
        (1, "e1", True, 2000, ""),
        (2, "e2", True, 1500, ""),
        (3, "e3", True, 1000, ""),
    ]


@pytest.mark.parametrize("event_id", WJPC_EVENTS)
def test_wjpc_places_4_to_10_take_a_trophy_and_puzzles(event_id):
    """wjpc-2025.txt, Prizes: "From 4th to 10th place trophies and puzzles"."""
    awards = awards_of("wjpc-2025", event_id, field_of(event_id, size=12))

    assert prizes(awards)[3:] == [(p, f"e{p}", True, None, "puzzles") for p in range(4, 11)]


def test_wjpc_individual_debutants_take_a_trophy_and_500_300_200_eur():
    """wjpc-2025.txt, Prizes: "Individual Debutant: First classified Trophy + €500, 2nd place
    Trophy + €300 and 3rd place Trophy + €200"."""
    old, new = Person(debutant=False), Person(debutant=True)
    awards = awards_of(
        "wjpc-2025", "individual", field_of("individual", old, new, new, old, new, new)
    )

    assert prizes(awards, "debutant") == [
        (1, "e2", True, 500, ""),
        (2, "e3", True, 300, ""),
        (3, "e5", True, 200, ""),
    ]
    assert [a.overall_place for a in awards if a.category == "debutant"] == [2, 3, 5]


@pytest.mark.parametrize(
    ("category", "inside", "outside"),
    [("junior-18", 2007, 2006), ("senior-a", 1965, 1980), ("senior-b", 1964, 1965)],
)
def test_wjpc_junior_and_senior_top_three_take_a_trophy_and_puzzles(category, inside, outside):
    """wjpc-2025.txt, Prizes: Junior18, Senior A and Senior B: "Trophy and puzzles for 3 top
    classified"."""
    people = [Person(birth_year=y) for y in (outside, inside, inside, outside, inside, inside)]
    awards = awards_of("wjpc-2025", "individual", field_of("individual", *people))

    assert prizes(awards, category) == [
        (1, "e2", True, None, "puzzles"),
        (2, "e3", True, None, "puzzles"),
        (3, "e5", True, None, "puzzles"),
    ]


def test_wjpc_pairs_debutant_top_three_pairs_take_a_trophy_and_puzzles():
    """wjpc-2025.txt, Prizes: "Pairs Debutant: Trophy and puzzles for 3 top pairs classified"."""
    new, old = Person(debutant=True), Person(debutant=False)
    pairs = [
        (Entry("mixed", members=(new, old)), Result(Status.FINISHED, time=900)),
        *field_of("pairs", new, new, old, new, new),
    ]
    awards = awards_of("wjpc-2025", "pairs", pairs)

    assert winners(a for a in awards if a.category == "debutant") == [
        (1, "e1", 2),
        (2, "e2", 3),
        (3, "e4", 5),
    ]
    assert {a.items for a in awards if a.category == "debutant"} == {"puzzles"}


@pytest.mark.parametrize("event_id", WJPC_EVENTS)
def test_czech_places_1_to_3_go_to_czech_residents_and_foreigners_keep_their_place(event_id):
    """czech-championship.txt: "1st-3rd place in each category receive prizes - a puzzle, a
    trophy, a small gift - valid only for participants from the Czech Republic"."""
    cze, svk = Person(residence="CZE"), Person(residence="SVK")
    awards = awards_of("czech-championship", event_id, field_of(event_id, svk, cze, svk, cze, cze))

    assert winners(awards) == [(1, "e2", 2), (2, "e4", 4), (3, "e5", 5)]
    assert {(a.trophy, a.items) for a in awards} == {(True, "a puzzle and a small gift")}


def test_a_czech_pair_with_a_foreign_member_takes_no_prize():
    """czech-championship.txt: prizes "valid only for participants from the Czech Republic";
    the ruleset's default for mixed pairs is that every member must be a Czech resident."""
    cze, svk = Person(residence="CZE"), Person(residence="SVK")
    pairs = [(Entry("mixed", members=(cze, svk)), Result(Status.FINISHED, time=900))]
    pairs += field_of("pairs", cze)

    assert winners(awards_of("czech-championship", "pairs", pairs)) == [(1, "e1", 2)]


@pytest.mark.parametrize("event_id", ["individual", "relay"])
def test_czech_blind_and_relay_top_5_are_awarded_and_ties_at_5th_all_are(event_id):
    """czech-blind-and-relay.txt, 2.4 and 3.6: "The top 5 competitors (teams) will be awarded";
    "If two or more ... have the same counted piece total, the relevant places are shared"."""
    field = field_of(event_id, size=5)
    field.append((Entry("tied", members=field[-1][0].members), field[-1][1]))
    field += field_of(event_id, size=7)[6:]

    awards = awards_of("czech-blind-relay", event_id, field)

    assert winners(awards) == [
        (1, "e1", 1),
        (2, "e2", 2),
        (3, "e3", 3),
        (4, "e4", 4),
        (5, "e5", 5),
        (5, "tied", 5),
    ]
    assert {(a.trophy, a.items) for a in awards} == {(True, "award")}


AUSTRALIAN_EVENTS = ["individual", "pairs", "teams"]


@pytest.mark.parametrize("event_id", AUSTRALIAN_EVENTS)
def test_australian_state_trophies_go_to_residents_of_the_host_state(event_id):
    """australia-state-national.txt, Eligibility: "Competitors must reside in the State of the
    Competition to be eligible to receive the 1st, 2nd or 3rd trophies"."""
    vic, nsw = Person(residence="AUS", region="VIC"), Person(residence="AUS", region="NSW")
    awards = awards_of(
        "australia-state",
        event_id,
        field_of(event_id, vic, nsw, vic, nsw, nsw, nsw),
        settings={"host_region": "NSW"},
    )

    assert winners(awards) == [(1, "e2", 2), (2, "e4", 4), (3, "e5", 5)]
    assert {a.trophy for a in awards} == {True}


def test_territory_residents_take_a_trophy_only_at_their_first_state_competition_of_the_year():
    """australia-state-national.txt, Eligibility: "If the participant resides in the NT ... the
    participant may take a trophy at the first State Competition they compete in for the
    calendar year"."""
    first = Person(residence="AUS", region="NT", first_state_competition_of_year=True)
    again = Person(residence="AUS", region="NT", first_state_competition_of_year=False)
    awards = awards_of(
        "australia-state",
        "individual",
        field_of("individual", again, first, again, first),
        settings={"host_region": "QLD"},
    )

    assert winners(awards) == [(1, "e2", 2), (2, "e4", 4)]


@pytest.mark.parametrize(("act", "winner"), [("held", "e2"), ("not_held", "e1")])
def test_the_act_counts_as_a_territory_without_a_state_competition_only_when_set_so(act, winner):
    """australia-state-national.txt, Eligibility: "the NT or another Australian Territory where
    no state competitions are held"; whether the ACT holds one is the setting
    act_state_competition (docs/rulesets.md: default held)."""
    canberra = Person(residence="AUS", region="ACT", first_state_competition_of_year=True)
    host = Person(residence="AUS", region="QLD")
    awards = awards_of("australia-state", "individual", field_of("individual", canberra, host),
                       settings={"host_region": "QLD", "act_state_competition": act})
    assert winners(awards)[0][1] == winner


@pytest.mark.parametrize("event_id", AUSTRALIAN_EVENTS)
def test_internationals_take_no_trophy_at_the_australian_nationals(event_id):
    """australia-state-national.txt, Eligibility: "International competitors are welcome to
    enter the National Competition, however they are ineligible to receive the 1st, 2nd or 3rd
    trophies"."""
    aus, nzl = Person(residence="AUS", region="WA"), Person(residence="NZL")
    awards = awards_of("australia-national", event_id, field_of(event_id, nzl, aus, aus, nzl, aus))

    assert winners(awards) == [(1, "e2", 2), (2, "e3", 3), (3, "e5", 5)]


@pytest.mark.parametrize("event_id", AUSTRALIAN_EVENTS)
def test_norwegian_title_goes_to_the_best_citizen_or_five_year_resident(event_id):
    """norway-nm-2025.txt: "To be eligible for the title Norwegian Champion the contestant must be
    a Norwegian citizen or have lived in Norway for 5 years"."""
    swe_4 = Person(nationality="SWE", years_resident=4)
    swe_5 = Person(nationality="SWE", years_resident=5)
    awards = awards_of(
        "norway-nm-2025", event_id, field_of(event_id, swe_4, swe_5, Person(nationality="NOR"))
    )

    assert prizes(awards) == [(1, "e2", False, None, "title of Norwegian Champion")]
    assert awards[0].overall_place == 2


def test_entrants_sharing_a_place_each_take_its_prize_and_the_next_prize_place_is_skipped():
    """wjpc-2025.txt, Prizes is silent on ties: our default gives each tied entrant the prize of
    the shared place, as competition ranking (1, 1, 3) does."""
    field = field_of("individual", size=4)
    field[1] = (field[1][0], field[0][1])

    awards = awards_of("wjpc-2025", "individual", field)

    assert [(a.place, a.entry.id, a.money) for a in awards][:3] == [
        (1, "e1", 2000),
        (1, "e2", 2000),
        (3, "e3", 1000),
    ]


def test_disqualified_and_non_starters_take_no_prize():
    """czech-blind-and-relay.txt, 2.4: "The top 5 competitors will be awarded"; DSQ and DNS have
    no place, so they take none."""
    field = field_of("individual", size=3)
    field += [(Entry("dsq"), Result(Status.DSQ)), (Entry("dns"), Result(Status.DNS))]

    awards = awards_of("czech-blind-relay", "individual", field)

    assert [a.entry.id for a in awards] == ["e1", "e2", "e3"]


def test_an_award_for_the_official_ranking_needs_a_ruleset_with_one():
    """wjpc-2025.txt names no official ranking, so an official_only award cannot be decided."""
    ruleset = load_ruleset("wjpc-2025")
    rule = AwardRule(from_place=1, to_place=1, official_only=True)

    with pytest.raises(RulesError) as caught:
        award_admits(rule, Entry("a"), ruleset)

    assert caught.value.code == "award.no_official_ranking"


TESTED_AWARD_RULES = (
    {("wjpc-2025", event_id, "overall", first) for event_id in WJPC_EVENTS for first in (1, 4)}
    | {
        ("wjpc-2025", "individual", "debutant", 1),
        ("wjpc-2025", "individual", "junior-18", 1),
        ("wjpc-2025", "individual", "senior-a", 1),
        ("wjpc-2025", "individual", "senior-b", 1),
        ("wjpc-2025", "pairs", "debutant", 1),
        ("czech-blind-relay", "individual", "overall", 1),
        ("czech-blind-relay", "relay", "overall", 1),
    }
    | {
        (ruleset_id, event_id, "overall", 1)
        for ruleset_id in (
            "czech-championship",
            "australia-state",
            "australia-national",
            "norway-nm-2025",
        )
        for event_id in ("individual", "pairs", "teams")
    }
)


def test_every_award_rule_of_every_bundled_ruleset_has_a_test_above():
    """Each award rule of each rulebook is pinned by a test of this module."""
    bundled = {
        (ruleset_id, event.id, rule.category, rule.from_place)
        for ruleset_id in ruleset_ids()
        for event in load_ruleset(ruleset_id).events
        for rule in event.awards
    }

    assert bundled == TESTED_AWARD_RULES


REGIONS = st.sampled_from(["NSW", "VIC", "NT", "QLD", None])
PEOPLE = st.builds(
    Person, region=REGIONS, first_state_competition_of_year=st.sampled_from([True, False, None])
)


@given(
    people=st.lists(PEOPLE, min_size=1, max_size=12),
    times=st.lists(st.integers(1000, 1003), min_size=12, max_size=12),
)
def test_the_podium_never_holds_an_ineligible_entrant_and_is_placed_among_the_eligible(
    people, times
):
    """australia-state-national.txt, Eligibility: only eligible residents take the 1st, 2nd or
    3rd trophies; the others keep their place in the results."""
    ruleset = load_ruleset("australia-state")
    event = ruleset.event("individual")
    settings = {"host_region": "NSW"}
    field = [
        (Entry(f"e{i}", members=(person,)), Result(Status.FINISHED, time=times[i]))
        for i, person in enumerate(people)
    ]
    rankings = ranked_rounds(
        "australia-state", "individual", {"final": field}, **OVERRIDES["australia-state"]
    )
    standings = event_standings(rankings, event)

    awards = event_awards(standings, event, ruleset, settings=settings)

    rule = event.awards[0]
    eligible = [s for s in standings if award_admits(rule, s.entry, ruleset, settings=settings)]
    assert all(award_admits(rule, a.entry, ruleset, settings=settings) for a in awards)
    for award in awards:
        better = [s for s in eligible if s.place is not None and s.place < award.overall_place]
        assert award.place == len(better) + 1 <= 3
    assert len(awards) >= min(3, len(eligible))
