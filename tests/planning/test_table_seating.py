"""wjpc-2025.txt, "Competition Area" and the rounds: who sits where, alone or sharing."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlecomp.planning import (
    FloorPlan,
    PlanningError,
    Seating,
    SeatingEntrant,
    TableAssignment,
    reassign_no_show,
    seat_entries,
    swap_seats,
)


def second_round_field(groups: str = "AB", per_group: int = 90) -> list[SeatingEntrant]:
    """Qualifiers in seeding order: place 1 of every group, then place 2, and so on."""
    return [
        SeatingEntrant(f"{group}{place:03d}", previous_group=group, previous_place=place)
        for place in range(1, per_group + 1)
        for group in groups
    ]


def test_wjpc_2025_first_round_competitors_share_tables_two_by_two_from_the_front(
    wjpc_2025_floor_plan: FloorPlan,
) -> None:
    """wjpc-2025.txt, Competition Area: in the preliminary phase "all competitors will share"."""
    entrants = [SeatingEntrant(f"e{i:03d}") for i in range(200)]

    seating = seat_entries(entrants, wjpc_2025_floor_plan)

    assert seating.assignments[:3] == (
        TableAssignment(1, 1, "e000"),
        TableAssignment(1, 2, "e001"),
        TableAssignment(2, 1, "e002"),
    )
    assert seating.table_of("e199") == 100
    assert set(Counter(a.table for a in seating.assignments).values()) == {2}


def test_wjpc_2025_top_8_of_each_group_sit_alone_at_the_front_in_the_next_round(
    wjpc_2025_floor_plan: FloorPlan,
) -> None:
    """wjpc-2025.txt, First Round: "The top 8 classified in each group will ... single table"."""
    seating = seat_entries(second_round_field(), wjpc_2025_floor_plan, solo_count_per_group=8)

    assert [seating.entries_at(table) for table in range(1, 5)] == [
        ("A001",),
        ("B001",),
        ("A002",),
        ("B002",),
    ]
    assert seating.entries_at(16) == ("B008",)
    assert seating.entries_at(17) == ("A009", "B009")
    assert seating.table_of("B090") == 98


def test_entries_tied_on_the_last_solo_place_all_sit_alone(
    wjpc_2025_floor_plan: FloorPlan,
) -> None:
    """Two entries sharing 8th place are both "top 8", as ties at a cut-off go together."""
    places = [1, 2, 3, 4, 5, 6, 7, 8, 8, 10, 11]
    entrants = [SeatingEntrant(f"A{i:02d}", "A", place) for i, place in enumerate(places, 1)]

    seating = seat_entries(entrants, wjpc_2025_floor_plan, solo_count_per_group=8)

    assert [seating.entries_at(table) for table in (8, 9, 10)] == [
        ("A08",),
        ("A09",),
        ("A10", "A11"),
    ]


def test_seating_never_uses_the_guest_tables(wjpc_2025_floor_plan: FloorPlan) -> None:
    """wjpc-2025.txt, Competition Area: "reserves 6 tables for non-competitive guest use"."""
    entrants = [SeatingEntrant(f"e{i:03d}") for i in range(204)]

    seating = seat_entries(entrants, wjpc_2025_floor_plan)

    assert max(a.table for a in seating.assignments) == 102


def test_seating_names_tables_needed_and_available_when_the_hall_is_too_small(
    wjpc_2025_floor_plan: FloorPlan,
) -> None:
    """24 entries alone plus 176 sharing need 112 tables; the WJPC hall has 102 for competitors."""
    with pytest.raises(PlanningError) as caught:
        seat_entries(
            second_round_field("ABC", 67)[:200], wjpc_2025_floor_plan, solo_count_per_group=8
        )

    assert caught.value.code == "seating.not_enough_tables"
    assert dict(caught.value.params) == {"needed": 112, "available": 102}
    assert "112" in caught.value.message
    assert "102" in caught.value.message


@pytest.mark.parametrize(
    ("entrants", "settings_", "code"),
    [
        ([SeatingEntrant("a"), SeatingEntrant("a")], {}, "seating.duplicate_entry"),
        ([SeatingEntrant("a")], {"seats_per_table": 0}, "seating.invalid_settings"),
        ([SeatingEntrant("a")], {"solo_count_per_group": -1}, "seating.invalid_settings"),
    ],
)
def test_seating_refuses_impossible_input_with_a_code(
    wjpc_2025_floor_plan: FloorPlan,
    entrants: list[SeatingEntrant],
    settings_: dict[str, int],
    code: str,
) -> None:
    """An entry listed twice or a table with no seats is an error, not a strange plan."""
    with pytest.raises(PlanningError) as caught:
        seat_entries(entrants, wjpc_2025_floor_plan, **settings_)

    assert caught.value.code == code


def test_swapping_two_entries_exchanges_their_tables_and_seats(
    wjpc_2025_floor_plan: FloorPlan,
) -> None:
    """The organiser may swap seats, e.g. for accessibility; nobody else moves."""
    seating = seat_entries([SeatingEntrant(f"e{i}") for i in range(6)], wjpc_2025_floor_plan)

    swapped = swap_seats(seating, "e0", "e5")

    assert swapped.assignment_of("e0") == TableAssignment(3, 2, "e0")
    assert swapped.assignment_of("e5") == TableAssignment(1, 1, "e5")
    assert swapped.table_of("e3") == seating.table_of("e3")


def test_a_no_shows_table_goes_to_a_replacement_who_leaves_any_old_seat(
    wjpc_2025_floor_plan: FloorPlan,
) -> None:
    """After 10 minutes the organiser gives a no-show's single table to the next entry."""
    seating = seat_entries(
        second_round_field("A", 12), wjpc_2025_floor_plan, solo_count_per_group=8
    )

    moved = reassign_no_show(seating, "A003", "A009")

    assert moved.entries_at(3) == ("A009",)
    assert moved.entries_at(9) == ("A010",)
    with pytest.raises(PlanningError, match="A003"):
        moved.table_of("A003")


