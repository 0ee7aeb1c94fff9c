"""Finishes a source ranks among the entries that did not finish (docs/archive.md).

`../shared/data/README.md`: WJPC 2022 teams group A ranks 70 and 71 finished but are ranked
among the unfinished, their counted pieces unpublished. Stored as finishers they would rank
first by time and keep a best time no rule gave them, so they are taken as not finished with
counts evenly between their unfinished neighbours', which keeps every published rank.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Iterable

from puzzlecomp.formats.history_csv import PublishedResult


@dataclasses.dataclass(frozen=True)
class RankedUnfinished:
    """A finish ranked among the unfinished, taken as unfinished with `pieces`."""

    source: str
    row: int
    entrant: str
    rank: int
    pieces: int

    def __str__(self) -> str:
        return (f"{self.source}, row {self.row}, entry {self.entrant}, field completed: finished "
                f"but ranked {self.rank}, among the entries that did not; taken as not finished "
                f"with {self.pieces} pieces (between its neighbours')")


def finishes_ranked_unfinished(rows: Iterable[PublishedResult], *, source: str
                               ) -> tuple[list[PublishedResult], list[RankedUnfinished]]:
    """The rows with every such finish taken as unfinished, and what was taken."""
    rows = list(rows)
    by_round: dict[tuple[int, str, str], list[PublishedResult]] = defaultdict(list)
    for row in rows:
        by_round[(row.year, row.event, row.round)].append(row)
    replaced: dict[int, PublishedResult] = {}
    taken: list[RankedUnfinished] = []
    for its in by_round.values():
        its.sort(key=lambda r: r.rank)
        first_unfinished = next((r.rank for r in its if not r.completed), None)
        odd = [r for r in its if r.completed and first_unfinished is not None
               and r.rank > first_unfinished]
        if not odd:
            continue
        for run in _runs(its, odd):
            # The nearest unfinished neighbours: the fewest pieces above, the most below.
            above = min((r.pieces_placed or 0 for r in its
                         if not r.completed and r.rank < run[0].rank), default=0)
            below = max((r.pieces_placed or 0 for r in its
                         if not r.completed and r.rank > run[-1].rank), default=0)
            for k, row in enumerate(run, start=1):
                pieces = round(above - (above - below) * k / (len(run) + 1))
                replaced[row.row] = dataclasses.replace(
                    row, completed=False, time_seconds=None, pieces_placed=float(pieces))
                taken.append(RankedUnfinished(source, row.row, row.entrant, row.rank, pieces))
    return [replaced.get(row.row, row) for row in rows], taken


def _runs(ranked: list[PublishedResult], odd: list[PublishedResult]
          ) -> list[list[PublishedResult]]:
    """The odd rows in runs of rows next to each other in rank order."""
    at = {row.row: n for n, row in enumerate(ranked)}
    runs: list[list[PublishedResult]] = []
    for row in odd:
        if runs and at[runs[-1][-1].row] == at[row.row] - 1:
            runs[-1].append(row)
        else:
            runs.append([row])
    return runs
