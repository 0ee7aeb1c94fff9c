"""wjpc-2025.txt, "Group Assignment for First Round": groups built on proportionality."""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlecomp.planning import (
    GroupAssignment,
    PlanningEntrant,
    PlanningError,
    assign_groups,
    country_flag,
)
from puzzlecomp.rules.loading import load_ruleset
from tests.conftest import examples

WJPC_GROUPS = ("A", "B", "C", "D", "E", "F")
WJPC_MERGES = (("A", "B"), ("C", "D"), ("E", "F"))


def field_of(countries: Mapping[str, int]) -> list[PlanningEntrant]:
    """Entrants numbered per country, e.g. {"CZE": 2} gives CZE-1 and CZE-2."""
    return [
        PlanningEntrant(entry=f"{country}-{i}", country=country)
        for country, count in countries.items()
        for i in range(1, count + 1)
    ]


def world_field(size: int = 1200, countries: int = 80) -> list[PlanningEntrant]:
    """A field like the WJPC's: a few big delegations and a long tail of small ones."""
    rng = random.Random(2025)
    codes = [f"C{i:02d}" for i in range(countries)]
    weights = [1 / (i + 1) for i in range(countries)]
    return [
        PlanningEntrant(f"e{i:04d}", rng.choices(codes, weights)[0], rng.randint(1, 3000))
        for i in range(size)
    ]


def counts_by_country(
    entrants: Sequence[PlanningEntrant], assignment: GroupAssignment
) -> dict[str, Counter[str]]:
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for entrant in entrants:
        counts[country_flag(entrant)][assignment.group_of[entrant.entry]] += 1
    return counts


def spread(values: Sequence[int]) -> int:
    return max(values) - min(values)


def test_wjpc_2025_group_assignment_spreads_each_country_evenly_over_groups() -> None:
    """wjpc-2025.txt, Group Assignment: "Participants from each country are evenly distributed"."""
    entrants = world_field()
    assignment = assign_groups(entrants, groups=WJPC_GROUPS, merges=WJPC_MERGES, seed=1)

    for per_group in counts_by_country(entrants, assignment).values():
        assert spread([per_group[group] for group in WJPC_GROUPS]) <= 1
    assert assignment.balance.max_country_spread == 1


def test_wjpc_2025_group_size_is_the_total_divided_by_the_number_of_groups() -> None:
    """wjpc-2025.txt, Group Assignment: participants per group = total / number of groups."""
    assignment = assign_groups(world_field(1201), groups=WJPC_GROUPS, seed=1)

    assert sorted(assignment.balance.sizes.values()) == [200, 200, 200, 200, 200, 201]
    assert assignment.balance.max_size_difference == 1


def test_wjpc_2025_each_group_represents_a_similar_number_of_countries() -> None:
    """wjpc-2025.txt, Group Assignment: "the total number of different countries ... similar"."""
    assignment = assign_groups(world_field(), groups=WJPC_GROUPS, merges=WJPC_MERGES, seed=7)

    assert assignment.balance.max_countries_difference <= 1


def test_wjpc_2025_groups_that_merge_later_receive_each_country_in_proportion() -> None:
    """wjpc-2025.txt, Group Assignment: proportionality between groups merging (S1 = A + B)."""
    entrants = field_of({"ESP": 3, "CZE": 4, "NOR": 5})
    assignment = assign_groups(entrants, groups=WJPC_GROUPS, merges=WJPC_MERGES, seed=3)

    for per_group in counts_by_country(entrants, assignment).values():
        per_block = [sum(per_group[group] for group in block) for block in WJPC_MERGES]
        assert spread(per_block) <= 1
    assert assignment.balance.max_country_block_spread <= 1


def test_wjpc_2025_mixed_entries_are_spread_together_under_the_wjpf_flag() -> None:
    """wjpc-2025.txt: mixed pairs and teams "participate under the international WJPF flag"."""
    mixed = load_ruleset("wjpc-2025").event("pairs").nationality.mixed_flag
    entrants = [PlanningEntrant(f"mixed-{i}", mixed) for i in range(6)]
    assignment = assign_groups(entrants, groups=WJPC_GROUPS, seed=5)

    assert sorted(assignment.group_of.values()) == list(WJPC_GROUPS)


