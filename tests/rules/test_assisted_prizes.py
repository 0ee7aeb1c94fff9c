"""Australia: may an entrant helped on request take a state trophy? (issue 23, item 11;
rules/awards.py takes_prizes, docs/rulesets.md "Assistance")."""

from __future__ import annotations

import pytest

from puzzlecomp.rules.awards import event_awards
from puzzlecomp.rules.loading import load_ruleset
from puzzlecomp.rules.people import Person
from puzzlecomp.rules.ranking import rank_round
from puzzlecomp.rules.results import Entry, Result, Status
from puzzlecomp.rules.rounds import resolve_round
from puzzlecomp.rules.ruleset import Ruleset
from puzzlecomp.rules.standings import event_standings

NSW = Person(residence="AUS", region="NSW")
VIC = Person(residence="AUS", region="VIC")
FIELD = [
    (Entry("fast", members=(NSW,)), Result(Status.FINISHED, time=3000)),
    (Entry("visitor", members=(VIC,)), Result(Status.FINISHED, time=3100)),
    (Entry("counted", members=(NSW,)), Result(Status.UNFINISHED, pieces=420)),
    (Entry("helped", members=(NSW,)), Result(Status.ASSISTED)),
    (Entry("outside", members=(NSW,)), Result(Status.OUTSIDE_HELP)),
]


def trophies(ruleset: Ruleset) -> list[tuple[int, str]]:
    rules = resolve_round(ruleset, "individual", time_limit_minutes=90, pieces=500)
    standings = event_standings({"final": rank_round(FIELD, rules)}, rules.event)
    awards = event_awards(standings, rules.event, ruleset, settings={"host_region": "NSW"})
    return [(a.place, a.entry.id) for a in awards]


@pytest.mark.parametrize("ruleset_id", ["australia-state", "australia-national"])
def test_by_default_an_assisted_entrant_takes_no_trophy_left_to_it(ruleset_id):
    """australia-state-national.txt: "No time will be recorded for any competitor who receives
    outside assistance in completing their puzzle". Our default reading: no recorded time, no
    trophy; the entrant keeps its place in the standings (after every unaided entrant)."""
    ruleset = load_ruleset(ruleset_id)
    assert ruleset.assisted_take_prizes is False
    if ruleset_id == "australia-state":
        assert trophies(ruleset) == [(1, "fast"), (2, "counted")]


def test_a_ruleset_may_let_an_assisted_entrant_take_the_trophy_left_to_it():
    """The other reading of the same words: help on request only stops the time being recorded,
    and an assisted entrant ranked after every unaided one may take a trophy nobody else
    claims (`assisted_take_prizes = true`). Outside help never takes one: it has no place."""
    state = load_ruleset("australia-state")
    other = Ruleset.model_validate({**state.model_dump(by_alias=True),
                                    "assisted_take_prizes": True})
    assert trophies(other) == [(1, "fast"), (2, "counted"), (3, "helped")]


def test_assisted_take_prizes_needs_the_assistance_statuses():
    wjpc = load_ruleset("wjpc-2025").model_dump(by_alias=True)
    with pytest.raises(ValueError, match="assisted_take_prizes needs assistance"):
        Ruleset.model_validate({**wjpc, "assisted_take_prizes": True})
