"""Namesakes in published results: one person id in two entries of one round (docs/archive.md).

The source matches people by name (../shared/data/README.md), so two people of one name share
an id: up to 16 teams of one WJPC round name the same person. The rulebook allows one entry per
person and category (wjpc-2025.txt, Registration), so a person id in two entries of one round
is two people. So is a person id in two entries of one event of one edition whose members
differ (a pair in the first round, another pair with the same id in the final: 15 ids of the
WJPC data); the same members under another entrant id in a later round are one entry's people
(the 2024 and 2025 teams finals renumbered their teams). So is an entry that appears only in
later rounds and shares a member with a first-round entry whose rows stop there: the source
renumbered that entry between rounds (the 2024 pairs semifinal and final), even where another
member is named. The first entry keeps the id; each
later one gets a person of its own, and every such row is reported. Their histories stay apart.
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
    # "round": two entries of one round; "edition": two entries of one event and edition
    # with other members.
    scope: str = "round"

    def __str__(self) -> str:
        where = ("of this round" if self.scope == "round"
                 else "of this event and edition, with other members")
        return (f"{self.source}, row {self.row}, entry {self.entrant}, field people: person "
                f"{self.person} is also in entrant {self.other_entrant} {where} (row "
                f"{self.other_row}): a namesake, kept apart as {self.kept_as}")


def namesake_id(person: str, row: PublishedResult) -> str:
    """The id of a namesake: the source's id, the edition, event and entrant (a digest of them
    where that is longer than an archive id may be)."""
    named = f"{person}~{row.year}-{row.event}-{row.entrant}"
    if len(named) <= ARCHIVE_ID_LENGTH:
        return named
    return f"{person[:20]}~{hashlib.sha256(named.encode()).hexdigest()[:16]}"


def namesakes_apart(rows: Sequence[PublishedResult], *, source: str,
                    round_code: Callable[[PublishedResult], str],
                    round_position: Callable[[PublishedResult], int] | None = None,
                    ) -> tuple[list[PublishedResult], list[Namesake]]:
    """The rows with every namesake given an id of its own, and the rows that had one (the
    first row of each entry that had one: the entry's later rows take the same id).

    `round_code` names the round a row belongs to (first-round groups are one round);
    `round_position` its place in the event (to find entries renumbered after the first).
    """
    renumbered = _renumbered(rows, round_position) if round_position else {}
    first: dict[tuple[int, str, str, str], PublishedResult] = {}
    # Per edition, event and person id: each entry's members and the id it took.
    taken: dict[tuple[int, str, str], list[tuple[PublishedResult, str]]] = {}
    decided: set[tuple[int, str, str, str]] = set()
    renamed: dict[tuple[int, str, str, str], str] = {}
    found: list[Namesake] = []
    for row in rows:
        for person in row.people:
            key = (row.year, row.event, row.entrant, person)
            if key in decided:
                continue
            decided.add(key)
            held = first.setdefault((row.year, row.event, round_code(row), person), row)
            earlier = taken.setdefault((row.year, row.event, person), [])
            continued = renumbered.get((row.year, row.event, row.entrant))
            same = next((kept for other, kept in earlier if other.people == row.people
                         or other.entrant == continued), None)
            if held.entrant != row.entrant:
                namesake: Namesake | None = Namesake(
                    source, row.row, row.entrant, person, held.entrant, held.row,
                    namesake_id(person, row), "round")
            elif same is None and earlier:
                namesake = Namesake(source, row.row, row.entrant, person, earlier[0][0].entrant,
                                    earlier[0][0].row, namesake_id(person, row), "edition")
            else:
                namesake = None  # the first entry, or the same members renumbered
            kept_as = namesake.kept_as if namesake else (same or person)
            if namesake:
                found.append(namesake)
            earlier.append((row, kept_as))
            if kept_as != person:
                renamed[key] = kept_as
    if not renamed:
        return list(rows), found
    return [dataclasses.replace(row, people=tuple(
        renamed.get((row.year, row.event, row.entrant, person), person) for person in row.people))
        for row in rows], found


def _renumbered(rows: Sequence[PublishedResult], position: Callable[[PublishedResult], int]
                ) -> dict[tuple[int, str, str], str]:
    """(edition, event, entrant) of each entry with no first-round row that continues the one
    first-round entry whose rows stop after the first round and that shares a member with it:
    the entrant id it continues."""
    rounds: dict[tuple[int, str], dict[str, set[int]]] = {}
    members: dict[tuple[int, str, str], set[str]] = {}
    for row in rows:
        rounds.setdefault((row.year, row.event), {}).setdefault(row.entrant, set()).add(
            position(row))
        members.setdefault((row.year, row.event, row.entrant), set()).update(row.people)
    found: dict[tuple[int, str, str], str] = {}
    for (year, event), entrants in rounds.items():
        first = min(min(p) for p in entrants.values())
        stopped = [e for e, p in entrants.items() if p == {first}]
        later = [e for e, p in entrants.items() if first not in p]
        people = {e: members[(year, event, e)] for e in entrants}
        # A stopped entry whose very members go on under another id continues as that one.
        twins = {e: [f for f in stopped if people[f] == people[e]] for e in later}
        continued = {f for found_twins in twins.values() for f in found_twins}
        for entrant in later:
            sharing = twins[entrant] or [f for f in stopped if f not in continued
                                         and people[f] & people[entrant]]
            if len(sharing) == 1:
                found[(year, event, entrant)] = sharing[0]
    return found