def test_a_countrys_strongest_entrants_go_to_different_merged_blocks_then_groups() -> None:
    """Seeded strength is spread too: a country's top three land in S1, S2 and S3 material."""
    entrants = [PlanningEntrant(f"CZE-{i}", "CZE", seed_rank=i) for i in range(1, 13)]
    assignment = assign_groups(entrants, groups=WJPC_GROUPS, merges=WJPC_MERGES, seed=11)

    top_groups = [assignment.group_of[f"CZE-{i}"] for i in range(1, 7)]
    blocks = {group: n for n, block in enumerate(WJPC_MERGES) for group in block}
    assert sorted(top_groups) == list(WJPC_GROUPS)
    assert sorted(blocks[group] for group in top_groups[:3]) == [0, 1, 2]


def test_the_strongest_and_weakest_of_a_country_share_a_group_like_a_snake_draft() -> None:
    """The second lap runs backwards, so the group with a country's number 1 gets its number 12."""
    entrants = [PlanningEntrant(f"CZE-{i}", "CZE", seed_rank=i) for i in range(1, 13)]
    assignment = assign_groups(entrants, groups=WJPC_GROUPS, seed=4)

    assert assignment.group_of["CZE-1"] == assignment.group_of["CZE-12"]
    assert assignment.group_of["CZE-6"] == assignment.group_of["CZE-7"]


def test_the_recorded_seed_reproduces_the_published_groups() -> None:
    """wjpc-2025.txt: groups are released 15 days before; the seed lets anyone check them."""
    entrants = world_field(300, 20)
    first = assign_groups(entrants, groups=WJPC_GROUPS, merges=WJPC_MERGES, seed=42)
    again = assign_groups(entrants, groups=WJPC_GROUPS, merges=WJPC_MERGES, seed=42)
    other = assign_groups(entrants, groups=WJPC_GROUPS, merges=WJPC_MERGES, seed=43)

    assert dict(first.group_of) == dict(again.group_of)
    assert dict(first.group_of) != dict(other.group_of)


def test_members_lists_a_groups_entries_by_entry_id() -> None:
    """The organiser's group lists come out sorted, whatever the draw order."""
    assignment = assign_groups(field_of({"ESP": 4}), groups=("A", "B"), seed=1)

    assert sorted(assignment.members("A") + assignment.members("B")) == [
        "ESP-1",
        "ESP-2",
        "ESP-3",
        "ESP-4",
    ]
    assert list(assignment.members("A")) == sorted(assignment.members("A"))


def test_no_entrants_give_empty_groups() -> None:
    """Groups can be planned before registration opens."""
    assignment = assign_groups([], groups=WJPC_GROUPS, merges=WJPC_MERGES, seed=1)

    assert dict(assignment.group_of) == {}
    assert set(assignment.balance.sizes.values()) == {0}
    assert assignment.balance.max_country_spread == 0


@pytest.mark.parametrize(
    ("entrants", "groups", "merges", "code"),
    [
        (field_of({"ESP": 1}), (), (), "groups.no_groups"),
        (field_of({"ESP": 1}), ("A", "A"), (), "groups.duplicate_group"),
        (field_of({"ESP": 1}), ("A", "B"), (("A", "C"),), "groups.unknown_merge_group"),
        (
            field_of({"ESP": 1}),
            ("A", "B", "C"),
            (("A", "B"), ("B", "C")),
            "groups.group_merged_twice",
        ),
        (field_of({"ESP": 1}) * 2, ("A", "B"), (), "groups.duplicate_entry"),
    ],
)
def test_group_assignment_refuses_impossible_input_with_a_code(
    entrants: list[PlanningEntrant],
    groups: tuple[str, ...],
    merges: tuple[tuple[str, ...], ...],
    code: str,
) -> None:
    """Impossible input is an error with a machine code, never a silently odd draw."""
    with pytest.raises(PlanningError) as caught:
        assign_groups(entrants, groups=groups, merges=merges, seed=1)

    assert caught.value.code == code


