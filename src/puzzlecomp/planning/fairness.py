"""How hard each group's puzzle was, from who was in the group and how they did (issue 15,
group fairness after a round; docs/seeding.md, Group fairness).

The rating model says log(time) = ability + difficulty (planning/rating.py). For an entrant with
a rating the round's result gives one estimate of its group's difficulty: log(time) - ability.
A group's difficulty is the median of its rated entrants' estimates (one lucky or unlucky
entrant moves a median little), and is shown against the mean of the groups: +8 % means the
group's entrants took 8 % longer than their ratings predict, compared with the average group.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from puzzlecomp.planning.rating import POINTS, PastResult, estimated_seconds


@dataclass(frozen=True)
class GroupEntrant:
    """An entrant's result in the round and its rating (None without history)."""

    group: str
    rating: float | None
    completed: bool
    time_seconds: float | None
    pieces_placed: float | None


@dataclass(frozen=True)
class GroupDifficulty:
    """A group's puzzle difficulty against the average group (None: too few rated entrants)."""

    group: str
    entrants: int
    rated: int
    percent: float | None


# A group's median needs at least this many rated entrants to mean something.
LEAST_RATED = 5


def group_difficulties(entrants: Iterable[GroupEntrant], *, puzzle_pieces: int,
                       time_limit_seconds: int,
                       least_rated: int = LEAST_RATED) -> list[GroupDifficulty]:
    """Return each group's difficulty, in the order the groups first appear.

    A finisher's time counts as it is, an unfinished entry's pace is extrapolated as in the
    ratings (`estimated_seconds`). The percentages are relative to the mean difficulty of the
    groups that have `least_rated` rated entrants; with fewer than two such groups there is
    nothing to compare and every percentage is None.
    """
    counted: dict[str, int] = defaultdict(int)
    estimates: dict[str, list[float]] = defaultdict(list)
    for entrant in entrants:
        counted[entrant.group] += 1
        if entrant.rating is None:
            continue
        seconds = estimated_seconds(PastResult(
            edition=0, round="", people=(), completed=entrant.completed,
            time_seconds=entrant.time_seconds, pieces_placed=entrant.pieces_placed,
            puzzle_pieces=puzzle_pieces, time_limit_seconds=time_limit_seconds))
        ability = -entrant.rating / POINTS
        estimates[entrant.group].append(math.log(seconds) - ability)
    medians = {group: statistics.median(values) for group, values in estimates.items()
               if len(values) >= least_rated}
    mean = statistics.fmean(medians.values()) if len(medians) >= 2 else None
    return [
        GroupDifficulty(group, counted[group], len(estimates[group]),
                        None if mean is None or group not in medians
                        else 100.0 * (math.exp(medians[group] - mean) - 1.0))
        for group in counted
    ]
