"""PURE planning: first-round groups, the hall's floor plan, seating and team draws."""

from puzzlecomp.planning.entrants import PlanningEntrant, SeatingEntrant
from puzzlecomp.planning.errors import PlanningError
from puzzlecomp.planning.floorplan import FloorPlan, TablePosition
from puzzlecomp.planning.groups import (
    GroupAssignment,
    GroupBalance,
    assign_groups,
    country_flag,
    group_balance,
)
from puzzlecomp.planning.seating import (
    Seating,
    TableAssignment,
    reassign_no_show,
    seat_entries,
    swap_seats,
)
from puzzlecomp.planning.team_draw import TeamDraw, draw_teams

__all__ = [
    "FloorPlan",
    "GroupAssignment",
    "GroupBalance",
    "PlanningEntrant",
    "PlanningError",
    "Seating",
    "SeatingEntrant",
    "TableAssignment",
    "TablePosition",
    "TeamDraw",
    "assign_groups",
    "country_flag",
    "draw_teams",
    "group_balance",
    "reassign_no_show",
    "seat_entries",
    "swap_seats",
]
