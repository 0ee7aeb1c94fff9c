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


def name_key(first_name: str, last_name: str) -> str:
    """The full name with accents, case, punctuation spacing and repeated spaces ignored."""
    text = unicodedata.normalize("NFKD", f"{first_name} {last_name}")
    bare = "".join(c for c in text if not unicodedata.combining(c))
    return " ".join(bare.replace("-", " ").casefold().split())


def match_people(known: Iterable[KnownPerson], *, first_name: str, last_name: str,
                 birth_year: int | None, country: str) -> list[PersonMatch]:
    """The known people who may be this entrant, those agreeing on more facts first."""
    key = name_key(first_name, last_name)
    found = []
    for person in known:
        if name_key(person.first_name, person.last_name) != key:
            continue
        facts = ((person.birth_year, birth_year), (person.country, country))
        if any(theirs and ours and theirs != ours for theirs, ours in facts):
            continue
        found.append(PersonMatch(person, sum(1 for theirs, ours in facts
                                             if theirs and ours and theirs == ours)))
    return sorted(found, key=lambda match: (-match.agreeing, match.person.id))
