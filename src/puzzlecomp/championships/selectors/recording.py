"""What a judge's record reads before it writes: the round, the entry's seat at the device's
tables and the round's puzzle size, in one plain SQL statement (championships/plain_sql.py),
since a burst of records waits on what each one costs."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection

from puzzlecomp.championships.engine import shared_size
from puzzlecomp.championships.models import (
    Entry,
    Event,
    JudgeDevice,
    Puzzle,
    Result,
    ResultChange,
    Round,
    Seat,
)
from puzzlecomp.championships.plain_sql import columns, fetch, quoted, table


@dataclass(frozen=True)
class RecordTarget:
    """Where a judge's record goes."""

    # With its event, and the device's championship.
    round: Round
    # The entry's seat (with the entry) when it sits at one of the device's tables.
    seat: Seat | None
    # The one size the round's puzzles share, else None (engine.shared_size).
    puzzle_size: int | None


def record_target_get(device: JudgeDevice, *, round_id: int,
                      entry_number: int) -> RecordTarget | None:
    """Where the device's record for entry `entry_number` in round `round_id` goes; None when
    the round is not one of the device's championship."""
    sizes = f"FROM {table(Puzzle)} p WHERE p.round_id = r.id AND p.pieces > 0"
    found = fetch(
        f"SELECT {columns(Round, 'r')}, {columns(Event, 'e')}, {columns(Seat, 's')}, "
        f"{columns(Entry, 'n')}, (SELECT MIN(p.pieces) {sizes}), "
        f"(SELECT MAX(p.pieces) {sizes}) "
        f"FROM {table(Round)} r JOIN {table(Event)} e ON e.id = r.event_id "
        f"LEFT JOIN {table(Entry)} n ON n.event_id = r.event_id AND n.number = %s "
        f"LEFT JOIN {table(Seat)} s ON s.round_id = r.id AND s.entry_id = n.id "
        f"AND s.{quoted('table')} BETWEEN %s AND %s "
        "WHERE r.id = %s AND e.championship_id = %s",
        [entry_number, device.table_from, device.table_to, round_id, device.championship_id],
        Round, Event, Seat, Entry)
    if not found:
        return None
    rnd, event, seat, entry, smallest, largest = found[0]
    event.championship = device.championship
    rnd.event = event
    if seat is not None:
        seat.entry = entry
    # The smallest and the largest size are all that tells one shared size from several.
    return RecordTarget(rnd, seat, shared_size((smallest, largest)))


def client_id_use(client_id: str) -> tuple[int, int] | None:
    """(round id, entry id) of the change a write with this client id made; None for a new
    id (asked on every judge's record)."""
    found = fetch(f"SELECT c.round_id, c.entry_id FROM {table(ResultChange)} c "
                  "WHERE c.client_id = %s", [client_id])
    return (found[0][0], found[0][1]) if found else None


def result_locked(round_id: int, entry_id: int) -> Result | None:
    """The entry's result in the round, locked for the write's transaction where the database
    locks rows (SQLite's writer holds the whole database)."""
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    found = fetch(f"SELECT {columns(Result, 'r')} FROM {table(Result)} r "
                  f"WHERE r.round_id = %s AND r.entry_id = %s{lock}", [round_id, entry_id],
                  Result)
    return found[0][0] if found else None  # type: ignore[no-any-return]
