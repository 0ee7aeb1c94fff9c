"""The archive: past championships created from published results (docs/archive.md).

`archive_import` checks the whole file first and writes it in one transaction, so a file
with any problem creates nothing. Archived championships are read-only.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from puzzlecomp.championships.actions import ARCHIVE_ADDED, ARCHIVE_IMPORTED
from puzzlecomp.championships.engine import ioc_of_code
from puzzlecomp.championships.models import (
    Championship,
    Entry,
    EntryMember,
    EntryStatus,
    Event,
    Person,
    Puzzle,
    Result,
    Round,
    RoundState,
)
from puzzlecomp.championships.services.facts import member_facts_derive
from puzzlecomp.championships.services.importing import country_code
from puzzlecomp.championships.services.work import action_audit, unit_of_work
from puzzlecomp.formats.archive_checks import archive_rows_problems
from puzzlecomp.formats.archive_limits import RoundLimits, round_limits
from puzzlecomp.formats.archive_namesakes import Namesake, namesakes_apart
from puzzlecomp.formats.archive_rank_order import RankedUnfinished, finishes_ranked_unfinished
from puzzlecomp.formats.archive_sizes import (
    NO_EDITIONS,
    ArchiveSizes,
    EditionSizes,
    PiecesWarning,
    SizeWarning,
    archive_sizes,
    pieces_over_size,
    round_of,
)
from puzzlecomp.formats.history_csv import PublishedResult
from puzzlecomp.formats.results_csv import InputError, InputProblem
from puzzlecomp.rules.loading import load_ruleset
from puzzlecomp.rules.ruleset import Event as EventSpec
from puzzlecomp.rules.ruleset import Ruleset

# The published results carry no names: people get invented ones, made up from their ids.
FIRST_NAMES = (
    "Ada Alma Anton Aria Bela Bruno Cleo Dario Edda Elio Emil Erin Ezra Fay Finn Greta Hana Ines "
    "Ivo Jara Jonas Kai Kira Lars Lea Leo Lina Luca Mara Milo Nadia Nico Noor Otto Paz Remy "
    "Rita Sami Selma Teo Tilda Ugo Una Vito Wren Yara Zane Zora"
).split()
LAST_NAMES = (
    "Abel Alder Amsel Arden Bakker Barta Berger Blanco Brandt Castell Dahl Dvorak Eklund Ferro "
    "Fischer Galli Haas Holm Ibarra Jensen Kaur Keller Kovac Lange Lind Marek Moreno Navarro "
    "Nordin Ortega Palma Pavel Quist Ricci Rojas Sandoval Serra Stein Strand Suarez Toth Urban "
    "Valen Varga Vidal Weiss Winter Wolff Yilmaz Zeman"
).split()
# Published country names the country list spells otherwise, and those that name no country.
COUNTRY_ALIASES = {"The Netherlands": "Netherlands"}
NO_COUNTRY = {"", "Mixed", "Unknown"}


@dataclass(frozen=True)
class ArchiveImport:
    """What an import created."""

    championships: tuple[str, ...]
    results: int
    people_created: int
    # Rows whose published puzzle size the rules contradict (the rules' size was taken).
    size_warnings: tuple[SizeWarning, ...] = ()
    # Rows naming a person already in another entry of the round: kept apart as another person.
    namesakes: tuple[Namesake, ...] = ()
    # Rows that placed more pieces than the round's puzzles have (its size is in doubt).
    pieces_warnings: tuple[PiecesWarning, ...] = ()
    # Finishes ranked among the unfinished: taken as not finished (formats/archive_rank_order).
    ranked_unfinished: tuple[RankedUnfinished, ...] = ()
    # Rounds whose published time limit the ruleset's contradicts (formats/archive_limits).
    limit_warnings: tuple[str, ...] = ()


def invented_name(archive_id: str) -> tuple[str, str]:
    """A made-up first and last name for an archived person, always the same for one id."""
    digest = hashlib.sha256(archive_id.encode()).digest()
    return (FIRST_NAMES[digest[0] % len(FIRST_NAMES)],
            LAST_NAMES[int.from_bytes(digest[1:3], "big") % len(LAST_NAMES)])


@functools.cache  # looking a name up in the country list takes milliseconds
def published_country(name: str) -> str:
    """The ISO code of a published country name; "" for mixed or unknown origins."""
    if name in NO_COUNTRY:
        return ""
    return country_code(COUNTRY_ALIASES.get(name, name)) or ""


def archive_import(*, rows: Sequence[PublishedResult], source: str, ruleset_id: str,
                   slug_prefix: str, title: str, user: Any = None,
                   editions: EditionSizes = NO_EDITIONS,
                   dates: Mapping[int, dt.date] | None = None) -> ArchiveImport:
    """Create one read-only championship per year of the rows; InputError names every problem.

    Rounds take their puzzles from the ruleset (or `editions`, where a past edition differed);
    the rows whose published size disagrees come back as `size_warnings`. An edition starts on
    its day in `dates` (an editions file's, with its source); any other shows its year alone.
    """
    ruleset = load_ruleset(ruleset_id)
    _check(rows, source, ruleset, slug_prefix)
    rows, ranked_unfinished = finishes_ranked_unfinished(rows, source=source)
    specs = {spec.id: spec for spec in ruleset.events}
    rows, namesakes = namesakes_apart(
        rows, source=source, round_code=lambda row: round_of(specs[row.event], row.round).code,
        round_position=lambda row: round_of(specs[row.event], row.round).position)
    sizes = archive_sizes(rows, source=source, ruleset=ruleset, editions=editions)
    limits, limit_warnings = round_limits(rows, ruleset, source=source)
    by_year: dict[int, list[PublishedResult]] = defaultdict(list)
    for row in rows:
        by_year[row.year].append(row)
    over = pieces_over_size(rows, sizes, source=source, ruleset=ruleset)
    # Counts past the rules' size, and no editions file sizing the round: its size is unknown.
    unsized = {(w.year, w.event, w.round) for w in over} - set(editions)
    with transaction.atomic():
        people, created = _people(rows)
        slugs = []
        for year, year_rows in sorted(by_year.items()):
            championship = _championship(year, year_rows, ruleset, people, sizes, limits,
                                         unsized,
                                         slug=f"{slug_prefix}-{year}", name=f"{title} {year}",
                                         starts_on=(dates or {}).get(year))
            action_audit(ARCHIVE_IMPORTED, championship=championship, user=user,
                         source=source, results=len(year_rows))
            slugs.append(championship.slug)
        _archived_facts_derive()
        living_facts_derive()
    return ArchiveImport(tuple(slugs), len(rows), created, sizes.warnings, tuple(namesakes),
                         pieces_warnings=over,
                         ranked_unfinished=tuple(ranked_unfinished),
                         limit_warnings=tuple(limit_warnings))


def _check(rows: Sequence[PublishedResult], source: str, ruleset: Ruleset,
           slug_prefix: str) -> None:
    problems = archive_rows_problems(rows, source=source, ruleset=ruleset)
    taken = sorted(Championship.objects.filter(
        slug__in={f"{slug_prefix}-{row.year}" for row in rows}).values_list("slug", flat=True))
    for slug in taken:
        problems.append(InputProblem(source, None, "", "year",
                                     f"championship {slug} exists already"))
    if problems:
        raise InputError(problems)


def _people(rows: Iterable[PublishedResult]) -> tuple[dict[str, Person], int]:
    """Every archived person of the rows, created once with an invented name."""
    country_of: dict[str, str] = {}
    for row in rows:
        country = published_country(row.country)
        for archive_id in row.people:
            if country or archive_id not in country_of:
                country_of[archive_id] = country or country_of.get(archive_id, "")
    existing = {p.archive_id: p for p in Person.objects.filter(archive_id__in=country_of)}
    missing = [
        Person(archive_id=archive_id, first_name=first, last_name=last,
               nationality=country, residence=country, consent_publish=True)
        for archive_id, country in sorted(country_of.items()) if archive_id not in existing
        for first, last in [invented_name(archive_id)]
    ]
    Person.objects.bulk_create(missing, batch_size=500)
    people = {p.archive_id: p for p in Person.objects.filter(archive_id__in=country_of)}
    return {key: person for key, person in people.items() if key is not None}, len(missing)


def _championship(year: int, rows: list[PublishedResult], ruleset: Ruleset,
                  people: dict[str, Person], sizes: ArchiveSizes, limits: RoundLimits,
                  unsized: set[tuple[int, str, str]], *,
                  slug: str, name: str, starts_on: dt.date | None) -> Championship:
    # Undated: 1 January, only to order the editions; pages show the year alone (date_known).
    # Dated: noon UTC, the same day in every time zone.
    starts = (dt.datetime(year, 1, 1, tzinfo=dt.UTC) if starts_on is None else
              dt.datetime.combine(starts_on, dt.time(12), tzinfo=dt.UTC))
    championship = Championship.objects.create(
        slug=slug, name=name, ruleset_id=ruleset.id, starts_at=starts, published=True,
        archived=True, date_known=starts_on is not None)
    by_event: dict[str, list[PublishedResult]] = defaultdict(list)
    for row in rows:
        by_event[row.event].append(row)
    for position, spec in enumerate(ruleset.events):
        if spec.id in by_event:
            event = Event.objects.create(
                championship=championship, code=spec.id, name=spec.name, kind=spec.kind,
                members_min=spec.members_min, members_max=spec.members_max, position=position)
            # An undated edition's rounds have no publication date either.
            _event_results(event, spec, by_event[spec.id], people,
                           starts if starts_on is not None else None,
                           {code: () if (y, e, code) in unsized else puzzles
                            for (y, e, code), puzzles in sizes.puzzles.items()
                            if (y, e) == (year, spec.id)}, limits)
    return championship


def _event_results(event: Event, spec: EventSpec, rows: list[PublishedResult],
                   people: dict[str, Person], published_at: dt.datetime | None,
                   puzzles: dict[str, tuple[int, ...]], limits: RoundLimits) -> None:
    rounds: dict[str, Round] = {}
    rows_of_round: dict[tuple[int, str, str, bool], list[PublishedResult]] = defaultdict(list)
    for row in rows:
        of = round_of(spec, row.round)
        rows_of_round[(of.position, of.code, of.name, of.grouped)].append(row)
    for (position, code, name, grouped), its_rows in sorted(rows_of_round.items()):
        rnd = Round.objects.create(
            event=event, code=code, name=name, position=position,
            time_limit_minutes=limits[(its_rows[0].year, spec.id, code)],
            groups=sorted({r.round for r in its_rows}) if grouped else [],
            state=RoundState.FINAL, published_at=published_at, size_unknown=not puzzles[code])
        Puzzle.objects.bulk_create(Puzzle(round=rnd, position=i, pieces=pieces)
                                   for i, pieces in enumerate(puzzles[code]))
        rounds.update({r.round: rnd for r in its_rows})
    first = min(rounds.values(), key=lambda rnd: rnd.position)
    entrants: dict[str, list[PublishedResult]] = defaultdict(list)
    for row in rows:
        entrants[row.entrant].append(row)
    entries = Entry.objects.bulk_create(
        _entry(event, number, its_rows, people, first)
        for number, its_rows in enumerate(entrants.values(), start=1))
    EntryMember.objects.bulk_create(
        # Published results: the names were published.
        (EntryMember(entry=entry, person=people[archive_id], position=i, consent_publish=True)
         for entry, its_rows in zip(entries, entrants.values(), strict=True)
         for i, archive_id in enumerate(its_rows[0].people)), batch_size=500)
    Result.objects.bulk_create(
        (_result(rounds[row.round], entry, row, grouped=bool(rounds[row.round].groups))
         for entry, its_rows in zip(entries, entrants.values(), strict=True)
         for row in its_rows), batch_size=500)


def _entry(event: Event, number: int, rows: list[PublishedResult], people: dict[str, Person],
           first: Round) -> Entry:
    members = [people[archive_id] for archive_id in rows[0].people]
    country = published_country(rows[0].country)
    if not members:
        name = rows[0].entrant
    elif event.kind == "individual":
        name = str(members[0])
    else:
        name = " & ".join(p.last_name for p in members)
    in_first = [r.round for r in rows if r.round in (first.groups or [])]
    return Entry(event=event, number=number, name=name[:200],
                 country=ioc_of_code(country) or "", mixed=not country and len(members) > 1,
                 status=EntryStatus.CONFIRMED, group=in_first[0] if in_first else "")


def _result(rnd: Round, entry: Entry, row: PublishedResult, *, grouped: bool) -> Result:
    if (row.completed and row.time_seconds is not None and rnd.time_limit_minutes
            and row.time_seconds > rnd.time_limit_minutes * 60):
        # Past the rules' limit (formats/archive_limits.py): not finished within it, the
        # count at the limit unpublished; the published place stays.
        return Result(round=rnd, entry=entry, status="dnf", checked=True,
                      competitor_confirmed=True, published_rank=row.rank,
                      archive_group=row.round if grouped else "")
    return Result(
        round=rnd, entry=entry, status="finished" if row.completed else "unfinished",
        time_seconds=round(row.time_seconds) if row.time_seconds is not None else None,
        pieces=None if row.completed else int(row.pieces_placed or 0),
        checked=True, competitor_confirmed=True, published_rank=row.rank,
        archive_group=row.round if grouped else "")


def championship_archive(*, championship: Championship, user: Any = None) -> Championship:
    """Put a finished championship (every round final) into the archive, read-only from then.

    Raises ArchiveRefused naming the rounds that are not final yet.
    """
    open_rounds = [f"{rnd.event.code} {rnd.code}" for rnd in Round.objects.filter(
        event__championship=championship).exclude(state=RoundState.FINAL).select_related("event")]
    if open_rounds:
        raise ArchiveRefused(f"{championship.slug}: rounds not final yet: "
                             f"{', '.join(open_rounds)}")
    with unit_of_work(ARCHIVE_ADDED, championship=championship, user=user):
        championship.archived = True
        championship.save(update_fields=["archived"])
        living_facts_derive()
    return championship


def _archived_facts_derive() -> None:
    """Every archived entry's history facts (a debutant there too, wjpc-2025.txt, Debutant
    prizes), from the editions before it: an import may add an edition before others."""
    for championship in Championship.objects.filter(archived=True).order_by("starts_at"):
        member_facts_derive(championship=championship)


def living_facts_derive() -> None:
    """The archive changed: the history facts of every championship outside it may have
    (called inside the writes that change it, which audit and announce)."""
    for championship in Championship.objects.filter(archived=False):
        member_facts_derive(championship=championship)


class ArchiveRefused(Exception):
    """A championship that cannot go into the archive, and why."""
