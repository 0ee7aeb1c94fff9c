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
    """A group's puzzle difficulty against the average group (None: too few rated entrants),
    with the bounds of its 90 % interval (`low`, `high`, in percent)."""

    group: str
    entrants: int
    rated: int
    percent: float | None
    low: float | None = None
    high: float | None = None

    @property
    def told_apart(self) -> bool:
        """True when the interval leaves out the average group: the puzzle really was easier
        or harder, beyond what the field's spread explains."""
        return self.low is not None and self.high is not None and (self.low > 0 or self.high < 0)


# A group's median needs at least this many rated entrants to mean something.
LEAST_RATED = 5
# The median's standard error is about this many standard errors of a mean (normal errors).
MEDIAN_EFFICIENCY = math.sqrt(math.pi / 2)
# Standard normal quantile of a two-sided 90 % interval.
Z_90 = 1.6449


def _estimates(entrants: Iterable[GroupEntrant], *, puzzle_pieces: int,
               time_limit_seconds: int) -> tuple[dict[str, int], dict[str, list[float]]]:
    """(entrants per group, each rated entrant's log(time) - ability per group)."""
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
    return counted, estimates


def group_paces(entrants: Iterable[GroupEntrant], *, puzzle_pieces: int,
                time_limit_seconds: int, least_rated: int = LEAST_RATED) -> dict[str, float]:
    """Each group's pace: the median of its rated entrants' log(time) - ability, for groups
    with `least_rated` of them. An entrant's expected time there is exp(ability + pace)."""
    _, estimates = _estimates(entrants, puzzle_pieces=puzzle_pieces,
                              time_limit_seconds=time_limit_seconds)
    return {group: statistics.median(values) for group, values in estimates.items()
            if len(values) >= least_rated}


def expected_seconds(rating: float, pace: float) -> float:
    """The time an entrant of this rating is expected to take at a group's pace."""
    return math.exp(-rating / POINTS + pace)


def group_difficulties(entrants: Iterable[GroupEntrant], *, puzzle_pieces: int,
                       time_limit_seconds: int,
                       least_rated: int = LEAST_RATED) -> list[GroupDifficulty]:
    """Return each group's difficulty, in the order the groups first appear.

    A finisher's time counts as it is, an unfinished entry's pace is extrapolated as in the
    ratings (`estimated_seconds`). The percentages are relative to the mean difficulty of the
    groups that have `least_rated` rated entrants; with fewer than two such groups there is
    nothing to compare and every percentage is None. Each comes with a 90 % interval from the
    median's standard error (sqrt(pi/2) times the spread of the estimates over sqrt(n)).
    """
    counted, estimates = _estimates(entrants, puzzle_pieces=puzzle_pieces,
                                    time_limit_seconds=time_limit_seconds)
    medians = {group: statistics.median(values) for group, values in estimates.items()
               if len(values) >= least_rated}
    errors = {group: MEDIAN_EFFICIENCY * statistics.stdev(estimates[group])
              / math.sqrt(len(estimates[group])) for group in medians}
    mean = statistics.fmean(medians.values()) if len(medians) >= 2 else None

    def percent(log_ratio: float) -> float:
        return 100.0 * (math.exp(log_ratio) - 1.0)

    found = []
    for group in counted:
        if mean is None or group not in medians:
            found.append(GroupDifficulty(group, counted[group], len(estimates[group]), None))
            continue
        middle, spread = medians[group] - mean, Z_90 * errors[group]
        found.append(GroupDifficulty(group, counted[group], len(estimates[group]),
                                     percent(middle), percent(middle - spread),
                                     percent(middle + spread)))
    return found


def groups_told_apart(difficulties: Iterable[GroupDifficulty]) -> bool:
    """True when at least one group's interval leaves out the average group."""
    return any(d.told_apart for d in difficulties)
