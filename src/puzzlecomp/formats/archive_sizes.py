"""The puzzles of an archived round: from the rules, the published file's guess checked against
them (docs/archive.md, Puzzle sizes).

The published `puzzle_pieces` is a scraper's guess (../shared/data/README.md: every pairs round
says 1000, though first rounds and semifinals were 500). A round the ruleset declares takes the
ruleset's puzzles, or those of an editions file where a past edition differed; every row whose
`puzzle_pieces` disagrees is reported. A round the ruleset does not know keeps the file's size,
which must then be one size for the whole round.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import tomllib
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from puzzlecomp.formats.history_csv import PublishedResult
from puzzlecomp.formats.results_csv import InputError, InputProblem
from puzzlecomp.rules.ruleset import Event as EventSpec
from puzzlecomp.rules.ruleset import Ruleset

# (year, event, round code) -> the puzzles' pieces, where an edition differed from the ruleset.
EditionSizes = Mapping[tuple[int, str, str], tuple[int, ...]]
NO_EDITIONS: EditionSizes = {}


@dataclass(frozen=True)
class RoundOf:
    """The ruleset round a published round label belongs to (position, code, name)."""

    position: int
    code: str
    name: str
    grouped: bool
    known: bool


def round_of(spec: EventSpec, label: str) -> RoundOf:
    """The ruleset round of a published label: a group of it, or its id; else a round of its own."""
    for position, rnd in enumerate(spec.rounds):
        if label in rnd.groups:
            return RoundOf(position, rnd.id, rnd.name, True, True)
        if label == rnd.id:
            return RoundOf(position, rnd.id, rnd.name, False, True)
    return RoundOf(len(spec.rounds), label, label, False, False)


@dataclass(frozen=True)
class SizeWarning:
    """Rows of one round whose `puzzle_pieces` disagrees with the round's puzzles."""

    source: str
    year: int
    event: str
    round: str
    rows: tuple[int, ...]
    published: tuple[int, ...]
    puzzles: tuple[int, ...]
    from_editions: bool

    def __str__(self) -> str:
        said = " or ".join(str(p) for p in self.published)
        where = "the editions file" if self.from_editions else "the ruleset"
        rows = ", ".join(str(r) for r in self.rows[:3]) + (", ..." if len(self.rows) > 3 else "")
        return (f"{self.source}, rows {rows}, field puzzle_pieces: {len(self.rows)} rows of "
                f"{self.year} {self.event} {self.round} say {said} pieces; {where} says "
                f"{' + '.join(str(p) for p in self.puzzles)}, taken")


@dataclass(frozen=True)
class ArchiveSizes:
    """Every round's puzzles, and the rows that disagreed."""

    puzzles: Mapping[tuple[int, str, str], tuple[int, ...]]
    warnings: tuple[SizeWarning, ...]


def rule_puzzles(ruleset: Ruleset, editions: EditionSizes, *, year: int, event: str,
                 round_code: str) -> tuple[int, ...] | None:
    """The puzzles of a round of one edition: the editions file's, else the ruleset's; None when
    neither says (a round the ruleset does not know, or sizes left to the organiser)."""
    if (year, event, round_code) in editions:
        return editions[(year, event, round_code)]
    spec = next((e for e in ruleset.events if e.id == event), None)
    rnd = next((r for r in spec.rounds if r.id == round_code), None) if spec else None
    sizes = rnd.puzzle_sizes if rnd is not None else ()
    if not sizes or any(size is None for size in sizes):
        return None
    return tuple(size for size in sizes if size is not None)


def archive_sizes(rows: Iterable[PublishedResult], *, source: str, ruleset: Ruleset,
                  editions: EditionSizes = NO_EDITIONS) -> ArchiveSizes:
    """The puzzles of every round of the rows; raises InputError for a round the rules do not
    size whose rows give several sizes."""
    specs = {spec.id: spec for spec in ruleset.events}
    by_round: dict[tuple[int, str, str], list[PublishedResult]] = defaultdict(list)
    for row in rows:
        if row.event in specs:
            by_round[(row.year, row.event, round_of(specs[row.event], row.round).code)].append(row)
    puzzles: dict[tuple[int, str, str], tuple[int, ...]] = {}
    warnings: list[SizeWarning] = []
    problems: list[InputProblem] = []
    for key, its_rows in sorted(by_round.items()):
        year, event, code = key
        ruled = rule_puzzles(ruleset, editions, year=year, event=event, round_code=code)
        if ruled is None:
            first = its_rows[0]
            problems.extend(
                InputProblem(source, row.row, row.entrant, "puzzle_pieces",
                             f"{row.puzzle_pieces} pieces, but row {first.row} of the same round "
                             f"says {first.puzzle_pieces} and the rules do not size round {code}")
                for row in its_rows if row.puzzle_pieces != first.puzzle_pieces)
            puzzles[key] = (first.puzzle_pieces,)
            continue
        puzzles[key] = ruled
        wrong = [row for row in its_rows if row.puzzle_pieces != sum(ruled)]
        if wrong:
            warnings.append(SizeWarning(
                source, year, event, code, tuple(row.row for row in wrong),
                tuple(sorted({row.puzzle_pieces for row in wrong})), ruled,
                key in editions))
    if problems:
        raise InputError(problems)
    return ArchiveSizes(puzzles, tuple(warnings))


