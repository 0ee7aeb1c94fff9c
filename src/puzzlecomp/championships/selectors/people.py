"""Reads about people across championships: who a new entrant may be (rules/identity.py)."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from puzzlecomp.championships.models import (
    EntryMember,
    EntryStatus,
    Event,
    Membership,
    Person,
    PersonChange,
    Role,
)
from puzzlecomp.rules.identity import KnownPerson, PersonMatch, match_entrants, match_people

ACTIVE = (EntryStatus.UNCONFIRMED, EntryStatus.CONFIRMED, EntryStatus.WAITING)


@dataclass(frozen=True)
class PersonCandidate:
    """A stored person who may be the entrant, with where they competed (newest first)."""

    person: Person
    agreeing: int
    championships: tuple[str, ...]


@dataclass(frozen=True)
class MemberCandidates:
    """An entry member and the known people who may be them."""

    member: EntryMember
    candidates: tuple[PersonCandidate, ...]


def _known(queryset: QuerySet[Person]) -> Iterator[KnownPerson]:
    """Stored people as the matching sees them: name and nationality only. A stored birth year
    is private: were it matched, whether a candidate is offered would tell it."""
    for pk, first, last, nationality in queryset.values_list(
            "pk", "first_name", "last_name", "nationality").iterator(chunk_size=2000):
        yield KnownPerson(pk, first, last, None, str(nationality or ""))


def _candidates(matches: Iterable[PersonMatch]) -> list[PersonCandidate]:
    """The matched people with the published championships they competed at, newest first
    (an unpublished championship is nobody else's business)."""
    listed = list(matches)
    people = Person.objects.in_bulk([m.person.id for m in listed])
    where: dict[int, list[str]] = defaultdict(list)
    for person, name in (EntryMember.objects.filter(
            person__in=people, entry__event__championship__published=True)
                         .order_by("-entry__event__championship__starts_at")
                         .values_list("person_id", "entry__event__championship__name")):
        if name not in where[person]:
            where[person].append(name)
    return [PersonCandidate(people[m.person.id], m.agreeing, tuple(where[m.person.id]))
            for m in listed]


def person_candidates(*, first_name: str, last_name: str, birth_year: int | None,
                      country: str, exclude: Collection[int] = ()) -> list[PersonCandidate]:
    """Known people who may be this entrant: same name (accents and case ignored), and no
    other birth year or country."""
    return _candidates(match_people(
        _known(Person.objects.exclude(pk__in=exclude)), first_name=first_name,
        last_name=last_name, birth_year=birth_year, country=country))


def member_candidates(member: EntryMember) -> list[PersonCandidate]:
    """The known people offered for an entry member: same name, no other birth year or country,
    and no other member of the entry. Only these may be merged with the member."""
    person = member.person
    return person_candidates(
        first_name=person.first_name, last_name=person.last_name,
        birth_year=person.birth_date.year if person.birth_date else None,
        country=str(person.nationality or ""),
        exclude=set(EntryMember.objects.filter(entry=member.entry_id)
                    .values_list("person_id", flat=True)))


def event_candidates(*, event: Event) -> list[MemberCandidates]:
    """Every member of the event's active entries who may be a person known from elsewhere
    (imported or registered as a new record), with those people."""
    members = list(EntryMember.objects.filter(entry__event=event, entry__status__in=ACTIVE)
                   .select_related("person", "entry").order_by("entry__number", "position"))
    entrants = [KnownPerson(m.person_id, m.person.first_name, m.person.last_name,
                            m.person.birth_date.year if m.person.birth_date else None,
                            str(m.person.nationality or "")) for m in members]
    matches = match_entrants(_known(Person.objects.all()), entrants)
    # Two members of one entry are two people.
    together = {m.person_id: {o.person_id for o in members if o.entry_id == m.entry_id}
                for m in members}
    found = [
        MemberCandidates(m, tuple(_candidates(
            match for match in matches[m.person_id]
            if match.person.id not in together[m.person_id])))
        for m in members if m.person_id in matches
    ]
    return [f for f in found if f.candidates]


@dataclass(frozen=True)
class MergeToUndo:
    """A merge into one of these people that has not been undone: the merged record's name,
    birth date and archive id as they were, and how many entries it brought."""

    change: PersonChange
    name: str
    birth_date: dt.date | None
    archive_id: str
    entries: int


def _date(iso: str | None) -> dt.date | None:
    return dt.date.fromisoformat(iso) if iso else None


def merges_to_undo(person_ids: Collection[int]) -> list[MergeToUndo]:
    """The merges into these people that may still be undone, newest first."""
    undone = {undo.snapshot.get("undoes") for undo in PersonChange.objects.filter(
        kind=PersonChange.Kind.SPLIT, person__in=person_ids, snapshot__has_key="undoes")}
    return [
        MergeToUndo(change, f"{change.snapshot.get('first_name', '')} "
                            f"{change.snapshot.get('last_name', '')}".strip(),
                    _date(change.snapshot.get("birth_date")),
                    change.snapshot.get("archive_id") or "", len(change.entry_members))
        for change in PersonChange.objects.filter(
            kind=PersonChange.Kind.MERGE, person__in=person_ids).select_related(
            "person", "by").order_by("-at", "-pk")
        if change.pk not in undone
    ]


def mergeable_by(user: Any, person_ids: Collection[int]) -> set[int]:
    """Those of these people `user` may merge or link: every championship they competed in that
    is still run (the archive's read-only ones aside) is one `user` organises; staff, anyone.
    The same test as `services.people` makes, so no one is offered who could never be merged."""
    if getattr(user, "is_staff", False):
        return set(person_ids)
    managed = set(Membership.objects.filter(
        user=user if getattr(user, "is_authenticated", False) else None,
        role__lte=Role.ORGANISER).values_list("championship_id", flat=True))
    theirs: dict[int, set[int]] = defaultdict(set)
    for person, championship in EntryMember.objects.filter(
            person__in=person_ids, entry__event__championship__archived=False).values_list(
            "person_id", "entry__event__championship_id"):
        theirs[person].add(championship)
    return {pk for pk in person_ids if theirs[pk] <= managed}


def archive_only(person_ids: Collection[int]) -> set[int]:
    """Those of these people known only from the archive: an archived entry or an archive id,
    and no entry in a championship still run by an organiser. "Is this you?" offers only these:
    a person of a running championship belongs to its organiser (and has private facts)."""
    live = set(EntryMember.objects.filter(person__in=person_ids,
                                          entry__event__championship__archived=False)
               .values_list("person_id", flat=True))
    archived = set(EntryMember.objects.filter(person__in=person_ids,
                                              entry__event__championship__archived=True)
                   .values_list("person_id", flat=True))
    with_id = set(Person.objects.filter(pk__in=person_ids, archive_id__isnull=False)
                  .values_list("pk", flat=True))
    return (archived | with_id) - live

