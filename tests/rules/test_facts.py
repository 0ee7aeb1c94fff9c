"""Entries of a results file checked against the ruleset: team sizes and declared facts."""

from __future__ import annotations

import pytest

from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.facts import check_members_count, declared_facts
from puzzlecomp.rules.loading import load_ruleset
from puzzlecomp.rules.people import Person
from puzzlecomp.rules.results import Entry

PAIRS = load_ruleset("wjpc-2025").event("pairs")
STATE = load_ruleset("australia-state")


def test_an_entry_listing_more_members_than_the_event_takes_is_refused():
    """wjpc-2025.txt, Pairs: a pair is two people; a results row listing three is refused, one
    value per column lists nobody and is not counted."""
    with pytest.raises(RulesError) as caught:
        check_members_count(Entry("P1", members=(Person(), Person(), Person())), PAIRS, "wjpc")
    assert [(v.code, v.entry, v.field) for v in caught.value.violations] == [
        ("entry.members_count", "P1", "members")]
    check_members_count(Entry("P2", members=(Person(),)), PAIRS, "wjpc")


def test_a_region_is_taken_in_any_case_and_spelled_as_the_ruleset_declares():
    """australia-state.toml, facts.region: "nt" is the Northern Territory, "Sydney" no region."""
    entry = declared_facts(STATE, Entry("e", members=(Person(region="nt"),)))
    assert entry.members[0].region == "NT"
    with pytest.raises(RulesError) as caught:
        declared_facts(STATE, Entry("f", members=(Person(region="Sydney"),)))
    assert [(v.code, v.field) for v in caught.value.violations] == [
        ("person.value_unknown", "region")]
