"""Reads behind the ranking lists, the records page and the record badge of live results,
from the counted results (careers.py; the ranking is planning/ranking_list.py)."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from puzzlecomp.championships.engine import ioc
from puzzlecomp.championships.models import Person
from puzzlecomp.championships.selectors.careers import (
    SCORED_STATUSES,
    Archive,
    CountedResult,
    counted_results,
)
from puzzlecomp.championships.selectors.person_pages import iso_of_ioc
from puzzlecomp.championships.selectors.publishing import withheld_members
from puzzlecomp.planning.ranking_list import (
    ScoredResult,
    ranking_lines,
    recent_editions,
)
from puzzlecomp.planning.records import TimedResult, record_kind
from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.loading import load_ruleset
from puzzlecomp.rules.subcategories import OVERALL

RANKING_PAGE_SIZE = 100


@dataclass(frozen=True)
class RankingEvent:
    """An event of a series that has a ranking list, with its categories (id, name)."""

    series: str
    event_code: str
    event_name: str
    categories: tuple[tuple[str, str], ...]
    # The championships the list counts, oldest first.
    editions: tuple[str, ...]


def _newest(archive: Archive) -> dict[tuple[str, str], CountedResult]:
    """A result of the newest edition of each (series, event)."""
    newest: dict[tuple[str, str], CountedResult] = {}
    for result in archive.results:
        key = (result.round.series, result.round.event_code)
        if key not in newest or result.round.edition > newest[key].round.edition:
            newest[key] = result
    return newest


def subcategory_names(ruleset_id: str, event_code: str) -> tuple[tuple[str, str], ...]:
    """(id, name) of the event's subcategories in its ruleset; none when it has no such event."""
    try:
        spec = load_ruleset(ruleset_id).event(event_code)
    except (RulesError, KeyError):
        return ()
    return tuple((s.id, s.name) for s in spec.subcategories)


def ranking_events(archive: Archive | None = None) -> list[RankingEvent]:
    """Every (series, event) with counted results, by series then the event's position."""
    archive = archive or counted_results()
    return archive.remembered("ranking_events", lambda: _ranking_events(archive))


def _ranking_events(archive: Archive) -> list[RankingEvent]:
    editions: dict[tuple[str, str], dict[str, str]] = defaultdict(dict)
    for result in archive.results:
        editions[(result.round.series, result.round.event_code)][result.round.edition] = (
            result.round.championship_name)
    found = []
    for (series, code), result in sorted(_newest(archive).items(), key=lambda item: (
            item[0][0], item[1].round.event_position)):
        counted = recent_editions(editions[(series, code)])
        found.append(RankingEvent(
            series, code, result.round.event_name,
            subcategory_names(result.round.ruleset_id, code),
            tuple(editions[(series, code)][e] for e in counted)))
    return found


def _scored(archive: Archive, series: str, event_code: str,
            category: str) -> tuple[list[ScoredResult], tuple[str, ...]]:
    """Every member's points of every scored result of the list, and the editions it counts."""
    ours = [r for r in archive.results if r.round.series == series
            and r.round.event_code == event_code]
    scored = [
        ScoredResult(person, r.id, r.round.edition, archive.points[r.id])
        for r in ours
        if r.id in archive.points and r.status in SCORED_STATUSES
        and (category == OVERALL or category in r.categories)
        for person in r.people
    ]
    return scored, recent_editions(r.round.edition for r in ours)


def _flags(archive: Archive, series: str, event_code: str) -> list[str]:
    """The IOC codes of the countries whose entries have results in the list."""
    return sorted({r.country for r in archive.results if r.round.series == series
                   and r.round.event_code == event_code and iso_of_ioc(r.country)})


@dataclass(frozen=True)
class RankingRow:
    place: int
    person: int
    # "" when the person did not consent to publication (their flag is withheld too).
    name: str
    flag: str
    points: float
    result: CountedResult
    counted: int


@dataclass(frozen=True)
class RankingList:
    event: RankingEvent
    category: str
    country: str
    rows: list[RankingRow]
    total: int
    page: int
    pages: int
    # The countries with entries in the list (IOC codes), for choosing a national list.
    countries: list[str]


