"""Fixtures for the planning tests: the halls and fields the rulebooks describe."""

from __future__ import annotations

import pytest

from puzzlecomp.planning import FloorPlan


@pytest.fixture(scope="session")
def wjpc_2025_floor_plan() -> FloorPlan:
    """wjpc-2025.txt, Competition Area: rows of 6, 8, eight of 10, 8 and 6; 6 kept for guests."""
    return FloorPlan(rows=(6, 8, 10, 10, 10, 10, 10, 10, 10, 10, 8, 6), guest_tables=6)