def read_edition_sizes(text: str, *, source: str) -> dict[tuple[int, str, str], tuple[int, ...]]:
    """An editions file: `[[rounds]]` tables of year, event, round and puzzles (pieces of each
    puzzle); raises InputError naming the table and field of every problem."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise InputError([InputProblem(source, None, "", "", f"not TOML: {error}")]) from None
    sizes: dict[tuple[int, str, str], tuple[int, ...]] = {}
    problems: list[InputProblem] = []
    for number, table in enumerate(data.get("rounds", []), start=1):
        where = f"rounds[{number}]"

        def problem(field: str, message: str, where: str = where) -> None:
            problems.append(InputProblem(source, None, where, field, message))

        year, event, code = table.get("year"), table.get("event"), table.get("round")
        puzzles = table.get("puzzles")
        if not isinstance(year, int) or not 1900 <= year <= 2100:
            problem("year", f"{year!r} is not a year")
        if not isinstance(event, str) or not event:
            problem("event", "the event is missing")
        if not isinstance(code, str) or not code:
            problem("round", "the round is missing")
        if (not isinstance(puzzles, list) or not puzzles
                or not all(isinstance(p, int) and not isinstance(p, bool) and p > 0
                           for p in puzzles)):
            problem("puzzles", f"{puzzles!r} is not a list of piece counts above zero")
            continue
        if isinstance(year, int) and isinstance(event, str) and isinstance(code, str):
            sizes[(year, event, code)] = tuple(puzzles)
    if problems:
        raise InputError(problems)
    return sizes


def read_edition_dates(text: str, *, source: str) -> dict[int, dt.date]:
    """The first days of past editions an editions file gives: `[[editions]]` tables of
    `year`, `starts` (a TOML date) and `source` (where the date is published: a date without
    one is refused, never taken). Editions it does not date show their year alone."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise InputError([InputProblem(source, None, "", "", f"not TOML: {error}")]) from None
    dates: dict[int, dt.date] = {}
    problems: list[InputProblem] = []
    for number, table in enumerate(data.get("editions", []), start=1):
        where = f"editions[{number}]"
        year, starts, named = table.get("year"), table.get("starts"), table.get("source")
        if not isinstance(year, int) or isinstance(year, bool) or not 1900 <= year <= 2100:
            problems.append(InputProblem(source, None, where, "year", f"{year!r} is not a year"))
            continue
        if not isinstance(starts, dt.date) or isinstance(starts, dt.datetime) \
                or starts.year != year:
            problems.append(InputProblem(source, None, where, "starts",
                                         f"{starts!r} is not a date of {year}"))
        elif not isinstance(named, str) or not named.strip():
            problems.append(InputProblem(source, None, where, "source",
                                         "a date needs the source that publishes it"))
        else:
            dates[year] = starts
    if problems:
        raise InputError(problems)
    return dates


def edition_sizes_file(path: Path) -> dict[tuple[int, str, str], tuple[int, ...]]:
    """An editions file read from disk."""
    return read_edition_sizes(path.read_text(encoding="utf-8"), source=str(path))


@dataclass(frozen=True)
class PiecesWarning:
    """Rows of one round that placed more pieces than the round's puzzles have: the size taken
    for the round is then wrong (the 2019 teams final: up to 4,897 pieces against 2000)."""

    source: str
    year: int
    event: str
    round: str
    rows: tuple[int, ...]
    most: int
    puzzles: tuple[int, ...]

    def __str__(self) -> str:
        rows = ", ".join(str(r) for r in self.rows[:3]) + (", ..." if len(self.rows) > 3 else "")
        return (f"{self.source}, rows {rows}, field pieces: {len(self.rows)} rows of "
                f"{self.year} {self.event} {self.round} placed more than the "
                f"{' + '.join(str(p) for p in self.puzzles)} pieces of the rules (up to "
                f"{self.most}); the round is kept unsized: its results are shown, its times "
                "make no record or best by puzzle size")


def pieces_over_size(rows: Iterable[PublishedResult], sizes: ArchiveSizes, *, source: str,
                     ruleset: Ruleset) -> tuple[PiecesWarning, ...]:
    """The rounds some of whose rows placed more pieces than the round's puzzles have."""
    specs = {spec.id: spec for spec in ruleset.events}
    over: dict[tuple[int, str, str], list[PublishedResult]] = defaultdict(list)
    for row in rows:
        if row.event not in specs or row.pieces_placed is None:
            continue
        key = (row.year, row.event, round_of(specs[row.event], row.round).code)
        size = sum(sizes.puzzles.get(key, ()))
        if size and row.pieces_placed > size:
            over[key].append(row)
    return tuple(PiecesWarning(source, year, event, code, tuple(r.row for r in its),
                               round(max(r.pieces_placed or 0 for r in its)),
                               tuple(sizes.puzzles[(year, event, code)]))
                 for (year, event, code), its in sorted(over.items()))


def rules_sized(rows: Iterable[PublishedResult], *, source: str, ruleset: Ruleset,
                editions: EditionSizes = NO_EDITIONS) -> list[PublishedResult]:
    """The rows with the puzzle size the rules (or `editions`) give their round, as the archive
    stores them: what a rating from a results file should read (the file's is a guess)."""
    rows = list(rows)
    specs = {spec.id: spec for spec in ruleset.events}
    puzzles = archive_sizes(rows, source=source, ruleset=ruleset, editions=editions).puzzles
    return [dataclasses.replace(row, puzzle_pieces=sum(
        puzzles[(row.year, row.event, round_of(specs[row.event], row.round).code)]))
        if row.event in specs else row for row in rows]