def ranking_list_get(*, series: str, event_code: str, category: str = OVERALL,
                     country: str = "", page: int = 1,
                     per_page: int = RANKING_PAGE_SIZE) -> RankingList | None:
    """A page of the ranking list of a series' event: world-wide, or of one country (IOC code)
    by the people's nationality; None when there is no such list."""
    archive = counted_results()
    event = next((e for e in ranking_events(archive)
                  if e.series == series and e.event_code == event_code), None)
    if event is None or (category != OVERALL and category not in dict(event.categories)):
        return None
    scored, editions = archive.remembered(
        ("scored", series, event_code, category),
        lambda: _scored(archive, series, event_code, category))
    if country:
        iso = iso_of_ioc(country)
        if iso is None:
            return None
        nationals = set(Person.objects.filter(nationality=iso).values_list("pk", flat=True))
        lines = ranking_lines([s for s in scored if s.person in nationals], editions=editions)
    else:
        # The world list depends on the results alone (names are read below, per page).
        lines = archive.remembered(("world", series, event_code, category),
                                   lambda: ranking_lines(scored, editions=editions))
    pages = max(1, math.ceil(len(lines) / per_page))
    page = min(max(1, page), pages)
    shown = lines[(page - 1) * per_page:page * per_page]
    people = Person.objects.in_bulk([line.person for line in shown])
    withheld = withheld_members(archive.by_id[line.result].entry for line in shown)
    rows = []
    for line in shown:
        person = people.get(line.person)
        named = (person if person is not None
                 and (archive.by_id[line.result].entry, line.person) not in withheld else None)
        rows.append(RankingRow(
            line.place, line.person, str(named) if named else "",
            (ioc(named.nationality) or "") if named else "", line.points,
            archive.by_id[line.result], line.counted))
    # Equal points share a place; among them, by name (the withheld last).
    rows.sort(key=lambda row: (row.place, row.name == "", row.name))
    flags = archive.remembered(("flags", series, event_code),
                               lambda: _flags(archive, series, event_code))
    return RankingList(event, category, country.upper(), rows, len(lines), page, pages, flags)


@dataclass(frozen=True)
class Holder:
    person: int
    # "" when they did not consent to publication.
    name: str


@dataclass(frozen=True)
class RecordRow:
    event_name: str
    puzzle_pieces: int
    category: str
    category_name: str
    timed: TimedResult
    result: CountedResult
    holders: tuple[Holder, ...]


def records_get() -> list[RecordRow]:
    """The record of each event, puzzle size and category (overall first)."""
    archive = counted_results()
    newest = {code: result for (_, code), result in _newest(archive).items()}
    holders = holders_of(archive.world.values())
    rows = []
    for (code, pieces, category), timed in archive.world.items():
        result = newest[code]
        names = dict(subcategory_names(result.round.ruleset_id, code))
        rows.append(RecordRow(
            result.round.event_name, pieces, category, names.get(category, ""), timed,
            archive.by_id[timed.result], holders[timed.result]))
    rows.sort(key=lambda row: (newest_position(newest, row), row.puzzle_pieces,
                               row.category != OVERALL, row.category))
    return rows


def newest_position(newest: dict[str, CountedResult], row: RecordRow) -> int:
    return newest[row.timed.event].round.event_position


def holders_of(timed: Iterable[TimedResult]) -> dict[int, tuple[Holder, ...]]:
    """The holders of each result (by result id), named only with the consent given for that
    result's championship."""
    found = list(timed)
    people = Person.objects.in_bulk({p for t in found for p in t.people})
    by_id = counted_results().by_id
    # A result no longer counted (read meanwhile) names nobody.
    entries = {t.result: by_id[t.result].entry for t in found if t.result in by_id}
    withheld = withheld_members(entries.values())
    return {t.result: tuple(Holder(p, str(people[p]) if p in people and t.result in entries
                                   and (entries[t.result], p) not in withheld else "")
                            for p in t.people) for t in found}


def round_record_marks(*, round_id: int, event_code: str, pieces: int | None,
                       lines: Sequence[dict[str, Any]]) -> dict[int, str]:
    """Entry number -> the record ("WR", "NR") its checked final time breaks in this round:
    faster than every counted result elsewhere and every other line of the round."""
    timed = [(line["entry"], line["final_seconds"], line.get("flag") or "") for line in lines
             if line["status"] == "finished" and line.get("checked", True)
             and line.get("final_seconds")]
    if not timed or not pieces:
        return {}
    others = [t for t in counted_results().by_size.get((event_code, pieces), [])
              if t[0] != round_id]
    world = min((seconds for _, seconds, _ in others), default=None)
    national: dict[str, int] = {}
    for _, seconds, country in others:
        if country and seconds < national.get(country, seconds + 1):
            national[country] = seconds
    marks = {}
    for number, seconds, country in timed:
        rivals = [s for n, s, _ in timed if n != number]
        kind = record_kind(
            seconds, world=world, national=national.get(country) if country else None,
            rivals=rivals, national_rivals=[s for n, s, c in timed
                                            if n != number and c == country])
        if kind is not None:
            marks[number] = str(kind)
    return marks
