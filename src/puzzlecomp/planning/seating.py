"""Seating entries at numbered tables (wjpc-2025.txt, "Competition Area" and the rounds).

First rounds: entries in seeding order share tables two by two from table 1, so the
strongest sit at the front. Later rounds: "the top 8 classified in each group will
participate on a single table", so they are seated alone first, then the rest share.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from puzzlecomp.planning.entrants import SeatingEntrant
from puzzlecomp.planning.errors import PlanningError, reject_repeats
from puzzlecomp.planning.floorplan import FloorPlan


@dataclass(frozen=True)
class TableAssignment:
    """One entry in one seat (numbered from 1) of one table."""

    table: int
    seat: int
    entry: str


@dataclass(frozen=True)
class Seating:
    """Every seated entry's table and seat, ordered by table then seat."""

    assignments: tuple[TableAssignment, ...]
    _by_entry: Mapping[str, TableAssignment] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        reject_repeats("seating.duplicate_entry", "entry", (a.entry for a in self.assignments))
        seats = (f"table {a.table} seat {a.seat}" for a in self.assignments)
        reject_repeats("seating.seat_taken", "seat", seats)
        by_entry = {a.entry: a for a in self.assignments}
        object.__setattr__(self, "_by_entry", MappingProxyType(by_entry))

    def assignment_of(self, entry: str) -> TableAssignment:
        """Return where an entry sits, or raise `seating.unknown_entry`."""
        try:
            return self._by_entry[entry]
        except KeyError:
            raise PlanningError(
                "seating.unknown_entry", f"Entry {entry} has no seat.", entry=entry
            ) from None

    def table_of(self, entry: str) -> int:
        """Return the table number of an entry."""
        return self.assignment_of(entry).table

    def entries_at(self, table: int) -> tuple[str, ...]:
        """Return the entries at one table, by seat."""
        return tuple(a.entry for a in self.assignments if a.table == table)


def seat_entries(
    seeded_entries: Sequence[SeatingEntrant],
    floor_plan: FloorPlan,
    *,
    solo_count_per_group: int = 0,
    seats_per_table: int = 2,
    share_only_when_needed: bool = False,
) -> Seating:
    """Seat entries in seeding order: each group's top entries alone, the rest sharing tables
    (or, with `share_only_when_needed`, each alone when the hall has a table for everyone)."""
    if seats_per_table < 1 or solo_count_per_group < 0:
        raise PlanningError(
            "seating.invalid_settings",
            "Seats per table must be at least 1 and solo entries per group at least 0.",
            seats_per_table=seats_per_table,
            solo_count_per_group=solo_count_per_group,
        )
    reject_repeats("seating.duplicate_entry", "entry", (e.entry for e in seeded_entries))
    solo = _solo_entries(seeded_entries, solo_count_per_group)
    solo_ids = {e.entry for e in solo}
    shared = [e for e in seeded_entries if e.entry not in solo_ids]
    tables = floor_plan.competition_tables
    if share_only_when_needed and len(seeded_entries) <= len(tables):
        seats_per_table = 1
    needed = len(solo) + -(-len(shared) // seats_per_table)
    if needed > len(tables):
        raise PlanningError(
            "seating.not_enough_tables",
            f"Seating {len(seeded_entries)} entries needs {needed} tables; "
            f"the hall has {len(tables)} competition tables.",
            needed=needed,
            available=len(tables),
        )
    assignments = [TableAssignment(tables[i], 1, e.entry) for i, e in enumerate(solo)]
    assignments += [
        TableAssignment(tables[len(solo) + i // seats_per_table], i % seats_per_table + 1, e.entry)
        for i, e in enumerate(shared)
    ]
    return Seating(tuple(assignments))


def swap_seats(seating: Seating, entry_a: str, entry_b: str) -> Seating:
    """Return the seating with two entries' seats exchanged."""
    a, b = seating.assignment_of(entry_a), seating.assignment_of(entry_b)
    swapped = {entry_a: replace(a, entry=entry_b), entry_b: replace(b, entry=entry_a)}
    return Seating(tuple(swapped.get(x.entry, x) for x in seating.assignments))


def reassign_no_show(seating: Seating, no_show_entry: str, replacement_entry: str) -> Seating:
    """Return the seating with a no-show's seat given to another entry, who leaves any old seat."""
    freed = seating.assignment_of(no_show_entry)
    if replacement_entry == no_show_entry:
        raise PlanningError(
            "seating.same_entry",
            f"Entry {no_show_entry} cannot replace itself.",
            entry=no_show_entry,
        )
    kept = [a for a in seating.assignments if a.entry not in {no_show_entry, replacement_entry}]
    kept.append(replace(freed, entry=replacement_entry))
    return Seating(tuple(sorted(kept, key=lambda a: (a.table, a.seat))))


def _solo_entries(
    seeded_entries: Sequence[SeatingEntrant], solo_count_per_group: int
) -> list[SeatingEntrant]:
    if solo_count_per_group == 0:
        return []
    by_group: dict[str, list[tuple[int, int, SeatingEntrant]]] = defaultdict(list)
    for index, e in enumerate(seeded_entries):
        if e.previous_group is not None and e.previous_place is not None:
            by_group[e.previous_group].append((e.previous_place, index, e))
    solo: list[tuple[int, str, int, SeatingEntrant]] = []
    for group, ranked in by_group.items():
        ranked.sort(key=lambda item: item[:2])
        # Entries tied on the last solo place sit alone together, as ties qualify together.
        cut = ranked[min(solo_count_per_group, len(ranked)) - 1][0]
        solo += [(place, group, index, e) for place, index, e in ranked if place <= cut]
    return [e for *_, e in sorted(solo, key=lambda item: item[:3])]
