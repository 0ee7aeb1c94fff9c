"""How well seeding from past results predicts a WJPC first round, and how long rating takes.

    .venv/bin/python bench/seeding_correlation.py
    .venv/bin/python bench/seeding_correlation.py --data ../shared/data --repeat 5

For each target year (2025, and 2024 to tune without looking at 2025) the individual event's
history is every earlier edition. In each first-round group A-F of the target year, the
entrants with history are seeded (`seed_entries` of `rate_people`, docs/seeding.md) and the
Spearman correlation between their seed rank and their published rank is taken; the figure is
the mean over the six groups. The baseline seeds the same entrants by their placement in
their last edition alone: the final before the semifinals before the first round, then the
published rank within that round. Also times `rate_people` over every event of every file of
the data directory (the sample archive, about 10,000 results): median of `--repeat` runs.
Prints JSON.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from puzzlecomp.formats.history_csv import PublishedResult, past_results, read_history
from puzzlecomp.planning.rating import SeedingEntry, rate_people, seed_entries

FIRST_ROUND_GROUPS = "ABCDEF"
STAGE = {"final": 0, "S1": 1, "S2": 1, "S3": 1}  # any other round is a first-round group


def average_ranks(values: Sequence[float]) -> list[float]:
    """Ranks from 1, ties sharing the mean of their places."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for i in order[start : end + 1]:
            ranks[i] = (start + end) / 2 + 1
        start = end + 1
    return ranks


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Spearman's rank correlation: Pearson's on the average ranks."""
    rx, ry = average_ranks(xs), average_ranks(ys)
    mx, my = statistics.fmean(rx), statistics.fmean(ry)
    covariance = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    spread = sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry)
    return float(covariance / spread**0.5)


def rating_seed(history: list[PublishedResult], event: str = "individual",
                ) -> Callable[[list[SeedingEntry]], dict[str, int]]:
    ratings = rate_people(past_results(history, event=event))

    def seed(entries: list[SeedingEntry]) -> dict[str, int]:
        return {s.entry: s.seed_rank for s in seed_entries(entries, ratings) if s.seed_rank}

    return seed


def last_edition_seed(
    history: list[PublishedResult],
) -> Callable[[list[SeedingEntry]], dict[str, int]]:
    placement: dict[str, tuple[int, int, int]] = {}
    for row in history:
        if row.event != "individual":
            continue
        key = (-row.year, STAGE.get(row.round, 2), row.rank)
        for person in row.people:
            placement[person] = min(placement.get(person, key), key)

    def seed(entries: list[SeedingEntry]) -> dict[str, int]:
        placed = sorted(
            (placement[e.people[0]][1:], e.entry) for e in entries if e.people[0] in placement
        )
        return {entry: rank for rank, (_, entry) in enumerate(placed, start=1)}

    return seed


def group_correlations(
    rows: list[PublishedResult], year: int, seed: Callable[[list[SeedingEntry]], dict[str, int]],
    event: str = "individual",
) -> dict[str, float]:
    figures = {}
    for group in FIRST_ROUND_GROUPS:
        field = [r for r in rows if (r.year, r.event, r.round) == (year, event, group)]
        ranks = seed([SeedingEntry(r.entrant, r.people) for r in field if r.people])
        seeded = [r for r in field if r.entrant in ranks]
        if len(seeded) >= 3:
            figures[group] = spearman([ranks[r.entrant] for r in seeded],
                                      [r.rank for r in seeded])
    return figures


def event_correlations(rows: list[PublishedResult], year: int) -> dict[str, Any]:
    """The rating's figure for every event (pairs and teams from their own event's history)."""
    history = [r for r in rows if r.year < year]
    out: dict[str, Any] = {}
    for event in ("individual", "pairs", "teams"):
        per_group = group_correlations(rows, year, rating_seed(history, event), event)
        out[event] = {"mean": round(statistics.fmean(per_group.values()), 4),
                      "groups": {g: round(v, 3) for g, v in per_group.items()}}
    return out


def correlations(rows: list[PublishedResult], year: int) -> dict[str, Any]:
    history = [r for r in rows if r.year < year]
    out: dict[str, Any] = {}
    for name, method in (("rating", rating_seed), ("last_edition", last_edition_seed)):
        per_group = group_correlations(rows, year, method(history))
        out[name] = {
            "mean": round(statistics.fmean(per_group.values()), 4),
            "groups": {g: round(v, 3) for g, v in per_group.items()},
        }
    return out


def rating_seconds(archive: Mapping[str, list[PublishedResult]], repeat: int) -> dict[str, Any]:
    events = [
        past_results(rows, event=event)
        for rows in archive.values()
        for event in sorted({r.event for r in rows})
    ]
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        for results in events:
            rate_people(results)
        samples.append(time.perf_counter() - start)
    return {
        "results": sum(len(results) for results in events),
        "median_s": round(statistics.median(samples), 3),
        "target_s": 2.0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    here = Path(__file__).resolve().parent
    parser.add_argument("--data", type=Path, default=here.parent.parent / "shared" / "data")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    archive = {
        path.name: read_history(path.read_text(encoding="utf-8"), source=str(path))
        for path in sorted(args.data.glob("*-results.csv"))
    }
    wjpc = archive["wjpc-results.csv"]
    report = {
        "spearman_2025_from_editions_before_2025": correlations(wjpc, 2025),
        "spearman_2024_from_editions_before_2024": correlations(wjpc, 2024),
        "spearman_2025_by_event": event_correlations(wjpc, 2025),
        "spearman_2024_by_event": event_correlations(wjpc, 2024),
        "target": 0.90,
        "rating_whole_archive": rating_seconds(archive, args.repeat),
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