def test_a_no_shows_seat_can_go_to_someone_not_seated_yet(wjpc_2025_floor_plan: FloorPlan) -> None:
    """A reserve who was not on the seating list takes the free seat."""
    seating = seat_entries([SeatingEntrant("a"), SeatingEntrant("b")], wjpc_2025_floor_plan)

    moved = reassign_no_show(seating, "b", "reserve")

    assert moved == Seating((TableAssignment(1, 1, "a"), TableAssignment(1, 2, "reserve")))


@pytest.mark.parametrize(("no_show", "replacement"), [("nobody", "a"), ("a", "a")])
def test_reassigning_an_unseated_or_the_same_entry_is_an_error(
    wjpc_2025_floor_plan: FloorPlan, no_show: str, replacement: str
) -> None:
    """Only a seated entry can be a no-show, and it cannot replace itself."""
    seating = seat_entries([SeatingEntrant("a")], wjpc_2025_floor_plan)

    with pytest.raises(PlanningError) as caught:
        reassign_no_show(seating, no_show, replacement)

    assert caught.value.code in {"seating.unknown_entry", "seating.same_entry"}


@st.composite
def seeded_fields(draw: st.DrawFn) -> list[SeatingEntrant]:
    """Qualifiers of up to 3 groups with competition ranks (ties share a place), in any order."""
    entrants = []
    for group in draw(st.sampled_from(["A", "AB", "ABC"])):
        scores = draw(st.lists(st.integers(0, 30), max_size=40))
        entrants += [
            SeatingEntrant(
                f"{group}{i:02d}",
                previous_group=group,
                previous_place=1 + sum(other < score for other in scores),
            )
            for i, score in enumerate(scores)
        ]
    return draw(st.permutations(entrants))


@settings(deadline=None)
@given(entrants=seeded_fields())
def test_wjpc_2025_seating_invariants_hold_for_any_field_of_qualifiers(
    entrants: list[SeatingEntrant],
) -> None:
    """wjpc-2025.txt: at most 2 per table, top 8 of each group alone, everyone seated once."""
    hall = FloorPlan(rows=(10,) * 20, guest_tables=6)

    seating = seat_entries(entrants, hall, solo_count_per_group=8)

    per_table = Counter(a.table for a in seating.assignments)
    assert max(per_table.values(), default=0) <= 2
    assert sorted(a.entry for a in seating.assignments) == sorted(e.entry for e in entrants)
    for e in entrants:
        group = [o for o in entrants if o.previous_group == e.previous_group]
        better = sum(1 for o in group if (o.previous_place or 0) < (e.previous_place or 0))
        if better < 8:
            assert per_table[seating.table_of(e.entry)] == 1
    # Tables are filled from table 1 without gaps, so the top entries sit at the front.
    assert sorted(per_table) == list(range(1, len(per_table) + 1))


def test_a_few_entrants_each_get_a_table_where_the_rulebook_does_not_make_them_share(
    wjpc_2025_floor_plan: FloorPlan,
) -> None:
    """norway-nm-2025.txt and the Czech rules say nothing of sharing: three individuals in a
    hall of 102 competition tables sit one to a table, not two to the first."""
    entrants = [SeatingEntrant(f"e{i}") for i in range(3)]
    seating = seat_entries(entrants, wjpc_2025_floor_plan, share_only_when_needed=True)
    assert [(a.table, a.seat) for a in seating.assignments] == [(1, 1), (2, 1), (3, 1)]
    # wjpc-2025.txt: "all competitors will share tables regardless of the final number".
    shared = seat_entries(entrants, wjpc_2025_floor_plan)
    assert [(a.table, a.seat) for a in shared.assignments] == [(1, 1), (1, 2), (2, 1)]


@settings(max_examples=50, deadline=None)
@given(st.integers(min_value=1, max_value=204))
def test_entrants_share_tables_only_when_the_hall_has_too_few_for_all_alone(
    wjpc_2025_floor_plan: FloorPlan, count: int
) -> None:
    seating = seat_entries([SeatingEntrant(f"e{i}") for i in range(count)],
                           wjpc_2025_floor_plan, share_only_when_needed=True)
    per_table = Counter(a.table for a in seating.assignments)
    tables = len(wjpc_2025_floor_plan.competition_tables)
    assert max(per_table.values()) == (1 if count <= tables else 2)
