"""What spectators see first: a championship's phase, the round that shows an event's leaders,
when a podium is known, and whom a search for entrants finds."""

from __future__ import annotations

import datetime as dt

import pytest

from puzzlecomp.rules.spectating import (
    Phase,
    championship_phase,
    entrant_matches,
    leaders_round,
    podium_known,
)

DAY = dt.date(2027, 9, 20)


def phase(today: dt.date, *, ends_on: dt.date | None = None, live: bool = False,
          archived: bool = False) -> Phase:
    return championship_phase(starts_on=DAY, ends_on=ends_on, rounds_live=live,
                              archived=archived, today=today)


def test_a_championship_is_upcoming_before_its_first_day():
    assert phase(DAY - dt.timedelta(days=1)) == Phase.UPCOMING


def test_a_championship_is_live_on_each_of_its_days_and_past_after_the_last():
    last = DAY + dt.timedelta(days=2)
    assert [phase(DAY + dt.timedelta(days=n), ends_on=last) for n in range(4)] == [
        Phase.LIVE, Phase.LIVE, Phase.LIVE, Phase.PAST]


def test_a_championship_of_one_day_ends_on_its_first():
    assert phase(DAY) == Phase.LIVE
    assert phase(DAY + dt.timedelta(days=1)) == Phase.PAST


def test_a_running_round_makes_a_championship_live_whatever_its_dates_say():
    assert phase(DAY - dt.timedelta(days=3), live=True) == Phase.LIVE
    assert phase(DAY + dt.timedelta(days=3), live=True) == Phase.LIVE


def test_an_archived_championship_is_past_even_on_its_days():
    assert phase(DAY, archived=True, live=True) == Phase.PAST


def test_the_leaders_come_from_the_round_running_now():
    rounds = [("published", True), ("running", True), ("planned", False)]
    assert leaders_round(rounds) == 1


def test_a_round_being_counted_is_live_too():
    assert leaders_round([("final", True), ("counting", True)]) == 1


def test_without_a_live_round_the_leaders_come_from_the_last_round_with_results():
    rounds = [("final", True), ("published", True), ("planned", False)]
    assert leaders_round(rounds) == 1


def test_an_event_without_results_has_no_leaders():
    assert leaders_round([("planned", False), ("planned", False)]) is None
    assert leaders_round([]) is None


def test_the_podium_is_known_once_the_last_round_is_published_or_final():
    assert podium_known(["final", "published"])
    assert podium_known(["final", "final"])
    assert not podium_known(["final", "provisional"])
    assert not podium_known(["published", "planned"])
    assert not podium_known([])


@pytest.mark.parametrize("query", ["novakova", "NOVÁKOVÁ", "ana nov", "nov ana", "Nováková"])
def test_a_search_ignores_case_accents_and_the_order_of_words(query):
    assert entrant_matches(query, number=7, names=["Ana Nováková"])


@pytest.mark.parametrize("query", ["12", "#12", "# 12", " 12 "])
def test_a_search_finds_an_entrant_by_entry_number(query):
    assert entrant_matches(query, number=12, names=[""])


def test_a_number_finds_only_its_own_entrant():
    assert not entrant_matches("12", number=121, names=["Ana Novak"])


def test_every_word_must_be_found_in_one_name():
    assert not entrant_matches("ana berg", number=1, names=["Ana Novak", "Ben Berg"])
    assert entrant_matches("ben berg", number=1, names=["Ana Novak", "Ben Berg"])


def test_letters_without_an_accent_of_their_own_are_found_by_their_plain_twin():
    assert entrant_matches("oye", number=3, names=["Kari Øye"])
    assert entrant_matches("lodz", number=3, names=["Team Łódź"])


def test_an_empty_search_finds_no_one():
    assert not entrant_matches("", number=1, names=["Ana"])
    assert not entrant_matches("   ", number=1, names=["Ana"])


def test_a_withheld_name_cannot_be_found():
    # A name the public may not read is passed as "" (selectors.publishing).
    assert not entrant_matches("a", number=1, names=[""])
