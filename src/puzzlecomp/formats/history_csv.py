"""Read published results of past editions (the format of ../shared/data, docs/seeding.md).

One row per entrant and round: year, division, round, rank, entrant, country, completed,
time_seconds, pieces, puzzle_pieces, time_limit_seconds, people. Problems are named by row
and field; a file with any problem yields nothing.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from puzzlecomp.formats.member_checks import entry_member_problems, member_ids
from puzzlecomp.formats.results_csv import InputError, InputProblem, csv_records
from puzzlecomp.planning.rating import PastResult
from puzzlecomp.rules import limits
from puzzlecomp.rules.contradictions import check_contradictions
from puzzlecomp.rules.results import Result, Status

# The published divisions and the events they are: WJPC says solo, duo and group.
EVENT_OF_DIVISION = {
    "solo": "individual",
    "duo": "pairs",
    "group": "teams",
    "individual": "individual",
    "pairs": "pairs",
    "teams": "teams",
}
TRUE, FALSE = ("true", "yes", "1"), ("false", "no", "0")


@dataclass(frozen=True)
class PublishedResult:
    """One row of a published results file, checked."""

    row: int
    year: int
    event: str
    round: str
    rank: int
    entrant: str
    country: str
    completed: bool
    time_seconds: float | None
    pieces_placed: float | None
    puzzle_pieces: int
    time_limit_seconds: int
    people: tuple[str, ...]
    # Ids the row listed, a repeated one counted each time (two people of one name share an id).
    members_listed: int | None = None

    def past_result(self) -> PastResult:
        """The row as the rating sees it."""
        return PastResult(
            edition=self.year,
            round=self.round,
            people=self.people,
            completed=self.completed,
            time_seconds=self.time_seconds,
            pieces_placed=self.pieces_placed,
            puzzle_pieces=self.puzzle_pieces,
            time_limit_seconds=self.time_limit_seconds,
        )


def read_history(text: str, *, source: str) -> list[PublishedResult]:
    """Parse a published results file; raises InputError listing every bad row and field."""
    rows, problems = history_rows(text, source=source)
    if problems:
        raise InputError(problems)
    return rows


def history_rows(text: str, *, source: str) -> tuple[list[PublishedResult], list[InputProblem]]:
    """The rows of a published results file that parse, and every problem of every row, so a
    caller can add its own checks of the parsed rows to the same run. A header without the
    people column is refused at once (InputError): no row can be read without it."""
    rows: list[PublishedResult] = []
    problems: list[InputProblem] = []
    records = list(csv_records(text, source=source, key="entrant"))
    # A column the header lacks is one problem naming it, not one per row; every other check
    # of the rows still runs (a row without its year or another required value does not parse,
    # so the archive's row checks run on the rows that do).
    absent = {name for name in REQUIRED_COLUMNS if records and name not in records[0][1]}
    for name in REQUIRED_COLUMNS:
        if name in absent:
            problems.append(InputProblem(source, 1, "", name, _ABSENT.get(
                name, f"the header has no {name} column")))
    for number, values in records:
        parser = _RowParser(source, number, values, absent=absent)
        row = parser.parse()
        problems.extend(parser.problems)
        if row is not None:
            bounds = out_of_bounds(row, source=source)
            problems.extend(bounds)
            if not bounds:
                rows.append(row)  # a row past a bound is named once, and checked no further
    return rows, problems


# The columns every row needs (country and pieces may be left out: blank).
REQUIRED_COLUMNS = ("year", "division", "round", "rank", "entrant", "completed", "time_seconds",
                    "puzzle_pieces", "time_limit_seconds", "people")
_ABSENT = {"people": "the header has no people column: without the members' person ids nobody "
                     "can be rated or archived (docs/seeding.md)"}


def past_results(rows: Iterable[PublishedResult], *, event: str) -> list[PastResult]:
    """The rows of one event that name their people, as the rating sees them."""
    return [row.past_result() for row in rows if row.event == event and row.people]


class _RowParser:
    def __init__(self, source: str, row: int, values: dict[str, str], *,
                 absent: set[str] | None = None) -> None:
        self.source = source
        # The columns the header lacks: named once by history_rows, not on every row.
        self.absent = absent or set()
        self.row = row
        self.values = values
        self.entrant = values.get("entrant", "")
        self.problems: list[InputProblem] = []
        # Every cell is one line of plain text: PostgreSQL stores no NUL, and no name, country
        # or id holds a tab or a control character. One problem per such cell.
        self.unplain = {name for name, value in values.items()
                        if not limits.is_plain_line(value)}
        if "entrant" in self.unplain:
            self.entrant = ""
        for name in sorted(self.unplain):
            self.problems.append(InputProblem(
                source, row, "", name,
                "holds a line break, a tab or another control character: type it as plain text"))

    def problem(self, field: str, message: str) -> None:
        if field in self.unplain or field in self.absent:
            return
        self.problems.append(InputProblem(self.source, self.row, self.entrant, field, message))

    def required(self, name: str) -> str:
        text = self.values.get(name, "")
        if not text:
            self.problem(name, f"the {name} is blank")
        return text

    def number(self, name: str, *, whole: bool, blank_ok: bool = False) -> float | None:
        text = self.values.get(name, "")
        if not text:
            if not blank_ok:
                self.problem(name, f"the {name} is blank")
            return None
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not value >= 0 or (whole and not value.is_integer()):
            kind = "a whole number" if whole else "a number"
            self.problem(name, f"{text!r} is not {kind} of zero or more")
            return None
        return value

    def parse(self) -> PublishedResult | None:
        year = self.number("year", whole=True)
        division = self.required("division").lower()
        event = EVENT_OF_DIVISION.get(division)
        if division and event is None:
            known = ", ".join(sorted(EVENT_OF_DIVISION))
            self.problem("division", f"{division!r} is not a division (one of: {known})")
        rnd = self.required("round")
        rank = self.number("rank", whole=True)
        self.required("entrant")
        completed = self.flag("completed")
        time_seconds = self.number("time_seconds", whole=False, blank_ok=not completed)
        if completed and time_seconds == 0:
            self.problem("time_seconds", "a finisher's time must be more than zero")
        pieces = self.number("pieces", whole=False, blank_ok=True)
        if completed is not None:
            self.contradictions(completed, time_seconds, pieces)
        puzzle_pieces = self.positive("puzzle_pieces")
        time_limit = self.positive("time_limit_seconds")
        # The source gives two people of one name one id; within an entry it counts once.
        listed = member_ids(self.values.get("people", ""))
        for message in entry_member_problems(self.values.get("people", ""), None, history=True):
            self.problem("people", message)
        people = tuple(dict.fromkeys(p for p in listed if p))
        if (
            self.problems
            or self.absent - {"people"}
            or year is None
            or event is None
            or rank is None
            or completed is None
            or puzzle_pieces is None
            or time_limit is None
        ):
            return None
        return PublishedResult(
            row=self.row,
            year=int(year),
            event=event,
            round=rnd,
            rank=int(rank),
            entrant=self.entrant,
            country=self.values.get("country", ""),
            completed=completed,
            time_seconds=time_seconds if completed else None,
            pieces_placed=None if completed else (pieces or 0.0),
            puzzle_pieces=puzzle_pieces,
            time_limit_seconds=time_limit,
            people=people,
            members_listed=len(listed),
        )

    def contradictions(self, completed: bool, time_seconds: float | None,
                       pieces: float | None) -> None:
        """A row that says two things at once is refused as the engine refuses the record
        (rules/contradictions.py), not stored with one of its facts dropped: a finisher with a
        pieces count, an unfinished entry with a time. A blank count on an unfinished row
        stays allowed (the published pages leave it blank for nobody in ../shared/data, and an
        archived round ranks it as no pieces placed)."""
        # Only which facts are given counts here; their bounds are checked by out_of_bounds.
        record = Result(
            Status.FINISHED if completed else Status.UNFINISHED,
            time=None if time_seconds is None else 1,
            pieces=None if pieces is None else 0,
        )

        def bad(code: str, field: str, message: str, **_: object) -> None:
            column = {"time": "time_seconds"}.get(field, field)
            self.problem(column, f"{message} (completed is {completed}; {code})")

        check_contradictions(record, bad)

    def flag(self, name: str) -> bool | None:
        text = self.required(name).lower()
        if text in TRUE:
            return True
        if text in FALSE:
            return False
        if text:
            self.problem(name, f"{text!r} is not True or False")
        return None

    def positive(self, name: str) -> int | None:
        value = self.number(name, whole=True)
        if value == 0:
            self.problem(name, f"the {name} must be more than zero")
            return None
        return None if value is None else int(value)



# Every number of a row and its domain bound (rules/limits.py): a year that is no date, a
# time of 10^30 seconds or a puzzle of 10^9 pieces is refused before anything stores it.
BOUNDS = {
    "year": (limits.MIN_YEAR, limits.MAX_YEAR),
    "rank": (1, limits.MAX_ENTRIES),
    "time_seconds": (0, limits.MAX_SECONDS),
    "pieces_placed": (0, limits.MAX_PIECES),
    "puzzle_pieces": (1, limits.MAX_PIECES),
    "time_limit_seconds": (1, limits.MAX_SECONDS),
}
# The file's column of each field, where it is named otherwise.
COLUMN = {"pieces_placed": "pieces"}


def out_of_bounds(row: PublishedResult, *, source: str) -> list[InputProblem]:
    """One problem per number of the row outside its bound, and for an entry of more people
    than any team has (at most limits.MAX_MEMBERS; the rulebooks' teams have four)."""
    problems = [
        InputProblem(source, row.row, row.entrant, COLUMN.get(name, name),
                     f"{value:g} is out of range ({low} to {high})")
        for name, (low, high) in BOUNDS.items()
        if (value := getattr(row, name)) is not None and not low <= value <= high
    ]
    if len(row.people) > limits.MAX_MEMBERS:
        problems.append(InputProblem(source, row.row, row.entrant, "people",
                                     f"{len(row.people)} people in one entry; at most "
                                     f"{limits.MAX_MEMBERS}"))
    return problems
