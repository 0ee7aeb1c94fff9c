"""Reads about people across championships: who a new entrant may be (rules/identity.py)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass

from django.db.models.functions import ExtractYear

from puzzlecomp.championships.models import EntryMember, Person
from puzzlecomp.rules.identity import KnownPerson, match_people


@dataclass(frozen=True)
class PersonCandidate:
    """A stored person who may be the entrant, with where they competed (newest first)."""

    person: Person
    agreeing: int
    championships: tuple[str, ...]


def person_candidates(*, first_name: str, last_name: str, birth_year: int | None,
                      country: str, exclude: Collection[int] = ()) -> list[PersonCandidate]:
    """Known people who may be this entrant: same name (accents and case ignored), and no
    other birth year or country."""
    known = (
        KnownPerson(pk, first, last, born, str(nationality or ""))
        for pk, first, last, born, nationality in Person.objects.exclude(pk__in=exclude)
        .values_list("pk", "first_name", "last_name", ExtractYear("birth_date"), "nationality")
        .iterator(chunk_size=2000)
    )
    matches = match_people(known, first_name=first_name, last_name=last_name,
                           birth_year=birth_year, country=country)
    people = Person.objects.in_bulk([m.person.id for m in matches])
    where: dict[int, list[str]] = defaultdict(list)
    for person, name in (EntryMember.objects.filter(person__in=people)
                         .order_by("-entry__event__championship__starts_at")
                         .values_list("person_id", "entry__event__championship__name")):
        if name not in where[person]:
            where[person].append(name)
    return [PersonCandidate(people[m.person.id], m.agreeing, tuple(where[m.person.id]))
            for m in matches]
