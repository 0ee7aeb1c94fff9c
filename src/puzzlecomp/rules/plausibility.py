"""Results that deserve a second look when they are recorded (issue 15, plausibility warnings).

None of these refuses a result: each gives a reason, and the head judge's queue shows the result
with it until the head judge has looked (docs/judging.md, Second looks). The limits' defaults
are documented there too.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from puzzlecomp.rules.errors import RuleViolation, violation
from puzzlecomp.rules.times import format_time


@dataclass(frozen=True)
class PlausibilityLimits:
    """How much faster than a reference time a finish may be before it is looked at again.

    The defaults were chosen on the WJPC 2024 first round replayed with the editions before it
    (bench/second_looks.py): a strong day is 25-35 % faster than expected, a slip more.
    """

    # A finish more than this share faster than expected: the entrant's rating from earlier
    # results at the pace of its group's puzzle (planning/fairness.py), so an easy puzzle
    # makes no one suspicious.
    faster_than_expected: float = 0.40
    # A finish more than this share faster than every other finish of its group.
    ahead_of_group: float = 0.20
    # A finish more than this share faster than the record for the event and puzzle size.
    faster_than_record: float | None = None


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


def faster_than_references(recorded: RecordedAt, *, expected_seconds: float | None,
                           group_next_seconds: int | None, record_seconds: int | None,
                           limits: PlausibilityLimits = DEFAULT_LIMITS) -> list[RuleViolation]:
    """A finish far faster than expected of the entrant, than the group's every other finish
    (`group_next_seconds`: the fastest of them), or than the record of its event and size.

    The expected time is the entrant's history adjusted for the round's difficulty (the
    group's pace), so an easy puzzle or a strong field is no reason; a finish far ahead of its
    group is one, history or not. A strong day happens; the check asks only that someone looks
    at the puzzle and the clock again (a tap at the wrong table, a time read wrongly).
    """
    time = recorded.time_seconds
    if not recorded.finished or time is None:
        return []
    found = []
    if expected_seconds is not None and far_faster(time, round(expected_seconds),
                                                   limits.faster_than_expected):
        found.append(violation(
            "second_look.faster_than_expected",
            f"{format_time(time)} is more than {limits.faster_than_expected:.0%} faster than "
            f"expected from earlier results at this group's pace "
            f"({format_time(round(expected_seconds))})", entry=recorded.entry,
            time=format_time(time), expected=format_time(round(expected_seconds)),
            percent=round(limits.faster_than_expected * 100)))
    if group_next_seconds is not None and far_faster(time, group_next_seconds,
                                                     limits.ahead_of_group):
        found.append(violation(
            "second_look.ahead_of_group",
            f"{format_time(time)} is more than {limits.ahead_of_group:.0%} faster than every "
            f"other finish of the group (the next is {format_time(group_next_seconds)})",
            entry=recorded.entry, time=format_time(time),
            next=format_time(group_next_seconds),
            percent=round(limits.ahead_of_group * 100)))
    share = limits.faster_than_record
    if share is not None and record_seconds is not None and far_faster(time, record_seconds,
                                                                        share):
        found.append(violation(
            "second_look.faster_than_record",
            f"{format_time(time)} is more than {share:.0%} faster than "
            f"the record ({format_time(record_seconds)})", entry=recorded.entry,
            time=format_time(time), record=format_time(record_seconds),
            percent=round(share * 100)))
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


def second_looks(recorded: RecordedAt, *, expected_seconds: float | None,
                 group_next_seconds: int | None, record_seconds: int | None,
                 finished_before: int | None, others: Iterable[RecordedAt],
                 limits: PlausibilityLimits = DEFAULT_LIMITS) -> list[RuleViolation]:
    """Every reason to look at a just recorded result again; empty when it looks plausible."""
    return [
        *faster_than_references(recorded, expected_seconds=expected_seconds,
                                group_next_seconds=group_next_seconds,
                                record_seconds=record_seconds, limits=limits),
        *same_as_another_table(recorded, others),
        *count_after_finish(recorded, finished_before=finished_before),
    ]


def now_ahead_of_group(earlier: Sequence[RecordedAt], new: RecordedAt,
                       limits: PlausibilityLimits = DEFAULT_LIMITS) -> list[RuleViolation]:
    """The group's earlier finishes that the new finish shows to be far ahead of the group,
    and that were not before it: the first finish of a group has nothing to compare with
    when it is recorded, so it is looked at again when the next one arrives."""
    if not new.finished or new.time_seconds is None:
        return []
    times = {f.entry: f.time_seconds for f in earlier if f.finished
             and f.time_seconds is not None and f.entry != new.entry}
    found: list[RuleViolation] = []
    for one in earlier:
        if one.entry not in times:
            continue
        before = min((t for e, t in times.items() if e != one.entry), default=None)
        after = new.time_seconds if before is None else min(new.time_seconds, before)
        if after == before or (before is not None
                               and far_faster(times[one.entry], before, limits.ahead_of_group)):
            continue
        found.extend(v for v in faster_than_references(
            one, expected_seconds=None, group_next_seconds=after, record_seconds=None,
            limits=limits) if v.code == "second_look.ahead_of_group")
    return found
