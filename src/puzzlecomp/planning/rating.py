"""Ratings from past results, and the seeding of a new championship's entries by them.

The method is documented in docs/seeding.md. In short: every past result becomes an
estimated time (an unfinished entry's pace extrapolated to the whole puzzle), and its
logarithm is modelled as the person's ability plus the round's difficulty. Abilities and
difficulties are fitted together by weighted least squares, so a round's difficulty comes
from who took part in it, and results of recent editions weigh more than old ones.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType


@dataclass(frozen=True)
class PastResult:
    """One entry's result in one round of an earlier edition, as published.

    `round` names the round within its edition (e.g. "A", "S1", "final"); `people` are the
    ids of the entry's members, which stay the same across editions.
    """

    edition: int
    round: str
    people: tuple[str, ...]
    completed: bool
    time_seconds: float | None
    pieces_placed: float | None
    puzzle_pieces: int
    time_limit_seconds: int


@dataclass(frozen=True)
class RatingMethod:
    """The method's settings; the defaults are the documented ones (docs/seeding.md)."""

    # A result loses half its weight per this many editions (years) before the newest one.
    half_life_years: float = 1.0
    # Pulls the ability of someone with few results towards the average entrant.
    shrinkage: float = 0.1
    # An entry that placed less than this share of the puzzle counts as if it had placed it.
    least_share_placed: float = 0.05
    max_iterations: int = 200
    tolerance: float = 1e-7


DEFAULT_METHOD = RatingMethod()

# A rating point is a thousandth of the logarithm of time: +10 points is about 1 % faster.
POINTS = 1000.0


@dataclass(frozen=True)
class SeedingEntry:
    """An entry of the new championship and the ids of its members."""

    entry: str
    people: tuple[str, ...]


@dataclass(frozen=True)
class Seed:
    """An entry's place in the seeding: `seed_rank` and `rating` are None without history."""

    entry: str
    people: tuple[str, ...]
    seed_rank: int | None
    rating: float | None


def estimated_seconds(result: PastResult, *, least_share_placed: float = 0.05) -> float:
    """Return the time a result stands for: a finisher's time, else the pace extrapolated.

    An entry that did not finish placed `pieces_placed` of `puzzle_pieces` within the time
    limit; at that pace the whole puzzle would have taken limit / share. It never counts as
    faster than the limit, and a share below `least_share_placed` counts as that share.
    """
    if result.completed and result.time_seconds is not None:
        return result.time_seconds
    share = (result.pieces_placed or 0.0) / result.puzzle_pieces
    return result.time_limit_seconds / min(1.0, max(share, least_share_placed))


def rate_people(
    results: Iterable[PastResult], *, method: RatingMethod = DEFAULT_METHOD
) -> Mapping[str, float]:
    """Return a rating per person from the past results of one event, higher is stronger.

    Fits log(time) = ability(person) + difficulty(round) by alternating weighted least
    squares; the rating is -ability in points (0 is the average entrant of the history).
    Every member of a pair or team is credited with the entry's result.
    """
    observations = _observations(results, method)
    if not observations:
        return MappingProxyType({})
    person_ids = sorted({person for person, *_ in observations})
    round_ids = sorted({rnd for _, rnd, *_ in observations})
    person_at = {person: i for i, person in enumerate(person_ids)}
    round_at = {rnd: i for i, rnd in enumerate(round_ids)}
    persons = [person_at[person] for person, *_ in observations]
    rounds = [round_at[rnd] for _, rnd, *_ in observations]
    values = [value for *_, value, _ in observations]
    weights = [weight for *_, weight in observations]

    weight_of = [method.shrinkage] * len(person_ids)
    for p, w in zip(persons, weights, strict=True):
        weight_of[p] += w
    size_of = [0] * len(round_ids)
    for r in rounds:
        size_of[r] += 1
    ability = [0.0] * len(person_ids)
    difficulty = [0.0] * len(round_ids)
    for _ in range(method.max_iterations):
        # A round's difficulty: what its entrants took beyond their abilities, on average.
        total = [0.0] * len(round_ids)
        for p, r, v in zip(persons, rounds, values, strict=True):
            total[r] += v - ability[p]
        difficulty = [t / n for t, n in zip(total, size_of, strict=True)]
        weighted = [0.0] * len(person_ids)
        for p, r, v, w in zip(persons, rounds, values, weights, strict=True):
            weighted[p] += w * (v - difficulty[r])
        fitted = [t / w for t, w in zip(weighted, weight_of, strict=True)]
        # At the optimum the shrinkage makes abilities average zero (a shift of every ability
        # against every difficulty changes no residual); holding them there converges ~5x
        # faster.
        mean = sum(fitted) / len(fitted)
        fitted = [a - mean for a in fitted]
        change = max(abs(a - b) for a, b in zip(fitted, ability, strict=True))
        ability = fitted
        if change < method.tolerance:
            break
    return MappingProxyType(
        {person: -POINTS * a for person, a in zip(person_ids, ability, strict=True)}
    )


def seed_entries(entries: Sequence[SeedingEntry], ratings: Mapping[str, float]) -> list[Seed]:
    """Return the entries best first, each with its seed rank and rating.

    An entry's rating is the mean of its rated members' ratings. Entries without any rated
    member follow every rated entry, in their given order, without a seed rank.
    """
    rated: list[tuple[float, int, SeedingEntry]] = []
    unrated: list[SeedingEntry] = []
    for position, entry in enumerate(entries):
        known = [ratings[person] for person in entry.people if person in ratings]
        if known:
            rated.append((-sum(known) / len(known), position, entry))
        else:
            unrated.append(entry)
    rated.sort(key=lambda item: item[:2])
    seeds = [
        Seed(entry.entry, entry.people, rank, -negative)
        for rank, (negative, _, entry) in enumerate(rated, start=1)
    ]
    return seeds + [Seed(entry.entry, entry.people, None, None) for entry in unrated]


def _observations(
    results: Iterable[PastResult], method: RatingMethod
) -> list[tuple[str, tuple[int, str], float, float]]:
    listed = list(results)
    if not listed:
        return []
    newest = max(result.edition for result in listed)
    return [
        (
            person,
            (result.edition, result.round),
            math.log(estimated_seconds(result, least_share_placed=method.least_share_placed)),
            0.5 ** ((newest - result.edition) / method.half_life_years),
        )
        for result in listed
        for person in result.people
    ]


def seed_ranks(seeds: Sequence[Seed], typed: Mapping[str, int | None]) -> dict[str, int | None]:
    """Return one seed rank per entry: the rating's where there is history, else the typed one.

    Entries with history come first by rating; then entries without history in order of
    their typed seed rank; entries with neither stay unranked (None).
    """
    ranks: dict[str, int | None] = {s.entry: s.seed_rank for s in seeds if s.seed_rank is not None}
    typed_only = sorted(
        (rank, position, s.entry)
        for position, s in enumerate(seeds)
        if s.seed_rank is None and (rank := typed.get(s.entry)) is not None
    )
    for offset, (*_, entry) in enumerate(typed_only, start=len(ranks) + 1):
        ranks[entry] = offset
    return {s.entry: ranks.get(s.entry) for s in seeds}
