"""Namesakes in published results: one person id in two entries of one round (docs/archive.md).

The source matches people by name (../shared/data/README.md), so two people of one name share
an id: up to 16 teams of one WJPC round name the same person. The rulebook allows one entry per
person and category (wjpc-2025.txt, Registration), so a person id in two entries of one round
is two people. The first entry keeps the id; each later one gets a person of its own, and
every such row is reported. Their histories stay apart.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from puzzlecomp.formats.history_csv import PublishedResult

# Person.archive_id holds this many characters.
ARCHIVE_ID_LENGTH = 40


@dataclass(frozen=True)
class Namesake:
    """A row naming a person already in another entry of the same round."""

    source: str
    row: int
    entrant: str
    person: str
    other_entrant: str
    other_row: int
    kept_as: str

    def __str__(self) -> str:
        return (f"{self.source}, row {self.row}, entry {self.entrant}, field people: person "
                f"{self.person} is also in entrant {self.other_entrant} of this round (row "
                f"{self.other_row}): a namesake, kept apart as {self.kept_as}")


def namesake_id(person: str, row: PublishedResult) -> str:
    """The id of a namesake: the source's id, the edition, event and entrant (a digest of them
    where that is longer than an archive id may be)."""
    named = f"{person}~{row.year}-{row.event}-{row.entrant}"
    if len(named) <= ARCHIVE_ID_LENGTH:
        return named
    return f"{person[:20]}~{hashlib.sha256(named.encode()).hexdigest()[:16]}"


def namesakes_apart(rows: Sequence[PublishedResult], *, source: str,
                    round_code: Callable[[PublishedResult], str]
                    ) -> tuple[list[PublishedResult], list[Namesake]]:
    """The rows with every namesake given an id of its own, and the rows that had one.

    `round_code` names the round a row belongs to (first-round groups are one round).
    """
    first: dict[tuple[int, str, str, str], PublishedResult] = {}
    renamed: dict[tuple[int, str, str, str], str] = {}
    found: list[Namesake] = []
    for row in rows:
        for person in row.people:
            key = (row.year, row.event, round_code(row), person)
            held = first.setdefault(key, row)
            if held.entrant != row.entrant and (row.year, row.event, row.entrant,
                                                person) not in renamed:
                kept_as = namesake_id(person, row)
                renamed[(row.year, row.event, row.entrant, person)] = kept_as
                found.append(Namesake(source, row.row, row.entrant, person, held.entrant,
                                      held.row, kept_as))
    if not renamed:
        return list(rows), found
    return [dataclasses.replace(row, people=tuple(
        renamed.get((row.year, row.event, row.entrant, person), person) for person in row.people))
        for row in rows], found
