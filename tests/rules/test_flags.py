"""The flag an entry competes under: its country, or WJPF for mixed pairs and teams."""

from __future__ import annotations

import pytest

from puzzlecomp.formats.results_csv import read_results
from puzzlecomp.rules.flags import entry_flag, is_mixed
from puzzlecomp.rules.loading import load_ruleset
from puzzlecomp.rules.people import Person
from puzzlecomp.rules.results import Entry

WJPC = load_ruleset("wjpc-2025")
INDIVIDUAL, PAIRS, TEAMS = (WJPC.event(e) for e in ("individual", "pairs", "teams"))


def of(*nationalities: str | None, country: str = "") -> Entry:
    return Entry("e1", country=country, members=tuple(Person(nationality=n) for n in nationalities))


def test_an_individual_competes_for_their_chosen_nationality():
    """wjpc-2025.txt, Countries and Nationalities: one chosen nationality per individual."""
    assert entry_flag(of("CZE"), INDIVIDUAL) == "CZE"


def test_a_pair_of_one_nationality_competes_for_that_country():
    """wjpc-2025.txt, Mixed pairs / teams: only different nationalities make a pair mixed."""
    assert entry_flag(of("ESP", "ESP"), PAIRS) == "ESP"


def test_a_pair_of_different_nationalities_competes_under_the_wjpf_flag():
    """wjpc-2025.txt, Mixed pairs / teams: a mixed pair's players are of different nationalities,
    regardless of their place of residence; mixed pairs participate under the WJPF flag."""
    assert entry_flag(of("ESP", "FRA"), PAIRS) == "WJPF"
    assert is_mixed(of("ESP", "FRA"), PAIRS)


@pytest.mark.parametrize(
    ("nationalities", "flag"),
    [
        (("CZE", "CZE", "CZE", "GER"), "CZE"),
        (("CZE", "CZE", "GER", "GER"), "WJPF"),
        (("CZE", "CZE", "GER", "POL"), "WJPF"),
        (("CZE", "GER", "CZE"), "CZE"),
        (("CZE", "GER", "POL"), "WJPF"),
    ],
)
def test_a_team_needs_three_of_four_or_two_of_three_of_one_nationality(nationalities, flag):
    """wjpc-2025.txt, Mixed pairs / teams: mixed teams have no majority of one country, i.e.
    three out of four of the same nationality (ruleset: same_nationality_needed 3=2, 4=3)."""
    assert entry_flag(of(*nationalities), TEAMS) == flag


def test_a_member_of_unknown_nationality_counts_for_no_country():
    """Default (docs/qualification.md): an unknown nationality never makes up a majority."""
    assert entry_flag(of("CZE", None), PAIRS) == "WJPF"


def test_an_entry_with_no_known_nationality_falls_back_on_its_country_then_on_wjpf():
    """Default (docs/qualification.md): entries built without members carry their country."""
    assert entry_flag(Entry("e1", country="NOR"), INDIVIDUAL) == "NOR"
    assert entry_flag(Entry("e1"), INDIVIDUAL) == "WJPF"


def test_the_results_csv_country_column_gives_each_member_a_nationality():
    """docs/formats.md: nationality defaults to the country column, split on "/" per member."""
    rows = read_results(
        "entry,country,status,time\nP1,CZE/GER,finished,3000\nP2,CZE,finished,3100\n",
        source="results.csv",
    )
    assert [entry_flag(r.entry, PAIRS) for r in rows] == ["WJPF", "CZE"]
