"""Who is who across championships: matching a new entrant against people already known.

Two records may be one person when their names agree with accents, case and spacing ignored;
a birth year or a country that both records give and that differs rules the match out.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class KnownPerson:
    """What matching looks at in a stored person; None or "" where it is not known."""

    id: int
    first_name: str
    last_name: str
    birth_year: int | None = None
    country: str = ""


@dataclass(frozen=True)
class PersonMatch:
    """A stored person who may be the entrant; `agreeing` counts the facts both give alike."""

    person: KnownPerson
    agreeing: int


# Letters that do not decompose into a base letter and an accent.
_UNACCENTED = str.maketrans({"ø": "o", "æ": "ae", "å": "a", "ł": "l", "đ": "d", "ß": "ss"})


def folded(text: str) -> str:
    """Text without case and accents, for searching and sorting names (Č files with C)."""
    letters = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in letters if not unicodedata.combining(c)).translate(_UNACCENTED)


def name_key(first_name: str, last_name: str) -> str:
    """The full name with accents, case, punctuation spacing and repeated spaces ignored."""
    text = unicodedata.normalize("NFKD", f"{first_name} {last_name}")
    bare = "".join(c for c in text if not unicodedata.combining(c))
    return " ".join(bare.replace("-", " ").casefold().split())


def match_people(known: Iterable[KnownPerson], *, first_name: str, last_name: str,
                 birth_year: int | None, country: str) -> list[PersonMatch]:
    """The known people who may be this entrant, those agreeing on more facts first."""
    entrant = KnownPerson(0, first_name, last_name, birth_year, country)
    return match_entrants(known, [entrant]).get(0, [])


def match_entrants(known: Iterable[KnownPerson],
                   entrants: Iterable[KnownPerson]) -> dict[int, list[PersonMatch]]:
    """For each entrant (by id) with any, the known people other than themselves who may be
    them; one pass over the known people, so a whole event is matched at once."""
    by_name: dict[str, list[KnownPerson]] = {}
    for entrant in entrants:
        by_name.setdefault(name_key(entrant.first_name, entrant.last_name), []).append(entrant)
    found: dict[int, list[PersonMatch]] = {}
    for person in known:
        for entrant in by_name.get(name_key(person.first_name, person.last_name), ()):
            facts = ((person.birth_year, entrant.birth_year), (person.country, entrant.country))
            if person.id == entrant.id or any(
                    theirs and ours and theirs != ours for theirs, ours in facts):
                continue
            agreeing = sum(1 for theirs, ours in facts if theirs and ours and theirs == ours)
            found.setdefault(entrant.id, []).append(PersonMatch(person, agreeing))
    return {entrant: sorted(matches, key=lambda m: (-m.agreeing, m.person.id))
            for entrant, matches in found.items()}
