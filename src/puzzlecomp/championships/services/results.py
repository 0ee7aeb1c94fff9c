"""Recording what a judge saw, checked by the rules engine before it is stored; starting rounds."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction

from puzzlecomp.championships.audit import log_action
from puzzlecomp.championships.engine import round_rules
from puzzlecomp.championships.models import Entry, Result, Round, RoundState
from puzzlecomp.rules import results
from puzzlecomp.rules.errors import RulesError, violation
from puzzlecomp.rules.rounds import RoundRules
from puzzlecomp.rules.scoring import score_result


@transaction.atomic
def round_state_set(*, round: Round, state: RoundState, starts_at: dt.datetime | None = None,
                    user: Any = None) -> Round:
    """Move a round to a state (e.g. running), setting its start time when given."""
    rnd = round
    rnd.state = state
    fields = ["state"]
    if starts_at is not None:
        rnd.starts_at = starts_at
        fields.append("starts_at")
    rnd.save(update_fields=fields)
    log_action(rnd.event.championship, "puzzlecomp.round.state_set", user=user, round=rnd.pk,
               state=str(state), starts_at=rnd.starts_at.isoformat() if rnd.starts_at else None)
    return rnd


@transaction.atomic
def result_record(
    *,
    round: Round,
    entry: Entry,
    status: results.Status,
    time_seconds: int | None = None,
    pieces: int | None = None,
    remaining: int | None = None,
    missing: int = 0,
    missing_contiguous: int = 0,
    missing_found: int = 0,
    time_credit: int = 0,
    user: Any = None,
    rules: RoundRules | None = None,
) -> Result:
    """Store (or correct) an entry's result; RulesError, storing nothing, when it breaks a rule.

    `rules` may be passed by callers recording many results, to resolve the round once.
    """
    rnd = round
    if entry.event_id != rnd.event_id:
        raise RulesError(violation("result.entry_not_in_event",
                                   f"entry {entry.number} is not in this event",
                                   entry=str(entry.number), field="entry"))
    record = results.Result(
        status=status, time=time_seconds, pieces=pieces, remaining=remaining,
        missing=results.MissingPieces(missing, missing_contiguous, missing_found),
        time_credit=time_credit,
    )
    score_result(record, rules or round_rules(rnd), entry=str(entry.number))
    values = {"status": str(status), "time_seconds": time_seconds, "pieces": pieces,
              "remaining": remaining, "missing": missing,
              "missing_contiguous": missing_contiguous, "missing_found": missing_found,
              "time_credit": time_credit}
    row = Result.objects.select_for_update().filter(round=rnd, entry=entry).first()
    if row is None:
        row = Result.objects.create(round=rnd, entry=entry, **values)
    else:
        for name, value in values.items():
            setattr(row, name, value)
        row.version += 1
        row.save()
    log_action(rnd.event.championship, "puzzlecomp.result.recorded", user=user, round=rnd.pk,
               entry=entry.number, version=row.version, **values)
    return row
