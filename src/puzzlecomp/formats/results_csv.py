"""Read a round's results from CSV: one row per entry, problems named by row, entry and field."""

from __future__ import annotations

import csv
import dataclasses
import io
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from puzzlecomp.rules.people import Person, split_members
from puzzlecomp.rules.results import (
    NO_MISSING,
    Entry,
    MissingPieces,
    PuzzleRecord,
    Result,
    Status,
)
from puzzlecomp.rules.times import parse_time

# A person's columns are the fields of the engine's Person, joined by "/" per member.
PERSON_COLUMNS = tuple(field.name for field in dataclasses.fields(Person))
COLUMNS = (
    "entry", "name", "country", "group", "status", "time", "pieces", "remaining", "missing",
    "missing_contiguous", "missing_found", "time_credit", *PERSON_COLUMNS,
)
# The line for a row that gives no result at all.
NOTHING_GIVEN = "no status, time or count given"
PUZZLE_COLUMNS = ("time", "pieces", "remaining", "missing", "missing_contiguous", "missing_found")


@dataclass(frozen=True)
class InputProblem:
    """A problem in an input file, located for a person to fix."""

    source: str
    row: int | None
    entry: str
    field: str
    message: str

    def __str__(self) -> str:
        where = [self.source]
        if self.row is not None:
            where.append(f"row {self.row}")
        if self.entry:
            where.append(f"entry {self.entry}")
        if self.field:
            where.append(f"field {self.field}")
        return f"{', '.join(where)}: {self.message}"


class InputError(Exception):
    """An input file has problems; nothing was produced from it."""

    def __init__(self, problems: Sequence[InputProblem]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in problems))


@dataclass(frozen=True)
class ResultRow:
    row: int
    entry: Entry
    result: Result


def read_results(text: str, *, source: str, puzzles: int | None = None) -> list[ResultRow]:
    """Parse results CSV text; raises InputError listing every bad row and field."""
    rows, problems = parse_results(text, source=source, puzzles=puzzles)
    if problems:
        raise InputError(problems)
    return rows


def csv_records(
    text: str, *, source: str, key: str = "entry"
) -> Iterator[tuple[int, dict[str, str]]]:
    """(spreadsheet row number, trimmed values by lower-case column) of every non-blank row.

    Raises InputError for a file with no header or no `key` column.
    """
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    if reader.fieldnames is None:
        raise InputError([InputProblem(source, None, "", "", "the file is empty")])
    reader.fieldnames = [name.strip().lower() for name in reader.fieldnames]
    if key not in reader.fieldnames:
        raise InputError([InputProblem(source, 1, "", key, f"the header has no {key} column")])
    for number, raw in enumerate(reader, start=2):
        values = {k: (v or "").strip() for k, v in raw.items() if k is not None}
        if any(values.values()):
            yield number, values


def parse_results(text: str, *, source: str, puzzles: int | None = None,
                  ) -> tuple[list[ResultRow], list[InputProblem]]:
    """The rows that parse, and a problem for every bad row and field of the others.

    `puzzles` is the round's number of puzzles when known: a puzzle column beyond it (`time_3`
    in a two-puzzle round, `time_2` in a one-puzzle round) is refused when it holds a value and
    ignored when blank.
    """
    rows: list[ResultRow] = []
    problems: list[InputProblem] = []
    try:
        records = list(csv_records(text, source=source))
    except InputError as exc:
        return [], exc.problems
    for number, values in records:
        parser = _RowParser(source, number, values, puzzles)
        parsed = parser.parse()
        problems.extend(parser.problems)
        if parsed is not None:
            rows.append(parsed)
    return rows, problems


