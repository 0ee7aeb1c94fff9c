"""Benchmarks of the engine for `puzzlecomp bench`: medians of repeated runs, as JSON."""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from puzzlecomp.planning import (
    FloorPlan,
    PlanningEntrant,
    SeatingEntrant,
    assign_groups,
    seat_entries,
)
from puzzlecomp.rules.loading import load_ruleset
from puzzlecomp.rules.qualification import qualify_for_next_round
from puzzlecomp.rules.ranking import rank_round
from puzzlecomp.rules.rounds import resolve_round
from puzzlecomp.samples.synthetic import synthetic_round


def median_ms(action: Callable[[], object], *, repeat: int) -> float:
    """Median wall time of `repeat` runs of `action`, in milliseconds (one warm-up run first)."""
    action()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        outcome = action()
        samples.append((time.perf_counter() - start) * 1000)
        del outcome  # freeing the result is not part of the work measured
    return round(statistics.median(samples), 3)


def bench_ranking(sizes: tuple[int, ...] = (1_200, 12_000, 120_000)) -> dict[str, Any]:
    """Ranking of one WJPC first round of n entries; cost growth against n log n."""
    rules = resolve_round(load_ruleset("wjpc-2025"), "individual", "first")
    medians = {}
    for n in sizes:
        results = synthetic_round(n, groups=("A",))
        medians[n] = median_ms(partial(rank_round, results, rules), repeat=max(3, 60_000 // n))
    small, large = sizes[0], sizes[-1]
    allocation = {n: median_ms(partial(_lines_allocate, n), repeat=max(3, 60_000 // n))
                  for n in (small, large)}
    return {
        "median_ms": {str(n): ms for n, ms in medians.items()},
        "ratio_largest_to_smallest": round(medians[large] / medians[small], 1),
        "n_log_n_ratio": round(large * math.log(large) / (small * math.log(small)), 1),
        # Medians are kept to 0.001 ms: a tiny baseline may read 0 and must not divide by it.
        "allocation_ratio_baseline": round(allocation[large] / max(allocation[small], 0.001), 1),
        "target": "1,200 entries under 5 ms; 120,000 within 200x of 1,200",
    }


def _lines_allocate(n: int) -> list[tuple[int, ...]]:
    """Baseline: n fresh six-field tuples, a ranking's lines with nothing computed. How much
    more a large list costs per line than a small one is the machine's memory, not the code."""
    return [(position, position, 0, 0, 0, 0) for position in range(n)]


def bench_qualification() -> dict[str, Any]:
    """Ranking and qualification of a WJPC-size first round: 6 groups of 200."""
    rules = resolve_round(load_ruleset("wjpc-2025"), "individual", "first")
    results = synthetic_round(1_200, groups=rules.round.groups)
    ranking = rank_round(results, rules)
    qualify_ms = median_ms(lambda: qualify_for_next_round(ranking, rules), repeat=50)
    both_ms = median_ms(
        lambda: qualify_for_next_round(rank_round(results, rules), rules), repeat=50
    )
    return {
        "median_ms": qualify_ms,
        "with_ranking_ms": both_ms,
        "entries": 1_200,
        "qualifiers": len(qualify_for_next_round(ranking, rules)),
        "target": "under 20 ms",
    }


def bench_group_assignment() -> dict[str, Any]:
    """Group assignment of a WJPC-size first round: 1,200 entries from 80 countries."""
    rng = random.Random(5)
    countries = [f"C{n:02d}" for n in range(80)]
    weights = [1 / (n + 1) for n in range(80)]
    entrants = [
        PlanningEntrant(f"E{i:05d}", rng.choices(countries, weights)[0], i + 1)
        for i in range(1_200)
    ]
    first = load_ruleset("wjpc-2025").event("individual").round("first")
    ms = median_ms(
        lambda: assign_groups(entrants, groups=first.groups, merges=first.merging_groups, seed=1),
        repeat=20,
    )
    return {"median_ms": ms, "entries": 1_200, "countries": 80, "target": "under 1 s"}


def bench_seating() -> dict[str, Any]:
    """Seating 200 entries of a first-round group in the WJPC hall."""
    spec = load_ruleset("wjpc-2025").floor_plan
    assert spec is not None
    plan = FloorPlan(rows=spec.rows, guest_tables=spec.guest_tables)
    entrants = [SeatingEntrant(f"E{i:03d}") for i in range(200)]
    ms = median_ms(lambda: seat_entries(entrants, plan), repeat=50)
    return {"median_ms": ms, "entries": 200, "target": "under 50 ms"}


BENCHMARKS: dict[str, Callable[[], dict[str, Any]]] = {
    "ranking": bench_ranking,
    "qualification": bench_qualification,
    "group_assignment": bench_group_assignment,
    "seating": bench_seating,
}
