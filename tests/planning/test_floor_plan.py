"""wjpc-2025.txt, "Competition Area": 108 numbered tables in 12 rows, 6 kept for guests."""

from __future__ import annotations

import pytest

from puzzlecomp.planning import FloorPlan, PlanningError, TablePosition


def test_wjpc_2025_hall_has_108_tables_of_which_102_are_for_competitors(
    wjpc_2025_floor_plan: FloorPlan,
) -> None:
    """wjpc-2025.txt, Competition Area: "108 tables" and "reserves 6 tables for ... guest use"."""
    assert wjpc_2025_floor_plan.table_count == 108
    assert wjpc_2025_floor_plan.competition_tables == tuple(range(1, 103))


def test_guest_tables_are_the_last_numbers_at_the_back_of_the_hall(
    wjpc_2025_floor_plan: FloorPlan,
) -> None:
    """The 6 guest tables are 103-108, which in the WJPC hall is the whole back row of 6."""
    assert wjpc_2025_floor_plan.guest_table_numbers == (103, 104, 105, 106, 107, 108)
    assert {wjpc_2025_floor_plan.row_of(table) for table in range(103, 109)} == {11}
    assert wjpc_2025_floor_plan.position_of(103).guest
    assert not wjpc_2025_floor_plan.position_of(102).guest


@pytest.mark.parametrize(
    ("table", "row", "column"),
    [
        (1, 0, 0),
        (6, 0, 5),
        (7, 1, 0),
        (14, 1, 7),
        (15, 2, 0),
        (94, 9, 9),
        (95, 10, 0),
        (108, 11, 5),
    ],
)
def test_wjpc_2025_tables_are_numbered_row_by_row_left_to_right(
    wjpc_2025_floor_plan: FloorPlan, table: int, row: int, column: int
) -> None:
    """wjpc-2025.txt, Competition Area: "All tables will be numbered"; rows 6, 8, 10 x 8, 8, 6."""
    position = wjpc_2025_floor_plan.position_of(table)

    assert (position.row, position.column) == (row, column)
    assert wjpc_2025_floor_plan.row_of(table) == row


def test_positions_list_every_table_once_in_number_order_for_drawing_the_hall(
    wjpc_2025_floor_plan: FloorPlan,
) -> None:
    """The hall drawing needs each table's row and place in the row."""
    positions = wjpc_2025_floor_plan.positions()

    assert [p.table for p in positions] == list(range(1, 109))
    assert positions[6] == TablePosition(table=7, row=1, column=0, guest=False)
    row_sizes = [sum(1 for p in positions if p.row == row) for row in range(12)]
    assert tuple(row_sizes) == wjpc_2025_floor_plan.rows


@pytest.mark.parametrize(
    ("rows", "guest_tables", "code"),
    [
        ((), 0, "floor_plan.invalid_rows"),
        ((4, 0), 0, "floor_plan.invalid_rows"),
        ((4,), 5, "floor_plan.invalid_guest_tables"),
        ((4,), -1, "floor_plan.invalid_guest_tables"),
    ],
)
def test_a_floor_plan_that_cannot_exist_is_refused(
    rows: tuple[int, ...], guest_tables: int, code: str
) -> None:
    """Ruleset data with empty rows or more guest tables than tables is an error with a code."""
    with pytest.raises(PlanningError) as caught:
        FloorPlan(rows=rows, guest_tables=guest_tables)

    assert caught.value.code == code


@pytest.mark.parametrize("table", [0, 109])
def test_asking_for_a_table_outside_the_hall_is_an_error(
    wjpc_2025_floor_plan: FloorPlan, table: int
) -> None:
    """Table numbers run from 1 to the number of tables."""
    with pytest.raises(PlanningError) as caught:
        wjpc_2025_floor_plan.row_of(table)

    assert caught.value.code == "floor_plan.unknown_table"
    assert caught.value.params["table_count"] == 108
