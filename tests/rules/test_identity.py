"""Matching a new entrant against known people (rules/identity.py)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from puzzlecomp.rules.identity import KnownPerson, match_people, name_key

ANA = KnownPerson(1, "Ana", "Nováková", 1990, "CZ")


def matches(*known: KnownPerson, first: str = "ana", last: str = "NOVAKOVA",
            birth_year: int | None = 1990, country: str = "CZ") -> list[int]:
    return [m.person.id for m in match_people(known, first_name=first, last_name=last,
                                              birth_year=birth_year, country=country)]


def test_accents_case_and_spacing_are_ignored_in_names():
    assert name_key(" Ána ", "Nováková-Dvořák") == name_key("ana", "novakova  dvorak")
    assert matches(ANA) == [1]


def test_another_birth_year_or_country_is_another_person():
    assert matches(ANA, birth_year=1991) == []
    assert matches(ANA, country="SK") == []


def test_a_fact_one_side_does_not_give_does_not_rule_a_match_out():
    archived = KnownPerson(2, "Ana", "Novakova", None, "")
    assert matches(archived) == [2]


def test_people_agreeing_on_more_facts_come_first():
    archived = KnownPerson(2, "Ana", "Novakova", None, "CZ")
    assert matches(archived, ANA) == [1, 2]


def test_another_name_never_matches():
    assert matches(KnownPerson(3, "Anna", "Nováková", 1990, "CZ")) == []


NAMES = st.text(st.sampled_from("aábcčdďeéěfghiíjklmnňoóprřsštťuúůvxyýzžAÁČĎÉĚÍŇÓŘŠŤÚŮÝŽ -ßøØæÆ"),
                max_size=20)


@given(NAMES, NAMES)
def test_the_key_of_a_name_ignores_case(first, last):
    assert name_key(first, last) == name_key(first.casefold(), last.casefold())
