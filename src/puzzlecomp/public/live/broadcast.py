"""What the stream's overlays and the hall's projector scenes show, from the round's snapshot.

Names come from the snapshot, which already withholds those whose person did not consent to
publication (selectors/publishing): an overlay prints the same words as the results page.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from puzzlecomp.public.live.display import ResultRow, Words, group_heading, result_row

# Places on a podium.
PODIUM_PLACES = 3
LATEST_SHOWN = 5
# The most rows a "top N" overlay shows: more do not fit 1080 pixels.
TOP_MOST = 20


@dataclass(frozen=True)
class GroupRows:
    group: str
    heading: str
    rows: list[ResultRow]


def _in_group(line: dict[str, Any], group: str | None) -> bool:
    return group is None or (line.get("group") or "") == group


def latest_finishes(data: dict[str, Any], words: Words, *, group: str | None = None,
                    count: int = LATEST_SHOWN) -> list[ResultRow]:
    """The last entrants to finish (by their stopwatch time), the latest first."""
    finished = [line for line in data["lines"] if line["status"] == "finished"
                and line.get("time_seconds") is not None and _in_group(line, group)]
    finished.sort(key=lambda line: line["time_seconds"], reverse=True)
    return [result_row(line, words) for line in finished[:count]]


def top_rows(data: dict[str, Any], words: Words, *, group: str | None,
             count: int) -> list[GroupRows]:
    """The first `count` lines of each group (or of `group`), in ranking order."""
    groups = [group] if group is not None else list(data["round"]["groups"] or [""])
    by_group: dict[str, list[ResultRow]] = {g: [] for g in groups}
    for line in data["lines"]:
        rows = by_group.get(line.get("group") or "")
        if rows is None and len(groups) == 1 and group is None:
            rows = by_group[groups[0]]
        if rows is not None and len(rows) < count and line.get("rank") is not None:
            rows.append(result_row(line, words))
    return [GroupRows(g, group_heading(g) if len(groups) > 1 or group else "", rows)
            for g, rows in by_group.items()]


def podium(data: dict[str, Any], words: Words, *, group: str | None) -> list[GroupRows]:
    """The finishers placed first to third of each group (or of `group`); where the ruleset
    has an official ranking (a national title: Norway, the Czech rules), the first three of
    the official ranking, as on the championship page and the certificates."""
    if data["round"].get("official_ranking"):
        return [GroupRows(g.group, g.heading, sorted(
                    (replace(row, rank=row.official_rank) for row in g.rows
                     if row.official_rank is not None and row.final
                     and row.official_rank <= PODIUM_PLACES),
                    key=lambda row: row.rank or 0))
                for g in top_rows(data, words, group=group, count=len(data["lines"]))]
    return [GroupRows(g.group, g.heading,
                      [row for row in g.rows if row.rank is not None and row.final
                       and row.rank <= PODIUM_PLACES])
            for g in top_rows(data, words, group=group, count=PODIUM_PLACES * 2)]


def qualifiers(data: dict[str, Any], words: Words, *,
               group: str | None = None) -> list[GroupRows]:
    """The lines going on to the next round, by group (or of `group`): the confirmed
    qualifiers once the organiser confirmed any, else the engine's forecast (each row says
    which it is), and never a line that does not go on."""
    going = [line for line in data["lines"] if line.get("qualified") and _in_group(line, group)]
    if any(line["qualified"].get("confirmed") for line in going):
        going = [line for line in going if line["qualified"].get("confirmed")]
    by_group: dict[str, list[ResultRow]] = {}
    for line in going:
        by_group.setdefault(line.get("group") or "", []).append(result_row(line, words))
    return [GroupRows(g, group_heading(g), rows) for g, rows in by_group.items()]


@dataclass(frozen=True)
class Tables:
    """Which groups of a round of several are at the tables now, and which still wait."""

    playing: list[str]
    waiting: list[str]


def groups_at_tables(data: dict[str, Any]) -> Tables:
    """The groups assembling now (their clock counts down) and those waiting for their start,
    from the snapshot's clocks (`rules.round_life.group_clock_at` decided each); nothing for a
    round of one group."""
    groups = list(data["round"]["groups"] or [])
    if len(groups) < 2:
        return Tables([], [])
    clocks = data.get("group_clocks") or {}
    if not clocks:
        # Started as a whole (or not at all): every group shares the round's clock.
        shows = data["clock"]["shows"]
        return Tables(groups if shows == "countdown" else [],
                      groups if shows == "waiting" else [])
    return Tables([g for g in groups if (clocks.get(g) or {}).get("shows") == "countdown"],
                  [g for g in groups if (clocks.get(g) or {}).get("shows", "waiting")
                   == "waiting"])


def entrant_row(data: dict[str, Any], words: Words, number: int) -> ResultRow | None:
    line = next((line for line in data["lines"] if line["entry"] == number), None)
    return result_row(line, words) if line else None
