"""Read a championship's round results: a folder of EVENT/ROUND.csv files, or one JSON document.

Both forms are documented in docs/standings-and-awards.md. Every row is the same as a row of
`puzzlecomp rank` input; problems are reported with file (or JSON path), row, entry and field.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from puzzlecomp.formats.json_objects import given_twice, json_object, repeated_keys
from puzzlecomp.formats.results_csv import (
    COLUMNS,
    NOTHING_GIVEN,
    InputError,
    InputProblem,
    ResultRow,
    parse_results,
)
from puzzlecomp.rules.conditions import Value
from puzzlecomp.rules.people import Person
from puzzlecomp.rules.results import Entry
from puzzlecomp.rules.ruleset import Event, Ruleset

JSON_FORMAT = "puzzlecomp-results"
JSON_VERSION = 1


@dataclass(frozen=True)
class RoundSource:
    """One round's results as CSV text, with where they came from."""

    event_id: str
    round_id: str
    source: str
    text: str
    # The row number reported for the first result: 2 in a CSV file (after the header), 1 in JSON.
    first_row: int
    # The (row, field) of each JSON value already reported as no cell (an object or a list),
    # so the CSV reader's lines about the blank left in its place are not said twice.
    reported_cells: frozenset[tuple[int, str]] = frozenset()


@dataclass(frozen=True)
class Championship:
    """A championship's results as read, before they are checked against a ruleset."""

    source: str
    ruleset_id: str | None
    settings: Mapping[str, Value]
    rounds: tuple[RoundSource, ...]


@dataclass(frozen=True)
class RoundResults:
    """The parsed rows of one round of the event, entrant facts merged across rounds."""

    round_id: str
    source: str
    rows: list[ResultRow]


def read_championship(path: Path) -> Championship:
    """Read a folder of EVENT/ROUND.csv files or a .json document; raises InputError."""
    championship, problems = read_championship_as_far_as_it_goes(path)
    if problems:
        raise InputError(problems)
    return championship


def read_championship_as_far_as_it_goes(path: Path) -> tuple[Championship, list[InputProblem]]:
    """A folder or .json document as far as it reads, with the problems found so far, so the
    caller can add the rounds' own problems to the same run. A file that is no results
    document at all (unreadable, not JSON, another format or version) raises InputError."""
    if path.is_dir():
        return _read_folder(path)
    if path.suffix.lower() == ".json":
        return _read_json(path)
    raise InputError(
        [InputProblem(str(path), None, "", "", "expected a folder of EVENT/ROUND.csv or a .json")]
    )


def event_rounds_that_read(
    championship: Championship, ruleset: Ruleset, event: Event
) -> tuple[list[RoundResults], list[InputProblem]]:
    """The event's rounds in ruleset order with the rows that parse, and every problem of the
    others, so the rows that read can be ranked in the same run.

    Unknown events and rounds are problems. Entrant facts (name, country, birth year, residence...)
    blank in one round are taken from the latest round that gives them.
    """
    problems: list[InputProblem] = []
    known_events = {e.id for e in ruleset.events}
    order = {rnd.id: index for index, rnd in enumerate(event.rounds)}
    # Subcategory tiebreakers come after the final, one file each (tiebreaker-junior-18).
    order.update({round_id: len(order) for round_id in tiebreaker_rounds(event)})
    chosen: list[RoundSource] = []
    for round_source in championship.rounds:
        if round_source.event_id not in known_events:
            problems.append(
                InputProblem(
                    round_source.source,
                    None,
                    "",
                    "event",
                    f"ruleset {ruleset.id} has no event {round_source.event_id!r}; "
                    f"known: {', '.join(sorted(known_events))}",
                )
            )
        elif round_source.event_id == event.id:
            if round_source.round_id in order:
                chosen.append(round_source)
            else:
                problems.append(
                    InputProblem(
                        round_source.source,
                        None,
                        "",
                        "round",
                        f"event {event.id} of {ruleset.id} has no round "
                        f"{round_source.round_id!r}; known: {', '.join(order)}",
                    )
                )
    if not chosen and not problems:
        problems.append(
            InputProblem(championship.source, None, "", "event", f"no results for event {event.id}")
        )
    chosen.sort(key=lambda r: order[r.round_id])
    parsed: list[RoundResults] = []
    for round_source in chosen:
        # parse_results numbers the first result row 2 (after the header); JSON rows count from 1.
        shift = round_source.first_row - 2
        rows, unread = parse_results(round_source.text, source=round_source.source,
                                     puzzles=_puzzle_count(event, round_source.round_id))
        problems.extend(
            replace(p, row=p.row + shift) if p.row is not None else p
            for p in unread
            if not _said_already(p, round_source.reported_cells, shift)
        )
        # The rows that read are still ranked, for their own problems in the same run.
        rows = [replace(row, row=row.row + shift) for row in rows]
        parsed.append(RoundResults(round_source.round_id, round_source.source, rows))
    return _with_merged_entrants(parsed), problems


