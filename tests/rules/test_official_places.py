"""The official ranking across rounds: the standings of the entrants the ruleset's official
ranking admits, placed among themselves (rules.standings.official_places)."""

from __future__ import annotations

from puzzlecomp.rules.loading import load_ruleset
from puzzlecomp.rules.people import Person as EnginePerson
from puzzlecomp.rules.ranking import rank_round
from puzzlecomp.rules.results import Entry as EngineEntry
from puzzlecomp.rules.results import Result, Status
from puzzlecomp.rules.rounds import resolve_round
from puzzlecomp.rules.standings import event_standings, official_places


def test_the_engine_places_the_official_ranking_among_its_own_entrants():
    """norway-nm-2025.txt: "To be eligible for the title Norwegian Champion the contestant
    must be a Norwegian citizen or have lived in Norway for 5 years."""
    ruleset = load_ruleset("norway-nm-2025")
    spec = ruleset.event("individual")
    rules = resolve_round(ruleset, "individual", "final", time_limit_minutes=120, pieces=1000)
    people = {"de": EnginePerson(nationality="GER", residence="GER"),
              "se10": EnginePerson(nationality="SWE", residence="NOR", years_resident=10),
              "se2": EnginePerson(nationality="SWE", residence="NOR", years_resident=2),
              "no": EnginePerson(nationality="NOR", residence="NOR")}
    results = [(EngineEntry(id=key, name=key, members=(person,)),
                Result(status=Status.FINISHED, time=1000 + 100 * n))
               for n, (key, person) in enumerate(people.items())]
    standings = event_standings({"final": rank_round(results, rules)}, spec)
    assert official_places(standings, ruleset.official_ranking) == {
        "de": None, "se10": 1, "se2": None, "no": 2}
    assert official_places(standings, None) == {}


def test_czech_residents_alone_take_official_places_and_share_a_tie():
    """czech-championship.txt: "Only participants with a registered address in the Czech
    Republic ... may compete for the title"; foreigners compete outside the official ranking."""
    ruleset = load_ruleset("czech-championship")
    spec = ruleset.event("individual")
    rules = resolve_round(ruleset, "individual", "final")
    rows = [("sk", "SVK", 1000), ("cz1", "CZE", 1100), ("cz2", "CZE", 1100), ("cz3", "CZE", 1200)]
    results = [(EngineEntry(id=key, name=key,
                            members=(EnginePerson(nationality=c, residence=c),)),
                Result(status=Status.FINISHED, time=t)) for key, c, t in rows]
    standings = event_standings({"final": rank_round(results, rules)}, spec)
    assert official_places(standings, ruleset.official_ranking) == {
        "sk": None, "cz1": 1, "cz2": 1, "cz3": 3}
