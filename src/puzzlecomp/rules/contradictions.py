"""A record that says two things at once: each fact a status holds or must not hold.

A finish is a time (wjpc-2025.txt, Recording Time; czech-championship.txt, Finishing the
puzzle), a count is made only of an unfinished puzzle at the limit (wjpc-2025.txt, Unfinished
Puzzles; australia-state-national.txt, "Judges will count and record the remaining pieces"),
missing pieces are noted at a finish only (wjpc-2025.txt, Stopping the Timer with Pieces
Remaining), and a result without a ranking time or count (dnf, dsq, dns, assisted, outside help)
holds neither. In a multi-puzzle round the entry's time is its last puzzle's finish (teams:
wjpc-2025.txt, Teams Final; czech-blind-and-relay.txt, 3.5): a plain time that says otherwise
is refused, not chosen over the puzzles. docs/rulesets.md, "Contradictory records".
"""

from __future__ import annotations

from collections.abc import Callable

from puzzlecomp.rules.results import NO_MISSING, PuzzleRecord, Result, Status
from puzzlecomp.rules.times import format_time

Reporter = Callable[..., None]
_EMPTY_PUZZLE = PuzzleRecord()


def check_contradictions(result: Result, bad: Reporter) -> None:
    """Report every pair of facts in the record that cannot both be true."""
    status = result.status
    if status is Status.FINISHED:
        for name in ("pieces", "remaining"):
            if getattr(result, name) is not None:
                bad("result.finished_with_count", name,
                    f"a finished result has a time, not a {name} count", status=str(status))
    elif status is Status.UNFINISHED and result.time is not None:
        bad("result.unfinished_with_time", "time",
            "a result that is not finished has no finish time; choose finished or remove "
            "the time")
    if status is not Status.FINISHED and result.missing != NO_MISSING:
        bad("result.missing_without_finish", "missing",
            f"a {status} result has no finish, so no missing pieces", status=str(status))
    if status not in (Status.FINISHED, Status.UNFINISHED):
        if any(record != _EMPTY_PUZZLE for record in result.puzzles):
            bad("result.puzzles_with_status", "puzzles",
                f"a {status} result holds no per-puzzle times or counts", status=str(status))
        return
    for index, record in enumerate(result.puzzles):
        field = f"puzzle {index + 1}"
        if record.time is not None and (record.pieces is not None
                                        or record.remaining is not None):
            bad("result.finished_with_count", field,
                f"{field} has a finish time and a count", status="finished")
        if record.time is None and record.missing != NO_MISSING:
            bad("result.missing_without_finish", field,
                f"{field} is not finished, so it has no missing pieces", status="unfinished")
        if status is Status.FINISHED and record.time is None:
            bad("result.finish_without_time", field,
                f"{field} of a finished result needs its finish time")
    if status is Status.FINISHED and result.time is not None and result.puzzles:
        times = [record.time for record in result.puzzles]
        if all(t is not None for t in times):
            last = max(t for t in times if t is not None)
            if result.time != last:
                bad("result.time_disagrees", "time",
                    f"the time {format_time(result.time)} is not the last puzzle's finish "
                    f"{format_time(last)}", time=format_time(result.time),
                    last=format_time(last))
