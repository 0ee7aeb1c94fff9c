"""Reads behind the public person and country pages, from the counted results (careers.py).

Consent is per championship (selectors.publishing): a person's page exists when at least one of
their entries may be named and shows only those results; a country page names only them, and
prints "Name not published" for an entry naming a member who may not be named.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Q, QuerySet
from django_countries.ioc_data import IOC_TO_ISO

from puzzlecomp.championships.models import EntryMember, EntryStatus, Person, Result
from puzzlecomp.championships.ruleset_texts import ruleset_text
from puzzlecomp.championships.selectors.careers import (
    Archive,
    CountedResult,
    counted_results,
    timed_result,
)
from puzzlecomp.championships.selectors.publishing import NAMED, withheld_members
from puzzlecomp.planning.records import TimedResult, personal_bests


def public_people() -> QuerySet[Person]:
    """People who may have a public page: an entry at a published championship whose
    consent lets them be named (one join: the same entry), and that entry has a result or
    is confirmed (an unconfirmed, waiting or cancelled registration names no one)."""
    return Person.objects.filter(
        Exists(EntryMember.objects.filter(NAMED, person=OuterRef("pk"),
                                          entry__event__championship__published=True)
               .filter(Q(entry__status=EntryStatus.CONFIRMED)
                       | Exists(Result.objects.filter(entry=OuterRef("entry"))))))


def _shown(person: Person, results: Iterable[CountedResult]) -> list[CountedResult]:
    """The person's results whose championship's consent lets them be named."""
    found = list(results)
    withheld = withheld_members(r.entry for r in found)
    return [r for r in found if (r.entry, person.pk) not in withheld]


@dataclass(frozen=True)
class CareerLine:
    result: CountedResult
    points: float | None
    # The person's fastest time in this event and puzzle size.
    personal_best: bool
    # The entry's public name: "" when it names a partner who did not consent.
    entry_name: str


@dataclass(frozen=True)
class PersonalBest:
    event_name: str
    puzzle_pieces: int
    result: CountedResult


@dataclass(frozen=True)
class EditionPoints:
    """The person's best points of one event at one edition (a point of their chart)."""

    event_code: str
    event_name: str
    year: int
    points: float


@dataclass(frozen=True)
class Career:
    person: Person
    lines: list[CareerLine]
    bests: list[PersonalBest]
    chart: list[EditionPoints]


def person_career(person: Person) -> Career:
    """Every counted result of the person (newest first), their personal bests and their best
    points per event and edition."""
    archive = counted_results()
    own = sorted(_shown(person, archive.by_person.get(person.pk, [])), key=lambda r: (
        r.round.edition, r.round.event_position, r.round.position), reverse=True)
    bests = personal_bests((timed_result(r) for r in own if r.final_seconds is not None
                            and r.round.puzzle_pieces), person.pk)
    best_ids = {timed.result for timed in bests.values()}
    names = _event_names(own)
    withheld = withheld_members(r.entry for r in own)
    return Career(
        person=person,
        lines=[CareerLine(r, archive.points.get(r.id), r.id in best_ids,
                          _entry_name(r, withheld)) for r in own],
        bests=[PersonalBest(names[event], pieces, archive.by_id[timed.result])
               for (event, pieces), timed in sorted(bests.items())],
        chart=_edition_points(own, archive),
    )


def _event_names(results: Iterable[CountedResult]) -> dict[str, str]:
    """Each event code's name at its newest edition, in the reader's language."""
    names: dict[str, str] = {}
    for result in sorted(results, key=lambda r: r.round.edition):
        names[result.round.event_code] = ruleset_text(result.round.event_name)
    return names


def _edition_points(own: list[CountedResult], archive: Archive) -> list[EditionPoints]:
    best: dict[tuple[str, int], float] = {}
    for result in own:
        points = archive.points.get(result.id)
        key = (result.round.event_code, result.round.year)
        if points is not None and points > best.get(key, 0.0):
            best[key] = points
    names = _event_names(own)
    return [EditionPoints(event, names[event], year, points)
            for (event, year), points in sorted(best.items())]


def iso_of_ioc(code: str) -> str | None:
    """The ISO code of an IOC country code (as the public pages show countries), None if not
    a country."""
    return IOC_TO_ISO.get(code.upper()) or None


@dataclass(frozen=True)
class CountryPerson:
    person: Person
    editions: int
    best_place: CountedResult | None
    best_points: float | None
    bests: list[PersonalBest]


@dataclass(frozen=True)
class Podium:
    result: CountedResult
    # The entry's public name: "" when it names someone who did not consent.
    name: str


@dataclass(frozen=True)
class EditionMedals:
    championship_slug: str
    championship_name: str
    year: int
    gold: int
    silver: int
    bronze: int
    podiums: list[Podium]


@dataclass(frozen=True)
class CountryPage:
    code: str
    people: list[CountryPerson]
    medals: list[EditionMedals]
    records: list[tuple[str, TimedResult, CountedResult]]


def country_page(code: str, *, archive: Archive | None = None) -> CountryPage:
    """A country's people (who consented) with their best results, its podiums per edition
    and its national records, by the IOC code the public pages show."""
    archive = archive or counted_results()
    iso = iso_of_ioc(code) or ""
    persons = list(public_people().filter(nationality=iso).order_by("last_name", "first_name"))
    listed = []
    for person in persons:
        own = _shown(person, archive.by_person.get(person.pk, []))
        if not own:
            continue
        finals = [r for r in own if r.round.last and r.place]
        points = [archive.points[r.id] for r in own if r.id in archive.points]
        bests = personal_bests((timed_result(r) for r in own if r.final_seconds is not None
                                and r.round.puzzle_pieces), person.pk)
        names = _event_names(own)
        listed.append(CountryPerson(
            person=person, editions=len({r.round.edition for r in own}),
            best_place=min(finals, key=lambda r: (r.place or 0, r.round.edition), default=None),
            best_points=max(points, default=None),
            bests=[PersonalBest(names[event], pieces, archive.by_id[timed.result])
                   for (event, pieces), timed in sorted(bests.items())]))
    names = _event_names(archive.results)
    return CountryPage(
        code=code.upper(), people=listed, medals=_medals(archive, code.upper()),
        records=[(names[event], timed, archive.by_id[timed.result])
                 for (event, _, country), timed in sorted(archive.national.items())
                 if country == code.upper()])


def _medals(archive: Archive, code: str) -> list[EditionMedals]:
    podiums = [r for r in archive.results
               if r.country == code and r.round.last and r.place is not None and r.place <= 3]
    withheld = withheld_members(r.entry for r in podiums)
    by_edition: dict[str, list[CountedResult]] = defaultdict(list)
    for result in podiums:
        by_edition[result.round.edition].append(result)
    editions = []
    for _, found in sorted(by_edition.items(), reverse=True):
        found.sort(key=lambda r: (r.round.event_position, r.place or 0))
        places = [r.place for r in found]
        editions.append(EditionMedals(
            found[0].round.championship_slug, found[0].round.championship_name,
            found[0].round.year, places.count(1), places.count(2), places.count(3),
            [Podium(r, _entry_name(r, withheld)) for r in found]))
    return editions


def _entry_name(result: CountedResult, withheld: set[tuple[int, int]]) -> str:
    """The result's entry name, "" when a member may not be named at its championship."""
    return "" if any((result.entry, p) in withheld for p in result.people) else result.entry_name

