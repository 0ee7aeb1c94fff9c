"""Ages by birth date on the day each ruleset names (issue 23, item 1; rules/ages.py)."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from puzzlecomp.rules.ages import age_on, reckoned_age, reckoning_day
from puzzlecomp.rules.loading import load_ruleset
from puzzlecomp.rules.people import Person
from puzzlecomp.rules.registration import Applicant, check_entry
from puzzlecomp.rules.results import Entry
from puzzlecomp.rules.subcategories import subcategory_admits

# A Saturday in September, as the championships are held.
START = dt.date(2025, 9, 20)


def refusals(ruleset_id: str, event_id: str, *members: Applicant) -> list[tuple[str, str]]:
    ruleset = load_ruleset(ruleset_id)
    violations = check_entry(ruleset.event(event_id), ruleset.registration, members=members,
                             competition_start=START)
    return [(v.code, v.field) for v in violations]


def test_an_age_is_the_whole_years_completed_on_the_day():
    assert age_on(dt.date(2009, 9, 20), START) == 16  # the birthday itself counts
    assert age_on(dt.date(2009, 9, 21), START) == 15
    assert age_on(dt.date(2008, 2, 29), dt.date(2025, 2, 28)) == 16
    assert age_on(dt.date(2008, 2, 29), dt.date(2025, 3, 1)) == 17


@pytest.mark.parametrize(("ruleset_id", "event_id"), [
    ("czech-championship", "individual"), ("norway-nm-2025", "individual"),
    ("czech-blind-relay", "individual"), ("czech-blind-relay", "relay")])
def test_under_16_is_the_age_on_the_competitions_first_day_by_birth_date(ruleset_id, event_id):
    """czech-championship.txt and czech-blind-and-relay.txt: "Persons under 16 may participate
    only when accompanied by an adult"; norway-nm-2025.txt: "barn under 16 år må ha følge av en
    voksen". No other day is named, so the age on the competition's first day counts: a person
    born in 2009 who turns 16 after the competition is still under 16 there."""
    assert load_ruleset(ruleset_id).registration.age.reckoned == "competition_start"
    after = Applicant("kid", birth_date=dt.date(2009, 12, 1))
    assert refusals(ruleset_id, event_id, after) == [
        ("registration.needs_accompanying_adult", "members[0].accompanied_by_adult")]
    on_the_day = Applicant("teen", birth_date=dt.date(2009, 9, 20))
    assert refusals(ruleset_id, event_id, on_the_day) == []
    accompanied = Applicant("kid", birth_date=dt.date(2009, 12, 1), accompanied_by_adult=True)
    assert refusals(ruleset_id, event_id, accompanied) == []


def test_the_refusal_names_the_age_and_the_day_it_was_taken_on():
    violation = check_entry(
        load_ruleset("czech-championship").event("individual"),
        load_ruleset("czech-championship").registration,
        members=[Applicant("kid", name="Eva Malá", birth_date=dt.date(2009, 12, 1))],
        competition_start=START)[0]
    assert violation.message == ("Eva Malá is 15 on 2025-09-20; under 16 only when accompanied "
                                 "by an adult")
    assert (violation.params["age"], violation.params["day"]) == (15, START)


def test_wjpc_alone_from_14_is_the_age_on_31_december_before_the_competition_year():
    """wjpc-2025.txt, Registration: "Individuals aged 14 or older (born before 2011) may
    register": 14 on 31 December 2024 is exactly "born before 2011", for every birth date."""
    assert load_ruleset("wjpc-2025").registration.age.reckoned == "previous_year_end"
    assert refusals("wjpc-2025", "individual",
                    Applicant("ann", birth_date=dt.date(2010, 12, 31))) == []
    assert refusals("wjpc-2025", "individual",
                    Applicant("ann", birth_date=dt.date(2011, 1, 1))) == [
        ("registration.too_young_alone", "members[0].birth_date")]


WJPC_AGES = {"junior-18": (None, 17), "senior-a": (45, 59), "senior-b": (60, None)}


@given(born=st.dates(dt.date(1955, 1, 1), dt.date(2012, 12, 31)))
def test_wjpc_age_categories_by_birth_year_are_the_ages_on_the_rulebooks_day(born):
    """wjpc-2025.txt, Subcategories: "under 18 years old - born in 2007 or later", "from 45 to
    60 years old - born from 1965 to 1979", "aged 60 and over - born in 1964 or before". The
    ruleset keeps the birth years the rulebook gives; taken on the WJPC's day for ages (31
    December before the competition year) the age by birth date puts every birth date in the
    same categories, so a known birth date never changes a category."""
    ruleset = load_ruleset("wjpc-2025")
    age = ruleset.registration.age.age(competition_start=START, birth_date=born)
    assert age is not None
    entry = Entry("e", members=(Person(birth_year=born.year),))
    for sub in ruleset.event("individual").subcategories:
        if sub.id not in WJPC_AGES:
            continue
        low, high = WJPC_AGES[sub.id]
        by_age = (low is None or age >= low) and (high is None or age <= high)
        assert subcategory_admits(sub, entry) == by_age, (sub.id, born)


def test_the_birth_year_alone_is_the_fallback_for_archive_data():
    """Archive rows carry a birth year only: the age reached during the day's year (exact on
    31 December), and no age at all without either."""
    assert reckoned_age("previous_year_end", competition_start=START, birth_year=2011) == 13
    assert reckoned_age("competition_start", competition_start=START, birth_year=2009) == 16
    assert reckoned_age("competition_start", competition_start=START) is None
    assert refusals("czech-championship", "individual", Applicant("kid", birth_year=2009)) == []
    assert refusals("czech-championship", "individual", Applicant("kid")) == []


def test_the_days_a_ruleset_may_name():
    assert reckoning_day("competition_start", START) == START
    assert reckoning_day("previous_year_end", START) == dt.date(2024, 12, 31)
    assert reckoning_day("year_end", START) == dt.date(2025, 12, 31)
