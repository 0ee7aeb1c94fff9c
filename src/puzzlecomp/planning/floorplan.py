"""The competition hall: rows of numbered tables, some kept for guests.

Tables are numbered 1..N row by row from the front row, left to right within a row.
The last `guest_tables` numbers (the back of the hall) are kept for guests, so the
competition tables are 1..N-guest_tables and the strongest entries sit at the front.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from itertools import accumulate

from puzzlecomp.planning.errors import PlanningError
from puzzlecomp.rules.limits import MAX_ROWS, MAX_TABLES, MAX_TABLES_PER_ROW


@dataclass(frozen=True)
class TablePosition:
    """Where a table stands, for drawing the hall: indices count from 0 at the front left."""

    table: int
    row: int
    column: int
    guest: bool


@dataclass(frozen=True)
class FloorPlan:
    """The number of tables in each row, front to back, and how many are kept for guests."""

    rows: tuple[int, ...]
    guest_tables: int = 0

    def __post_init__(self) -> None:
        if not self.rows or any(size < 1 for size in self.rows):
            raise PlanningError(
                "floor_plan.invalid_rows", "Every row of the hall needs at least one table."
            )
        if (len(self.rows) > MAX_ROWS or max(self.rows) > MAX_TABLES_PER_ROW
                or sum(self.rows) > MAX_TABLES):
            raise PlanningError(
                "floor_plan.too_large",
                f"The hall holds at most {MAX_ROWS} rows of {MAX_TABLES_PER_ROW} tables, "
                f"{MAX_TABLES} tables in all.",
                rows=MAX_ROWS, tables_per_row=MAX_TABLES_PER_ROW, tables=MAX_TABLES,
            )
        if not 0 <= self.guest_tables <= self.table_count:
            raise PlanningError(
                "floor_plan.invalid_guest_tables",
                f"Guest tables must be between 0 and {self.table_count}, not {self.guest_tables}.",
                guest_tables=self.guest_tables,
                table_count=self.table_count,
            )

    @property
    def table_count(self) -> int:
        """Return the number of tables in the hall, guest tables included."""
        return sum(self.rows)

    @property
    def competition_tables(self) -> tuple[int, ...]:
        """Return the numbers of the tables competitors may use, front first."""
        return tuple(range(1, self.table_count - self.guest_tables + 1))

    @property
    def guest_table_numbers(self) -> tuple[int, ...]:
        """Return the numbers of the tables kept for guests."""
        first = self.table_count - self.guest_tables + 1
        return tuple(range(first, self.table_count + 1))

    def row_of(self, table: int) -> int:
        """Return the index of the row holding a table, 0 being the front row."""
        return self.position_of(table).row

    def position_of(self, table: int) -> TablePosition:
        """Return the row, column and use of one table."""
        if not 1 <= table <= self.table_count:
            raise PlanningError(
                "floor_plan.unknown_table",
                f"Table {table} is not in the hall (tables 1 to {self.table_count}).",
                table=table,
                table_count=self.table_count,
            )
        row_starts = [0, *accumulate(self.rows)]
        row = bisect_right(row_starts, table - 1) - 1
        return TablePosition(
            table=table,
            row=row,
            column=table - 1 - row_starts[row],
            guest=table > self.table_count - self.guest_tables,
        )

    def positions(self) -> tuple[TablePosition, ...]:
        """Return every table's position, in table-number order."""
        return tuple(self.position_of(table) for table in range(1, self.table_count + 1))