countries = st.sampled_from(["CZE", "ESP", "NOR", "AUS", "USA", "FRA", "WJPF", ""])
fields = st.lists(st.tuples(countries, st.none() | st.integers(1, 50)), max_size=150).map(
    lambda rows: [PlanningEntrant(f"e{i:03d}", c, rank) for i, (c, rank) in enumerate(rows)]
)


@st.composite
def equal_merges(draw: st.DrawFn) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """Groups in merged blocks of equal size, like A+B, C+D, E+F (a block of 1 = no merge)."""
    blocks, size = draw(st.integers(1, 4)), draw(st.integers(1, 3))
    groups = tuple(f"G{i}" for i in range(blocks * size))
    merges = tuple(groups[b * size : (b + 1) * size] for b in range(blocks)) if size > 1 else ()
    return groups, merges


@settings(max_examples=examples(200), deadline=None)
@given(entrants=fields, layout=equal_merges(), seed=st.integers(0, 2**32))
def test_wjpc_2025_group_assignment_invariants_hold_for_any_field(
    entrants: list[PlanningEntrant],
    layout: tuple[tuple[str, ...], tuple[tuple[str, ...], ...]],
    seed: int,
) -> None:
    """wjpc-2025.txt, Group Assignment: sizes, countries and merged blocks all within one."""
    groups, merges = layout
    assignment = assign_groups(entrants, groups=groups, merges=merges, seed=seed)
    counts = counts_by_country(entrants, assignment)
    sizes = Counter(assignment.group_of.values())
    countries_in = Counter(group for per_group in counts.values() for group in per_group)
    blocks = merges or tuple((group,) for group in groups)

    assert set(assignment.group_of) == {e.entry for e in entrants}
    assert spread([sizes[group] for group in groups]) <= 1
    assert spread([countries_in[group] for group in groups]) <= 1
    for per_group in counts.values():
        assert spread([per_group[group] for group in groups]) <= 1
        assert spread([sum(per_group[group] for group in block) for block in blocks]) <= 1
    assert assignment.balance.max_size_difference == spread([sizes[g] for g in groups])
    assert assignment.balance.max_country_spread <= 1
    assert assignment.balance.max_country_block_spread <= 1


@settings(max_examples=examples(100), deadline=None)
@given(entrants=fields, shuffle_seed=st.integers(0, 1000), seed=st.integers(0, 2**32))
def test_group_assignment_is_the_same_for_a_seed_whatever_the_input_order(
    entrants: list[PlanningEntrant], shuffle_seed: int, seed: int
) -> None:
    """The published seed must reproduce the groups from any export of the entry list."""
    shuffled = list(entrants)
    random.Random(shuffle_seed).shuffle(shuffled)

    first = assign_groups(entrants, groups=WJPC_GROUPS, merges=WJPC_MERGES, seed=seed)
    again = assign_groups(shuffled, groups=WJPC_GROUPS, merges=WJPC_MERGES, seed=seed)

    assert dict(first.group_of) == dict(again.group_of)


@settings(max_examples=examples(100), deadline=None)
@given(entrants=fields, seed=st.integers(0, 2**32))
def test_uneven_merges_still_keep_groups_and_countries_within_one(
    entrants: list[PlanningEntrant], seed: int
) -> None:
    """Blocks of different sizes (A+B+C, D+E, F alone) cannot break the per-group rules."""
    merges = (("A", "B", "C"), ("D", "E"))
    assignment = assign_groups(entrants, groups=WJPC_GROUPS, merges=merges, seed=seed)

    assert assignment.balance.max_size_difference <= 1
    assert assignment.balance.max_country_spread <= 1
    assert assignment.balance.max_countries_difference <= 1
