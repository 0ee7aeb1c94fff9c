"""An archived round's time limit (docs/archive.md, Time limits).

`../shared/data/README.md`: the file's `time_limit_seconds` is sometimes the slowest finish,
not the limit. The ruleset's limit is taken where no finish of the round passes it; otherwise
the file's (an edition whose limit differed, such as the 2019 teams final's 8 hours), unless
the file's column is itself the slowest finish: then it is no limit at all (the 2024
individual semifinal: every entry "finished", the column 5183 s, the slowest time). The
ruleset's limit stands, and a finish past it is no finish (wjpc-2025.txt: the puzzle is to be
assembled "within a maximum period of 75 minutes"; the engine refuses a finish past the
limit): the archive keeps its published place as one that did not finish within the limit,
its count unpublished (`Result` status `dnf`), so no time, record or points come of it.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence

from puzzlecomp.formats.archive_sizes import round_of
from puzzlecomp.formats.history_csv import PublishedResult
from puzzlecomp.rules.ruleset import Ruleset

# (year, event, round code) -> the round's time limit in minutes.
RoundLimits = dict[tuple[int, str, str], int]


def round_limits(rows: Sequence[PublishedResult], ruleset: Ruleset, *,
                 source: str) -> tuple[RoundLimits, list[str]]:
    """Every round's limit, and a warning line per round whose file column disagrees."""
    specs = {spec.id: spec for spec in ruleset.events}
    by_round: dict[tuple[int, str, str], list[PublishedResult]] = defaultdict(list)
    for row in rows:
        if row.event in specs:
            by_round[(row.year, row.event, round_of(specs[row.event], row.round).code)].append(row)
    limits: RoundLimits = {}
    warnings = []
    for (year, event, code), its in sorted(by_round.items()):
        ruled = next((r.time_limit_minutes for r in specs[event].rounds if r.id == code), None)
        limits[(year, event, code)], warning = round_limit(
            its, ruled, source=source, label=f"{year} {event} {code}")
        if warning:
            warnings.append(warning)
    return limits, warnings


def round_limit(rows: Sequence[PublishedResult], ruled_minutes: int | None, *, source: str,
                label: str) -> tuple[int, str | None]:
    """(the round's limit in minutes, a warning line where the file's column disagrees)."""
    published = max(r.time_limit_seconds for r in rows)
    slowest = max((r.time_seconds or 0 for r in rows if r.completed), default=0)
    if ruled_minutes is None or published == ruled_minutes * 60:
        return math.ceil(published / 60), None
    where = ", ".join(str(r.row) for r in rows[:3]) + (", ..." if len(rows) > 3 else "")
    if slowest > ruled_minutes * 60 and published == slowest:
        past = [r for r in rows if r.completed and (r.time_seconds or 0) > ruled_minutes * 60]
        rows_past = ", ".join(str(r.row) for r in past[:3]) + (", ..." if len(past) > 3 else "")
        return ruled_minutes, (
            f"{source}, rows {where}, field time_limit_seconds: {label} says {published}, the "
            f"slowest finish, not a limit; the ruleset's {ruled_minutes} minutes taken, and the "
            f"{len(past)} finishes past them (rows {rows_past}, field time_seconds) taken as "
            "not finished within the limit (their counts unpublished), their places kept")
    if slowest <= ruled_minutes * 60:
        return ruled_minutes, (
            f"{source}, rows {where}, field time_limit_seconds: {label} says {published}; the "
            f"ruleset's {ruled_minutes} minutes taken (no finish passes them)")
    return math.ceil(published / 60), (
        f"{source}, rows {where}, field time_limit_seconds: {label} says {published}, the "
        f"ruleset {ruled_minutes} minutes; a finish passes them, so the file's is taken")
