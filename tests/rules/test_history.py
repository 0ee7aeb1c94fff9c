"""Facts from a person's earlier championships (rules/history.py)."""

from __future__ import annotations

import datetime as dt

from puzzlecomp.rules.history import (
    Participation,
    facts_used,
    is_debutant,
    is_first_state_competition_of_year,
    ruleset_series,
)
from puzzlecomp.rules.loading import load_ruleset

WJPC_2024 = Participation("wjpc-2025", "individual", dt.date(2024, 9, 20))


def test_wjpc_debutant_has_not_competed_in_this_category_at_an_earlier_edition():
    """wjpc-2025.txt, Individual Debutant: players who have not previously participated in this
    category in any of the previous editions."""
    assert not is_debutant([WJPC_2024], ruleset_id="wjpc-2025", event="individual",
                           starts_on=dt.date(2025, 9, 20))
    assert is_debutant([WJPC_2024], ruleset_id="wjpc-2025", event="pairs",
                       starts_on=dt.date(2025, 9, 20))


def test_a_debutant_is_judged_by_editions_before_this_one_only():
    assert is_debutant([WJPC_2024], ruleset_id="wjpc-2025", event="individual",
                       starts_on=dt.date(2024, 9, 20))


def test_another_championship_is_not_an_earlier_edition():
    czech = Participation("czech-championship", "individual", dt.date(2024, 5, 1))
    assert is_debutant([czech], ruleset_id="wjpc-2025", event="individual",
                       starts_on=dt.date(2025, 9, 20))


def test_rulesets_of_one_championship_in_other_years_are_one_series():
    assert ruleset_series("wjpc-2025") == ruleset_series("wjpc-2026") == "wjpc"
    assert ruleset_series("australia-state") == "australia-state"


def test_australia_a_territory_resident_may_take_a_trophy_at_their_first_state_competition():
    """australia-state-national.txt, Trophies: a resident of the NT or another territory without
    state competitions may take a trophy at the first state competition of the calendar year."""
    march = Participation("australia-state", "individual", dt.date(2026, 3, 14))
    assert is_first_state_competition_of_year([], ruleset_id="australia-state",
                                              starts_on=dt.date(2026, 3, 14))
    assert not is_first_state_competition_of_year([march], ruleset_id="australia-state",
                                                  starts_on=dt.date(2026, 6, 6))


def test_australia_last_years_state_competitions_and_the_nationals_do_not_count():
    last_year = Participation("australia-state", "individual", dt.date(2025, 11, 1))
    national = Participation("australia-national", "individual", dt.date(2026, 2, 1))
    assert is_first_state_competition_of_year([last_year, national],
                                              ruleset_id="australia-state",
                                              starts_on=dt.date(2026, 6, 6))


def test_only_the_facts_a_rulesets_conditions_test_are_used():
    """wjpc-2025.txt has Debutant prizes; australia-state-national.txt the territory rule."""
    assert facts_used(load_ruleset("wjpc-2025")) == ("debutant",)
    assert facts_used(load_ruleset("australia-state")) == ("first_state_competition_of_year",)
    assert facts_used(load_ruleset("norway-nm-2025")) == ()
