"""What the planning code needs to know about an entry: plain values, no database rows."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PlanningEntrant:
    """An entry to place in a first-round group.

    `country` is the flag the entrant counts under: an IOC code, or the ruleset's mixed flag
    (`rules.flags.entry_flag` gives it).
    `seed_rank` comes from earlier championships, lower is stronger, None when unranked.
    """

    entry: str
    country: str
    seed_rank: int | None = None


@dataclass(frozen=True)
class SeatingEntrant:
    """An entry to seat, with its group and place in the previous round when there was one."""

    entry: str
    previous_group: str | None = None
    previous_place: int | None = None
