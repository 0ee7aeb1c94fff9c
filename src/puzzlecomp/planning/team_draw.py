"""Drawing individual registrations into teams, e.g. for the Czech relay.

The draw is a shuffle by a recorded seed of the people sorted by name, so anyone can
repeat it from the seed and the list, whatever order the list arrived in.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from puzzlecomp.planning.errors import PlanningError, reject_repeats


@dataclass(frozen=True)
class TeamDraw:
    """The drawn teams in draw order, and the people not enough to fill one more team."""

    seed: int
    team_size: int
    teams: tuple[tuple[str, ...], ...]
    left_over: tuple[str, ...]


def draw_teams(people: Sequence[str], *, team_size: int, seed: int) -> TeamDraw:
    """Draw people at random into whole teams of `team_size`, reproducibly from `seed`."""
    if team_size < 1:
        raise PlanningError(
            "team_draw.invalid_team_size",
            f"A team needs at least one member, not {team_size}.",
            team_size=team_size,
        )
    reject_repeats("team_draw.duplicate_person", "person", people)
    drawn = sorted(people)
    random.Random(seed).shuffle(drawn)
    whole = len(drawn) - len(drawn) % team_size
    return TeamDraw(
        seed=seed,
        team_size=team_size,
        teams=tuple(tuple(drawn[i : i + team_size]) for i in range(0, whole, team_size)),
        left_over=tuple(sorted(drawn[whole:])),
    )