def _said_already(problem: InputProblem, reported: frozenset[tuple[int, str]],
                  shift: int) -> bool:
    """Whether the reader's problem is only the blank left by a JSON value already reported:
    the same row and field, or "nothing given" on a row whose result value was reported."""
    if problem.row is None or not reported:
        return False
    row = problem.row + shift
    if (row, problem.field) in reported:
        return True
    return problem.message == NOTHING_GIVEN and any(
        r == row and field in COLUMNS for r, field in reported
    )


def _puzzle_count(event: Event, round_id: str) -> int | None:
    """The round's number of puzzles; None for a tiebreaker (not a round of the ruleset)."""
    spec = next((r for r in event.rounds if r.id == round_id), None)
    return len(spec.puzzle_sizes) if spec is not None else None


def tiebreaker_rounds(event: Event) -> dict[str, str]:
    """The round id of each subcategory's tiebreaker results ("tiebreaker-junior-18"), with the
    subcategory it decides."""
    rule = event.subcategory_tiebreaker
    if rule is None:
        return {}
    return {f"{rule.round.id}-{s.id}": s.id for s in event.subcategories}


def _read_folder(folder: Path) -> tuple[Championship, list[InputProblem]]:
    """The folder's round files that read, with a problem for each file that is not one
    (a stray file, a nested folder, a file that is not UTF-8): every problem in one run."""
    rounds: list[RoundSource] = []
    problems: list[InputProblem] = []
    for path in sorted(folder.rglob("*.csv")):
        relative = path.relative_to(folder)
        if any(part.startswith(".") for part in relative.parts):
            continue
        if len(relative.parts) != 2:
            problems.append(
                InputProblem(str(path), None, "", "", "expected EVENT/ROUND.csv in the folder")
            )
            continue
        try:
            text = path.read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as exc:
            problems.append(InputProblem(str(path), None, "", "", f"cannot read: {exc}"))
            continue
        rounds.append(RoundSource(relative.parts[0], path.stem, str(path), text, first_row=2))
    return Championship(str(folder), None, {}, tuple(rounds)), problems


def _read_json(path: Path) -> tuple[Championship, list[InputProblem]]:
    source = str(path)
    try:
        document = json.loads(path.read_text(encoding="utf-8-sig"), object_pairs_hook=json_object)
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError([InputProblem(source, None, "", "", f"cannot read: {exc}")]) from exc
    except json.JSONDecodeError as exc:
        message = f"not valid JSON (line {exc.lineno}, column {exc.colno}): {exc.msg}"
        raise InputError([InputProblem(source, None, "", "", message)]) from exc
    reader = _JsonReader(source)
    championship = reader.championship(document)
    # Only a document that is no results document at all stops here; a bad row, round or
    # setting is reported with the rounds' own problems in the same run.
    if reader.not_a_results_document:
        raise InputError(reader.problems)
    return championship, reader.problems


