"""The check-in desk's write: an entrant's status in a round, audited and announced in one
transaction. Giving a no-show's table away is `seating.seat_no_show`, which reads the check-in."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

from puzzlecomp.championships.actions import CHECK_IN_RECORDED
from puzzlecomp.championships.models import CheckIn, CheckInStatus, Entry, Round
from puzzlecomp.championships.selectors.check_in import check_in_status
from puzzlecomp.championships.selectors.planning import group_lines
from puzzlecomp.championships.services.work import unit_of_work
from puzzlecomp.rules.check_in import DESK_STATUSES
from puzzlecomp.rules.errors import RulesError, violation


def entry_check_in(*, round: Round, entry: Entry, status: str, by: Any,
                   at: dt.datetime | None = None) -> CheckIn:
    """Record the entrant as present, late or a no-show in the round (the latest word counts).

    Refused for an entry the round does not expect and for one whose table was given away.
    """
    rnd = round
    with unit_of_work(CHECK_IN_RECORDED, championship=rnd.event.championship, user=by,
                      round=rnd, entry=entry.number, status=status) as work:
        if status not in DESK_STATUSES:
            raise RulesError(violation("check_in.status_unknown", f"no check-in status {status!r}",
                                       field="status", status=status))
        if entry.number not in {line.number for line in group_lines(rnd)}:
            raise RulesError(violation("check_in.not_in_round",
                                       f"entry {entry.number} is not expected in {rnd.name}",
                                       entry=str(entry.number), number=entry.number))
        previous = check_in_status(rnd, entry)
        if previous == CheckInStatus.REPLACED:
            raise RulesError(violation("check_in.already_replaced",
                                       f"entry {entry.number}'s table was given away",
                                       entry=str(entry.number)))
        check_in = check_in_record(round=rnd, entry=entry, status=status, by=by,
                                   at=at or timezone.now())
        work.record(previous=previous)
        return check_in


def check_in_record(*, round: Round, entry: Entry, status: str, by: Any,
                    at: dt.datetime) -> CheckIn:
    """Write the entrant's check-in row; the caller audits and announces."""
    check_in, _ = CheckIn.objects.update_or_create(
        round=round, entry=entry,
        defaults={"status": status, "at": at,
                  "by": by if getattr(by, "is_authenticated", False) else None})
    return check_in
