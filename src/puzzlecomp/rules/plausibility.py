"""Results that deserve a second look when they are recorded (issue 15, plausibility warnings).

None of these refuses a result: each gives a reason, and the head judge's queue shows the result
with it until the head judge has looked (docs/judging.md, Second looks). The limits' defaults
are documented there too.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from puzzlecomp.rules.errors import RuleViolation, violation
from puzzlecomp.rules.times import format_time


@dataclass(frozen=True)
class PlausibilityLimits:
    """How much faster than a reference time a finish may be before it is looked at again."""

    # A finish more than this share faster than the person's (or pair's, team's) best time
    # for the same event and puzzle size.
    faster_than_best: float = 0.25
    # A finish more than this share faster than the record for the event and puzzle size.
    faster_than_record: float = 0.10


DEFAULT_LIMITS = PlausibilityLimits()


@dataclass(frozen=True)
class RecordedAt:
    """A result as it stands at its table: what the second looks compare."""

    entry: str
    table: int | None
    finished: bool
    time_seconds: int | None
    missing: int = 0


def far_faster(time_seconds: int, reference_seconds: int, share: float) -> bool:
    """True when the time is more than `share` (0.25 is 25 %) faster than the reference."""
    return time_seconds < reference_seconds * (1.0 - share)


def faster_than_references(recorded: RecordedAt, *, best_seconds: int | None,
                           record_seconds: int | None,
                           limits: PlausibilityLimits = DEFAULT_LIMITS) -> list[RuleViolation]:
    """A finish far faster than the entrant's best or the record of its event and puzzle size.

    A strong improvement happens; the check asks only that someone looks at the puzzle and
    the clock again (a tap at the wrong table, a time read wrongly).
    """
    time = recorded.time_seconds
    if not recorded.finished or time is None:
        return []
    found = []
    if best_seconds is not None and far_faster(time, best_seconds, limits.faster_than_best):
        found.append(violation(
            "second_look.faster_than_best",
            f"{format_time(time)} is more than {limits.faster_than_best:.0%} faster than the "
            f"best time so far ({format_time(best_seconds)})", entry=recorded.entry,
            time=format_time(time), best=format_time(best_seconds),
            percent=round(limits.faster_than_best * 100)))
    if record_seconds is not None and far_faster(time, record_seconds,
                                                 limits.faster_than_record):
        found.append(violation(
            "second_look.faster_than_record",
            f"{format_time(time)} is more than {limits.faster_than_record:.0%} faster than "
            f"the record ({format_time(record_seconds)})", entry=recorded.entry,
            time=format_time(time), record=format_time(record_seconds),
            percent=round(limits.faster_than_record * 100)))
    return found


def same_as_another_table(recorded: RecordedAt,
                          others: Iterable[RecordedAt]) -> list[RuleViolation]:
    """Another table of the same group finished at the same second with the same missing pieces.

    That is what one finish recorded at two tables looks like. Two finishes at the same second
    happen several times an hour in a field of hundreds, so without missing pieces to compare
    only a neighbouring table counts (a judge's slip to the next table).
    """
    time = recorded.time_seconds
    if not recorded.finished or time is None:
        return []
    found = []
    for other in others:
        if (other.entry == recorded.entry or not other.finished or other.time_seconds != time
                or other.missing != recorded.missing):
            continue
        neighbours = (recorded.table is not None and other.table is not None
                      and abs(recorded.table - other.table) <= 1)
        if recorded.missing or neighbours:
            found.append(violation(
                "second_look.same_as_table",
                f"table {other.table} (entry {other.entry}) has the same time "
                f"{format_time(time)} and {recorded.missing} missing pieces",
                entry=recorded.entry, table=other.table if other.table is not None else "-",
                other=other.entry, time=format_time(time), missing=recorded.missing))
    return found


def count_after_finish(recorded: RecordedAt, *, finished_before: int | None) -> list[RuleViolation]:
    """A count recorded for an entry already recorded as finished (at `finished_before`).

    A count at the wrong table looks like this. (A puzzle the judge finds incomplete at its
    check is counted by the check itself: the caller passes no earlier finish for that.)
    """
    if recorded.finished or finished_before is None:
        return []
    return [violation(
        "second_look.count_after_finish",
        f"counted, but recorded as finished at {format_time(finished_before)} before",
        entry=recorded.entry, time=format_time(finished_before))]


def second_looks(recorded: RecordedAt, *, best_seconds: int | None, record_seconds: int | None,
                 finished_before: int | None, others: Iterable[RecordedAt],
                 limits: PlausibilityLimits = DEFAULT_LIMITS) -> list[RuleViolation]:
    """Every reason to look at a just recorded result again; empty when it looks plausible."""
    return [
        *faster_than_references(recorded, best_seconds=best_seconds,
                                record_seconds=record_seconds, limits=limits),
        *same_as_another_table(recorded, others),
        *count_after_finish(recorded, finished_before=finished_before),
    ]
