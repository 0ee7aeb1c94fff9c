"""Recording what a judge saw, checked by the rules engine before it is stored.

Every write keeps a ResultChange (who, when, which device, old and new values, why) and numbers
a live notice in the same transaction. Judges' phones send a client-made id with each write, so
a replay finds its first answer instead of writing twice, and the version they last saw, so two
judges never silently overwrite each other.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError

from puzzlecomp.championships.actions import RESULT_RECORDED
from puzzlecomp.championships.engine import engine_result, round_rules
from puzzlecomp.championships.models import (
    Entry,
    JudgeDevice,
    Result,
    ResultChange,
    Round,
    Seat,
)
from puzzlecomp.championships.plain_sql import insert, update
from puzzlecomp.championships.result_values import RESULT_FIELDS, ResultValues
from puzzlecomp.championships.selectors.live import time_credit_of
from puzzlecomp.championships.selectors.plausibility import (
    JUDGES_ACTIONS,
    earlier_now_ahead,
    second_looks_at,
)
from puzzlecomp.championships.selectors.recording import client_id_use, result_locked
from puzzlecomp.championships.services.sqlite_writer import one_sqlite_writer
from puzzlecomp.championships.services.work import unit_of_work
from puzzlecomp.rules import results
from puzzlecomp.rules.errors import RulesError, violation
from puzzlecomp.rules.rounds import RoundRules
from puzzlecomp.rules.scoring import score_result


class ResultConflict(Exception):
    """The result changed since the writer last saw it (another judge, a correction)."""

    def __init__(self, current: Result | None, base_version: int | None) -> None:
        super().__init__(f"result is at version {current.version if current else 0}, "
                         f"the write was based on version {base_version}")
        self.current = current
        self.base_version = base_version


# The values of a write made from the stored result it applies to (None: no result yet), read
# inside the write's transaction.
ValuesOf = Callable[[Result | None], ResultValues]


@dataclass(frozen=True)
class WriteOutcome:
    result: Result
    # True when this client id was seen before: nothing was written again.
    replayed: bool


def stored_values(row: Result | None) -> dict[str, Any] | None:
    return None if row is None else {name: getattr(row, name) for name in RESULT_FIELDS}


def result_submit(
    *,
    round: Round,
    entry: Entry,
    values: ResultValues | ValuesOf,
    action: str,
    client_id: str | None = None,
    base_version: int | None = None,
    reason: str = "",
    user: Any = None,
    device: JudgeDevice | None = None,
    rules: RoundRules | None = None,
    replay_checked: bool = False,
    looked_at: bool = False,
    seat: Seat | None = None,
) -> WriteOutcome:
    """Store (or correct) an entry's result once per `client_id`.

    `values` may be a function of the stored result, called once it is locked (a judge's
    action applies to the result as it is when written).
    `base_version` is the version the writer saw (0: no result yet); None skips the check.
    `replay_checked`: the caller has just looked the client id up (`result_replayed`).
    `looked_at`: the head judge writes, which is the second look the result may have asked for;
    a judge's record (JUDGES_ACTIONS) is looked at for reasons to ask (rules/plausibility.py).
    `seat`: the entry's seat in the round, when the caller has read it.
    Raises RulesError (storing nothing) when the result breaks a rule, ResultConflict when
    the stored version differs from `base_version`.
    """
    if client_id and not replay_checked:
        seen = result_replayed(client_id, round, entry)
        if seen is not None:
            return WriteOutcome(seen, replayed=True)
    try:
        with one_sqlite_writer():
            row = _write(round=round, entry=entry, values=values, action=action,
                         client_id=client_id, base_version=base_version, reason=reason,
                         user=user, device=device, rules=rules, looked_at=looked_at,
                         seat=seat)
    except IntegrityError:
        # A concurrent write of the same client id, or of the same new result, won the race.
        seen = result_replayed(client_id, round, entry) if client_id else None
        if seen is not None:
            return WriteOutcome(seen, replayed=True)
        current = Result.objects.filter(round=round, entry=entry).first()
        raise ResultConflict(current, base_version) from None
    return WriteOutcome(row, replayed=False)


def result_replayed(client_id: str, rnd: Round, entry: Entry) -> Result | None:
    """The result a write with this client id already made; None for a new id.

    RulesError when the id was used for another entry or round.
    """
    used = client_id_use(client_id)
    if used is None:
        return None
    if used != (rnd.pk, entry.pk):
        raise RulesError(violation("result.client_id_reused",
                                   "this client id was used for another entry or round",
                                   entry=str(entry.number), field="client_id"))
    return Result.objects.get(round=rnd, entry=entry)


def _write(*, round: Round, entry: Entry, values: ResultValues | ValuesOf, action: str,
           client_id: str | None, base_version: int | None, reason: str, user: Any,
           device: JudgeDevice | None, rules: RoundRules | None, looked_at: bool,
           seat: Seat | None) -> Result:
    rnd = round
    if entry.event_id != rnd.event_id:
        raise RulesError(violation("result.entry_not_in_event",
                                   f"entry {entry.number} is not in this event",
                                   entry=str(entry.number), field="entry"))
    with unit_of_work(RESULT_RECORDED, championship=rnd.event.championship, user=user,
                      round=rnd) as work:
        row = result_locked(rnd.pk, entry.pk)
        if base_version is not None and (row.version if row else 0) != base_version:
            raise ResultConflict(row, base_version)
        new = (values if isinstance(values, ResultValues) else values(row)).as_stored()
        rules = rules or round_rules(rnd)
        score_result(engine_result(Result(**new)), rules, entry=str(entry.number))
        old = stored_values(row)
        who: dict[str, Any] = {"recorded_by": work.user, "device": device,
                               "second_looks": _second_looks(rnd, entry, action, new, old, row,
                                                             looked_at, rules.puzzle_sizes,
                                                             seat, rules.time_limit_seconds)}
        # Plain SQL (championships/plain_sql.py): every judge's record writes these two.
        if row is None:
            row = insert(Result(round=rnd, entry=entry, **new, **who))
        else:
            for name, value in {**new, **who}.items():
                setattr(row, name, value)
            row.version += 1
            update(row)
        insert(ResultChange(round=rnd, entry=entry, client_id=client_id or None,
                            action=action, old=old, new=new, reason=reason,
                            version=row.version, user=work.user, device=device))
        work.record(entry=entry.number, version=row.version, write=action,
                    reason=reason, device=device.pk if device else None, **new)
        if action in JUDGES_ACTIONS and new["status"] == results.Status.FINISHED \
                and new["time_seconds"] is not None:
            looked_again = _look_again_at_earlier(rnd, entry, new["time_seconds"])
            if looked_again:
                work.record(looked_again=looked_again)
    return row


def _look_again_at_earlier(rnd: Round, entry: Entry, time_seconds: int) -> dict[str, list[str]]:
    """Flag the group's earlier finishes that this finish shows far ahead of the group (the
    first finish of a group had nothing to compare with); {entry number: the new codes}."""
    flagged: dict[str, list[str]] = {}
    for found in earlier_now_ahead(rnd, entry.pk, time_seconds):
        earlier = Result.objects.get(round=rnd, entry__event=rnd.event,
                                     entry__number=int(found.entry))
        reason = {"code": found.code, "message": found.message, "params": dict(found.params)}
        if all(k["code"] != found.code for k in earlier.second_looks):
            earlier.second_looks = [*earlier.second_looks, reason]
            earlier.save(update_fields=["second_looks"])
            flagged[found.entry] = [found.code]
    return flagged


def _second_looks(rnd: Round, entry: Entry, action: str, new: dict[str, Any],
                  old: dict[str, Any] | None, row: Result | None, looked_at: bool,
                  puzzle_sizes: tuple[int, ...], seat: Seat | None,
                  time_limit_seconds: int | None) -> list[dict[str, Any]]:
    """The result's reasons for a second look after this write: none once the head judge has
    looked; the earlier ones (still unanswered) and any new ones after a judge's record."""
    if looked_at:
        return []
    kept = list(row.second_looks) if row is not None else []
    if action not in JUDGES_ACTIONS:
        return kept
    for found in second_looks_at(rnd, entry.pk, action=action, new=new, old=old,
                                 puzzle_sizes=puzzle_sizes, seat=seat,
                                 time_limit_seconds=time_limit_seconds):
        reason = {"code": found.code, "message": found.message, "params": dict(found.params)}
        if all(k["code"] != reason["code"] for k in kept):
            kept.append(reason)
    return kept


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
    time_credit: int | None = None,
    user: Any = None,
    rules: RoundRules | None = None,
    reason: str = "",
) -> Result:
    """Store (or correct) an entry's checked result without a version check (imports, demo).

    `rules` may be passed by callers recording many results, to resolve the round once.
    `time_credit` None: the credit in force (the seat's grant), as every other writer keeps it.
    """
    if time_credit is None:
        time_credit = time_credit_of(round, entry)
    values = ResultValues(status=status, time_seconds=time_seconds, pieces=pieces,
                          remaining=remaining, missing=missing,
                          missing_contiguous=missing_contiguous, missing_found=missing_found,
                          time_credit=time_credit, competitor_confirmed=True)
    return result_submit(round=round, entry=entry, values=values, action="record",
                         reason=reason, user=user, rules=rules).result