class _JsonReader:
    def __init__(self, source: str) -> None:
        self.source = source
        self.problems: list[InputProblem] = []
        self.not_a_results_document = False

    def problem(
        self,
        message: str,
        *,
        path: str = "",
        row: int | None = None,
        entry: str = "",
        field: str = "",
    ) -> None:
        source = f"{self.source} {path}" if path else self.source
        self.problems.append(InputProblem(source, row, entry, field, message))

    def championship(self, document: Any) -> Championship:
        if not isinstance(document, dict):
            self.problem("the document must be a JSON object")
            self.not_a_results_document = True
            return Championship(self.source, None, {}, ())
        if document.get("format") != JSON_FORMAT:
            self.problem(f'expected "format": "{JSON_FORMAT}"', field="format")
            self.not_a_results_document = True
        if document.get("version") != JSON_VERSION:
            self.problem(f'expected "version": {JSON_VERSION}', field="version")
            self.not_a_results_document = True
        ruleset_id = document.get("ruleset")
        if ruleset_id is not None and not isinstance(ruleset_id, str):
            self.problem("the ruleset must be a ruleset id (text)", field="ruleset")
            ruleset_id = None
        return Championship(
            self.source,
            ruleset_id,
            self.settings(document.get("settings", {})),
            tuple(self.rounds(document.get("events"))),
        )

    def settings(self, value: Any) -> dict[str, Value]:
        if not isinstance(value, dict):
            self.problem("settings must be an object of NAME: value", field="settings")
            return {}
        settings: dict[str, Value] = {}
        for name, first, later in repeated_keys(value):
            self.problem(given_twice(name, first, later), path="settings", field=name)
        for name, setting in value.items():
            if isinstance(setting, str | int | bool):
                settings[name] = setting
            else:
                self.problem(
                    "a setting must be text, a number or true/false", field=f"settings.{name}"
                )
        return settings

    def rounds(self, events: Any) -> list[RoundSource]:
        if not isinstance(events, dict):
            self.problem("events must be an object of EVENT: {rounds: ...}", field="events")
            return []
        rounds: list[RoundSource] = []
        for event_id, event in events.items():
            round_map = event.get("rounds") if isinstance(event, dict) else None
            if not isinstance(round_map, dict):
                self.problem("an event must be an object with rounds", field=f"events.{event_id}")
                continue
            for round_id, rows in round_map.items():
                path = f"events.{event_id}.rounds.{round_id}"
                if not isinstance(rows, list):
                    self.problem("a round must be a list of result rows", field=path)
                    continue
                text, reported = self.csv_text(path, rows)
                rounds.append(
                    RoundSource(event_id, round_id, f"{self.source} {path}", text, first_row=1,
                                reported_cells=frozenset(reported))
                )
        return rounds

    def csv_text(self, path: str, rows: Sequence[Any]) -> tuple[str, set[tuple[int, str]]]:
        """The rows as CSV text with a header of every key, for the results CSV reader, with
        the (row, field) of each value reported here as no cell."""
        reported: set[tuple[int, str]] = set()
        columns: dict[str, None] = {}
        for row in rows:
            if isinstance(row, dict):
                columns.update(dict.fromkeys(str(key) for key in row))
        columns.setdefault("entry", None)
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=list(columns), lineterminator="\n")
        writer.writeheader()
        for number, row in enumerate(rows, start=1):
            if not isinstance(row, dict):
                self.problem(f"a result row must be an object, not {_as_json(row)}",
                             path=path, row=number)
                row = {}
            entry = row.get("entry")
            cells = {}
            for key, value in row.items():
                if isinstance(value, dict | list):
                    self.problem(
                        f"expected text, a number or true/false, not {_as_json(value)}",
                        path=path,
                        row=number,
                        entry="" if isinstance(entry, dict | list) else _cell(entry),
                        field=str(key),
                    )
                    reported.add((number, str(key)))
                    value = None
                cells[str(key)] = _cell(value)
            # Blank rows are written too (and skipped by the reader) so row numbers stay right.
            writer.writerow(cells)
        return out.getvalue(), reported


def _as_json(value: Any) -> str:
    """A value as the document writes it (JSON), not as Python prints it."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else f"{text[:57]}..."


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _with_merged_entrants(rounds: list[RoundResults]) -> list[RoundResults]:
    """Fill each entry's facts from the latest round that gives them (rounds in ruleset order)."""
    history: dict[str, list[ResultRow]] = {}
    for round_results in rounds:
        for row in round_results.rows:
            history.setdefault(row.entry.id, []).append(row)
    merged = {entry_id: _merged_entry(rows) for entry_id, rows in history.items()}
    return [
        replace(
            round_results,
            rows=[
                replace(row, entry=replace(merged[row.entry.id], group=row.entry.group))
                for row in round_results.rows
            ],
        )
        for round_results in rounds
    ]


def _merged_entry(rows: Sequence[ResultRow]) -> Entry:
    latest = rows[-1].entry
    newest_first = [row.entry for row in reversed(rows)]
    same_size = [e.members for e in newest_first if len(e.members) == len(latest.members)]
    members = tuple(
        Person(
            **{
                f.name: next(
                    (getattr(m[i], f.name) for m in same_size if getattr(m[i], f.name) is not None),
                    None,
                )
                for f in fields(Person)
            }
        )
        for i in range(len(latest.members))
    )
    return replace(
        latest,
        name=next((e.name for e in newest_first if e.name), ""),
        country=next((e.country for e in newest_first if e.country), ""),
        members=members,
    )