class _RowParser:
    def __init__(self, source: str, row: int, values: dict[str, str],
                 puzzles: int | None = None) -> None:
        self.source = source
        self.row = row
        # Puzzle columns past the round's puzzles that hold a value, with the round's count.
        self.beyond: list[tuple[str, int]] = []
        self.values = _within_round(values, puzzles, self.beyond)
        self.entry = values.get("entry", "")
        self.problems: list[InputProblem] = []
        for field, count in self.beyond:
            self.problem(field, f"the round has {count} puzzle{'s' if count > 1 else ''}: "
                         f"{field} holds {values[field]!r}")

    def problem(self, field: str, message: str) -> None:
        self.problems.append(InputProblem(self.source, self.row, self.entry, field, message))

    def text(self, name: str) -> str | None:
        return self.values.get(name) or None

    def number(self, name: str) -> int | None:
        value = self.text(name)
        if value is None:
            return None
        try:
            return int(float(value)) if float(value).is_integer() else int(value)
        except ValueError:
            self.problem(name, f"{value!r} is not a whole number")
            return None

    def time(self, name: str) -> int | None:
        value = self.text(name)
        if value is None:
            return None
        try:
            return parse_time(value)
        except ValueError as exc:
            self.problem(name, str(exc))
            return None

    def parse(self) -> ResultRow | None:
        if not self.entry:
            self.problem("entry", "the entry id is blank")
        status = self._status()
        puzzles = self._puzzles()
        missing = self._missing("")
        result = Result(
            status=status or Status.DNF,
            time=self.time("time"),
            pieces=self.number("pieces"),
            remaining=self.number("remaining"),
            missing=missing,
            time_credit=self.time("time_credit") or 0,
            puzzles=puzzles,
        )
        entry = Entry(
            id=self.entry,
            name=self.values.get("name", ""),
            country=self.values.get("country", ""),
            group=self.values.get("group", ""),
            members=self._members(),
        )
        if self.problems or status is None:
            return None
        return ResultRow(self.row, entry, result)

    def _status(self) -> Status | None:
        value = (self.text("status") or "").lower()
        if not value:
            # A blank status follows from what was recorded.
            if self.text("time") or self.text("time_1"):
                return Status.FINISHED
            if any(self.text(n) for n in ("pieces", "remaining", "pieces_1", "remaining_1")):
                return Status.UNFINISHED
            if self.beyond:
                return None  # the columns beyond the round's puzzles are named above
            self.problem("status", NOTHING_GIVEN)
            return None
        try:
            return Status(value)
        except ValueError:
            known = ", ".join(s.value for s in Status)
            self.problem("status", f"unknown status {value!r}; known: {known}")
            return None

    def _missing(self, suffix: str) -> MissingPieces:
        missing = MissingPieces(
            missing=self.number(f"missing{suffix}") or 0,
            contiguous=self.number(f"missing_contiguous{suffix}") or 0,
            found=self.number(f"missing_found{suffix}") or 0,
        )
        return NO_MISSING if missing == NO_MISSING else missing

    def _puzzles(self) -> tuple[PuzzleRecord, ...]:
        records = []
        index = 1
        while any(f"{name}_{index}" in self.values for name in PUZZLE_COLUMNS):
            suffix = f"_{index}"
            records.append(
                PuzzleRecord(
                    time=self.time(f"time{suffix}"),
                    pieces=self.number(f"pieces{suffix}"),
                    remaining=self.number(f"remaining{suffix}"),
                    missing=self._missing(suffix),
                )
            )
            index += 1
        if records and all(r == PuzzleRecord() for r in records):
            return ()
        return tuple(records)

    def _members(self) -> tuple[Person, ...]:
        country = self.values.get("country", "")
        raw = {name: self.values.get(name, "") for name in PERSON_COLUMNS}
        # Nationality and residence default to the entry's country.
        raw["nationality"] = raw["nationality"] or country
        raw["residence"] = raw["residence"] or country
        count = self._member_count({"country": country, **raw})
        if count is None:
            return (Person(),)
        split = {name: split_members(value, count) for name, value in raw.items()}
        people = []
        for i in range(count):
            people.append(
                Person(
                    nationality=split["nationality"][i],
                    residence=split["residence"][i],
                    region=split["region"][i],
                    years_resident=self._int_part("years_resident", split["years_resident"][i]),
                    birth_year=self._int_part("birth_year", split["birth_year"][i]),
                    debutant=self._bool_part("debutant", split["debutant"][i]),
                    first_state_competition_of_year=self._bool_part(
                        "first_state_competition_of_year",
                        split["first_state_competition_of_year"][i],
                    ),
                )
            )
        return tuple(people)

    def _member_count(self, columns: dict[str, str]) -> int | None:
        """Members the row lists; None (and a problem per column) when columns disagree.

        A column of one value applies to every member.
        """
        counts = {name: len(value.split("/")) for name, value in columns.items() if value}
        listed = [count for count in counts.values() if count > 1]
        if not listed:
            return 1
        members = listed[0]
        disagreeing = [name for name, count in counts.items() if count not in (1, members)]
        for name in disagreeing:
            self.problem(name, f"{counts[name]} values separated by /, but "
                         f"{next(n for n in counts if counts[n] == members)} lists {members} "
                         "members")
        return None if disagreeing else members

    def _int_part(self, name: str, value: str | None) -> int | None:
        if value is None:
            return None
        # ASCII digits only: "²" is a digit to str.isdigit but no number to int().
        if not (value.isascii() and value.isdigit()):
            self.problem(name, f"{value!r} is not a whole number")
            return None
        return int(value)

    def _bool_part(self, name: str, value: str | None) -> bool | None:
        if value is None:
            return None
        lowered = value.lower()
        if lowered in ("yes", "true", "1", "y"):
            return True
        if lowered in ("no", "false", "0", "n"):
            return False
        self.problem(name, f"{value!r} is not yes or no")
        return None


_PUZZLE_COLUMN = re.compile(rf"({'|'.join(PUZZLE_COLUMNS)})_(\d+)")


def _within_round(values: dict[str, str], puzzles: int | None,
                  beyond: list[tuple[str, int]]) -> dict[str, str]:
    """The row's values without the puzzle columns past the round's `puzzles` (None: unknown);
    each such column holding a value is added to `beyond` with the count."""
    if puzzles is None:
        return values
    kept = {}
    for name, value in values.items():
        found = _PUZZLE_COLUMN.fullmatch(name)
        if found and int(found[2]) > puzzles:
            if value:
                beyond.append((name, puzzles))
        else:
            kept[name] = value
    return kept
