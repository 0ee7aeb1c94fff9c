"""First-round group assignment (wjpc-2025.txt, "Group Assignment for First Round").

The entrants are laid out country after country, largest countries first, and dealt
round-robin over one fixed cycle of the groups. Each country then occupies a run of
consecutive seats in the cycle, which gives:

- per-country counts in any two groups differ by at most one (a run shorter than a lap
  touches each group at most once, each full lap touches every group once);
- group sizes differ by at most one (the whole deal is one run);
- distinct countries per group differ by at most one (countries smaller than the number
  of groups come last, so their entrants form one run as well);
- balance between merged blocks: the cycle interleaves the blocks (A C E B D F for
  A+B, C+D, E+F), so any run also covers each block evenly before covering its groups.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType

from puzzlecomp.planning.entrants import PlanningEntrant
from puzzlecomp.planning.errors import PlanningError, reject_repeats


@dataclass(frozen=True)
class GroupBalance:
    """How even an assignment is, in the terms of the rulebook's proportionality rules.

    `max_country_block_spread` compares a country's counts between merged blocks that have
    the same number of groups (blocks of different sizes are expected to differ).
    """

    sizes: Mapping[str, int]
    max_size_difference: int
    countries: Mapping[str, int]
    max_countries_difference: int
    max_country_spread: int
    max_country_block_spread: int


@dataclass(frozen=True)
class GroupAssignment:
    """The group of every entry, with the balance figures to show the organiser."""

    group_of: Mapping[str, str]
    balance: GroupBalance

    def members(self, group: str) -> tuple[str, ...]:
        """Return the entries of one group, sorted by entry id."""
        return tuple(sorted(entry for entry, label in self.group_of.items() if label == group))


def assign_groups(
    entrants: Sequence[PlanningEntrant],
    *,
    groups: Sequence[str],
    merges: Sequence[Sequence[str]] = (),
    seed: int,
) -> GroupAssignment:
    """Assign every entrant a first-round group, spreading each country evenly and reproducibly."""
    blocks = _blocks(groups, merges)
    ordered = sorted(entrants, key=lambda e: e.entry)
    reject_repeats("groups.duplicate_entry", "entry", (e.entry for e in ordered))
    rng = random.Random(seed)
    cycle = _deal_cycle(blocks, rng)
    by_country: dict[str, list[PlanningEntrant]] = defaultdict(list)
    for entrant in ordered:
        by_country[country_flag(entrant)].append(entrant)
    countries = sorted(by_country)
    rng.shuffle(countries)
    # Stable sort: equally large countries keep their random order.
    countries.sort(key=lambda country: -len(by_country[country]))

    group_of: dict[str, str] = {}
    position = rng.randrange(len(cycle))
    for country in countries:
        members = _strongest_first(by_country[country], rng)
        slots = [cycle[(position + i) % len(cycle)] for i in range(len(members))]
        for entrant, group in zip(members, _snake(slots, len(cycle)), strict=True):
            group_of[entrant.entry] = group
        position += len(members)

    country_of = {entrant.entry: country_flag(entrant) for entrant in ordered}
    return GroupAssignment(
        group_of=MappingProxyType(group_of),
        balance=group_balance(group_of, country_of, groups=groups, merges=merges),
    )


def country_flag(entrant: PlanningEntrant) -> str:
    """Return the flag an entrant counts under: mixed entries share the ruleset's mixed flag
    (given by the caller, from `rules.flags.entry_flag`), so they are spread like a country."""
    return entrant.country


def group_balance(
    group_of: Mapping[str, str],
    country_of: Mapping[str, str],
    *,
    groups: Sequence[str],
    merges: Sequence[Sequence[str]] = (),
) -> GroupBalance:
    """Measure how even a (possibly hand-edited) group assignment is."""
    blocks = _blocks(groups, merges)
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for entry, group in group_of.items():
        counts[country_of[entry]][group] += 1
    sizes = Counter(group_of.values())
    countries_in = Counter(group for per_group in counts.values() for group in per_group)
    country_spread = max(
        (_spread(per_group[group] for group in groups) for per_group in counts.values()),
        default=0,
    )
    block_spread = max(
        (
            _spread(sum(per_group[group] for group in block) for block in same_size)
            for per_group in counts.values()
            for same_size in _blocks_by_size(blocks)
        ),
        default=0,
    )
    return GroupBalance(
        sizes=MappingProxyType({group: sizes[group] for group in groups}),
        max_size_difference=_spread(sizes[group] for group in groups),
        countries=MappingProxyType({group: countries_in[group] for group in groups}),
        max_countries_difference=_spread(countries_in[group] for group in groups),
        max_country_spread=country_spread,
        max_country_block_spread=block_spread,
    )


def _blocks(groups: Sequence[str], merges: Sequence[Sequence[str]]) -> list[tuple[str, ...]]:
    if not groups:
        raise PlanningError("groups.no_groups", "At least one group is needed.")
    reject_repeats("groups.duplicate_group", "group label", groups)
    merged = [group for block in merges for group in block]
    unknown = sorted(set(merged) - set(groups))
    if unknown:
        raise PlanningError(
            "groups.unknown_merge_group",
            f"Merges name groups that do not exist: {', '.join(unknown)}.",
            groups=", ".join(unknown),
        )
    reject_repeats("groups.group_merged_twice", "group in the merges", merged)
    # A group that merges with nobody is a block of its own.
    return [tuple(block) for block in merges if block] + [
        (group,) for group in groups if group not in set(merged)
    ]


def _deal_cycle(blocks: Sequence[tuple[str, ...]], rng: random.Random) -> list[str]:
    shuffled = [rng.sample(block, len(block)) for block in blocks]
    rng.shuffle(shuffled)
    # The k-th group of a block of n sits at (k + 1/2) / n of the lap, so every block
    # recurs in proportion to its size (exactly X Y Z X Y Z for equal blocks).
    keyed = sorted(
        (Fraction(2 * k + 1, 2 * len(block)), b, group)
        for b, block in enumerate(shuffled)
        for k, group in enumerate(block)
    )
    return [group for _, _, group in keyed]


def _strongest_first(
    members: Sequence[PlanningEntrant], rng: random.Random
) -> list[PlanningEntrant]:
    ranked = sorted(
        (m for m in members if m.seed_rank is not None),
        key=lambda m: (m.seed_rank, m.entry),
    )
    unranked = [m for m in members if m.seed_rank is None]
    rng.shuffle(unranked)
    return ranked + unranked


def _snake(slots: Sequence[str], lap: int) -> list[str]:
    # Reversing every other lap pairs a country's strongest with its weakest per group.
    laps = [list(slots[start : start + lap]) for start in range(0, len(slots), lap)]
    return [group for i, part in enumerate(laps) for group in (part[::-1] if i % 2 else part)]


def _blocks_by_size(blocks: Sequence[tuple[str, ...]]) -> list[list[tuple[str, ...]]]:
    by_size: dict[int, list[tuple[str, ...]]] = defaultdict(list)
    for block in blocks:
        by_size[len(block)].append(block)
    return list(by_size.values())


def _spread(values: Iterable[int]) -> int:
    numbers = list(values)
    return max(numbers) - min(numbers) if numbers else 0
