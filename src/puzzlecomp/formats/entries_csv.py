"""Read entry lists for planning (groups, seating) from CSV, problems named by row and field."""

from __future__ import annotations

from dataclasses import dataclass

from puzzlecomp.formats.results_csv import InputError, InputProblem, csv_records
from puzzlecomp.rules import limits


@dataclass(frozen=True)
class EntryRow:
    """An entry as the planning commands read it; the `advance` output is accepted as is."""

    row: int
    entry: str
    name: str
    country: str
    seed_rank: int | None
    # Where the entry comes from (a previous round's group and place), and where it goes.
    previous_group: str | None
    previous_place: int | None
    to_group: str
    # The person ids of the members in a history of past results (`;` between members).
    people: tuple[str, ...] = ()


def read_entries(text: str, *, source: str) -> list[EntryRow]:
    """Parse an entry list; raises InputError listing every bad row and field."""
    rows: list[EntryRow] = []
    problems: list[InputProblem] = []
    seen: set[str] = set()
    for number, values in csv_records(text, source=source):
        entry = values.get("entry", "")

        def whole(
            name: str, entry: str = entry, number: int = number, values: dict[str, str] = values
        ) -> int | None:
            text = values.get(name, "")
            if not text:
                return None
            # ASCII digits only: "²" is a digit to str.isdigit but no number to int().
            if not (text.isascii() and text.isdigit()):
                problems.append(
                    InputProblem(source, number, entry, name, f"{text!r} is not a whole number")
                )
                return None
            if int(text) > limits.MAX_ENTRIES:
                problems.append(InputProblem(source, number, entry, name,
                                             f"{text} is more than {limits.MAX_ENTRIES}"))
                return None
            return int(text)

        if not entry:
            problems.append(InputProblem(source, number, "", "entry", "the entry id is blank"))
        elif entry in seen:
            problems.append(
                InputProblem(source, number, entry, "entry", f"entry {entry} appears twice")
            )
        seen.add(entry)
        rows.append(
            EntryRow(
                row=number,
                entry=entry,
                name=values.get("name", ""),
                country=values.get("country", ""),
                seed_rank=whole("seed_rank"),
                previous_group=values.get("previous_group") or values.get("group") or None,
                previous_place=whole("previous_place")
                if values.get("previous_place")
                else whole("rank"),
                to_group=values.get("to_group", ""),
                people=tuple(p.strip() for p in values.get("person", "").split(";") if p.strip()),
            )
        )
    if problems:
        raise InputError(problems)
    return rows
