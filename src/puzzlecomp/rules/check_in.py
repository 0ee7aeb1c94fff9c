"""Check-in on the day, and the ruleset's no-show rule that reads it.

wjpc-2025.txt and czech-championship.txt let the organiser give a table away when its entrant
has not shown up a number of minutes after the start (`no_show_after_minutes`, 10 in both).
"Shown up" is what the check-in desk recorded: present or late. Nobody else is ever offered.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Mapping
from typing import Literal

from puzzlecomp.rules.errors import RuleViolation, violation
from puzzlecomp.rules.round_life import no_show_allowed_at, no_show_refusal

CheckInStatus = Literal["present", "late", "no_show", "replaced"]

# Statuses the desk records by hand; "replaced" follows only from giving the table away.
DESK_STATUSES: tuple[CheckInStatus, ...] = ("present", "late", "no_show")
SHOWN_UP: frozenset[CheckInStatus] = frozenset({"present", "late"})


def table_free_at(*, round_start: dt.datetime | None,
                  no_show_after_minutes: int | None) -> dt.datetime | None:
    """When an entrant who has not shown up loses their table (round_life's no-show time);
    None when the ruleset has no no-show rule or the round has no start yet."""
    return no_show_allowed_at(round_start, no_show_after_minutes)


def offered_for_replacement(
    check_ins: Mapping[str, CheckInStatus | None],
    *,
    round_start: dt.datetime | None,
    no_show_after_minutes: int | None,
    now: dt.datetime,
) -> tuple[str, ...]:
    """The entrants whose tables may be given away now, in the order given.

    From the round's start plus the ruleset's minutes on, an entrant the desk has not checked
    in (no record, or marked no-show) is offered; present, late and replaced entrants never are.
    """
    free_at = table_free_at(round_start=round_start, no_show_after_minutes=no_show_after_minutes)
    if free_at is None or now < free_at:
        return ()
    return tuple(entrant for entrant, status in check_ins.items()
                 if status is None or status == "no_show")


def replacement_refusal(
    status: CheckInStatus | None,
    *,
    entrant: str,
    round_start: dt.datetime | None,
    no_show_after_minutes: int | None,
    now: dt.datetime,
) -> RuleViolation | None:
    """Why this entrant's table may not be given away now, or None when it may."""
    too_soon = no_show_refusal(minutes=no_show_after_minutes, starts_at=round_start, at=now)
    if too_soon is not None:
        return dataclasses.replace(too_soon, entry=entrant)
    if status == "replaced":
        return violation("check_in.already_replaced", f"entry {entrant}'s table was given away",
                         entry=entrant)
    if status is not None and status != "no_show":
        return violation("check_in.shown_up", f"entry {entrant} is checked in as {status}",
                         entry=entrant, status=status)
    return None
