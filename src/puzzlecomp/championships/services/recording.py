"""What a judge's phone writes: a tap, a check, a count, a disqualification, or opening the next
puzzle, turned into a result and stored through `result_submit` (the same rules as every
other writer).

The phone keeps the values it does not change (a time credit, the tapped time when checking),
so each action is built on the result the judge last saw (`base_version`).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, NoReturn

from django.utils import timezone

from puzzlecomp.championships.engine import round_rules_sized
from puzzlecomp.championships.models import JudgeDevice, Result, RoundState, Seat
from puzzlecomp.championships.selectors.live import credit_of
from puzzlecomp.championships.selectors.recording import RecordTarget
from puzzlecomp.championships.selectors.rounds import group_clock_get
from puzzlecomp.championships.services.devices import DeviceForbidden, device_seen, section_of
from puzzlecomp.championships.services.results import (
    ResultConflict,
    ResultValues,
    WriteOutcome,
    result_replayed,
    result_submit,
)
from puzzlecomp.rules.errors import RulesError, RuleViolation, violation
from puzzlecomp.rules.puzzle_order import (
    finished_too_soon,
    opening_stages,
    too_close_to_other_finish,
)
from puzzlecomp.rules.results import Status
from puzzlecomp.rules.rounds import RoundRules
from puzzlecomp.rules.times import format_time

# Rounds a phone may write to: the head judge checks provisional results with the judges.
LIVE_STATES = (RoundState.RUNNING, RoundState.COUNTING, RoundState.PROVISIONAL)
# A tap's time comes from the phone's synchronised clock; allow for its error and rounding.
FUTURE_TOLERANCE_SECONDS = 3
# The engine names the result's time "time"; the device API calls it "time_seconds".
_API_FIELDS = {"time": "time_seconds"}
Stages = tuple[tuple[int, ...], ...]


class Action(StrEnum):
    TAP = "tap"
    VERIFY = "verify"
    COUNT = "count"
    DSQ = "dsq"
    AUTHORISE = "authorise"


@dataclass(frozen=True)
class JudgeWrite:
    """One action of a judge at a table; `puzzle` (from 1) in multi-puzzle rounds."""

    action: Action
    puzzle: int | None = None
    time_seconds: int | None = None
    missing: int = 0
    missing_contiguous: int = 0
    missing_found: int = 0
    complete_and_correct: bool | None = None
    competitor_confirmed: bool = False
    pieces: int | None = None
    remaining: int | None = None
    note: str = ""


def judge_result_submit(*, device: JudgeDevice, target: RecordTarget, entry_number: int,
                        write: JudgeWrite, client_id: str, base_version: int,
                        now: dt.datetime | None = None) -> WriteOutcome:
    """Store a judge's action once per `client_id` (a replay answers with the stored result).

    `target`: the round and the entry's seat (selectors.recording.record_target_get).
    DeviceForbidden outside the device's tables; ResultConflict when the result is no longer
    at `base_version`; RulesError (naming the field) when the round is not live or the action
    breaks a rule.
    """
    rnd = target.round
    now = now or timezone.now()
    seat = _seat_in_section(device, target, entry_number)
    entry = seat.entry
    device_seen(device, now=now)
    seen = result_replayed(client_id, rnd, entry)
    if seen is not None:
        return WriteOutcome(seen, replayed=True)
    try:
        return _submit(device=device, target=target, seat=seat, write=write,
                       client_id=client_id, base_version=base_version, now=now)
    except ResultConflict:
        # The same record sent twice at once (a retry overtaking a slow answer): the first
        # one stored it, so this one is its replay, not a conflict.
        seen = result_replayed(client_id, rnd, entry)
        if seen is None:
            raise
        return WriteOutcome(seen, replayed=True)
    except RulesError as error:
        raise RulesError([_api_field(v) for v in error.violations]) from None


def _seat_in_section(device: JudgeDevice, target: RecordTarget, entry_number: int) -> Seat:
    """The entry's seat in the round when it is at one of the device's tables, else 403."""
    if target.seat is None:
        section = section_of(device)
        raise DeviceForbidden(
            "device.entry_not_in_section",
            f"entry {entry_number} is not seated at tables {section.table_from}-"
            f"{section.table_to} in this round", field="entry", entry=entry_number)
    return target.seat


def _submit(*, device: JudgeDevice, target: RecordTarget, seat: Seat, write: JudgeWrite,
            client_id: str, base_version: int, now: dt.datetime) -> WriteOutcome:
    rnd = target.round
    # One resolution of the round's rules serves the clock, the values and the scoring; the
    # puzzle size came with the target (engine.round_rules would read it again).
    rules = round_rules_sized(rnd, target.puzzle_size)
    # The entry's group's clock: groups sharing the tables start one after another.
    clock = group_clock_get(rnd, seat.group, now=now, rules=rules)
    entry = seat.entry
    if rnd.state not in LIVE_STATES:
        raise RulesError(violation(
            "round.not_live",
            f"the round is {rnd.state}: phones record results while it is running, counting "
            "or provisional", field="round_id", state=str(rnd.state)))

    # The action is built on the result the judge saw (`base_version`, checked by the write
    # when the result is locked): on any other, the judge decides.
    def values(current: Result | None) -> ResultValues:
        return values_for(write, current=current, rules=rules, entry=str(entry.number),
                          elapsed_seconds=clock.elapsed_seconds or 0.0,
                          credit=credit_of(seat.time_credit, current))

    return result_submit(round=rnd, entry=entry, values=values, action=str(write.action),
                         client_id=client_id, base_version=base_version,
                         reason=write.note if write.action is Action.DSQ else "",
                         device=device, rules=rules, replay_checked=True, seat=seat)


def _api_field(v: RuleViolation) -> RuleViolation:
    return dataclasses.replace(v, field=_API_FIELDS.get(v.field, v.field))


def values_for(write: JudgeWrite, *, current: Result | None, rules: RoundRules, entry: str,
               elapsed_seconds: float, credit: int = 0) -> ResultValues:
    """The whole result after the judge's action on `current`; RulesError naming the field.

    `credit` is the entry's time credit (granted by the head judge, maybe before any result).
    """
    refuse = _Refusals(entry)
    if (write.action is Action.TAP and write.time_seconds is not None
            and write.time_seconds > elapsed_seconds + FUTURE_TOLERANCE_SECONDS):
        refuse("result.time_in_future", "time_seconds",
               f"{format_time(write.time_seconds)} is later than the round's clock "
               f"({format_time(int(elapsed_seconds))})", elapsed=int(elapsed_seconds))
    if write.action is Action.DSQ:
        return _disqualify(write, credit, refuse)
    if len(rules.puzzle_sizes) > 1:
        return _multi_puzzle(write, current, rules, credit, refuse)
    if write.puzzle not in (None, 1):
        refuse("result.puzzle_unknown", "puzzle", "the round has one puzzle")
    if write.action is Action.AUTHORISE:
        refuse("result.single_puzzle", "action", "the round has one puzzle: nothing to open")
    if write.action is Action.TAP:
        _refuse_if_checked(current, refuse)
        if write.time_seconds is None:
            refuse("result.finish_without_time", "time_seconds", "a tap needs its time")
        return ResultValues(status=Status.FINISHED, time_seconds=write.time_seconds,
                            checked=False, time_credit=credit)
    if write.action is Action.VERIFY:
        if current is None or current.status != Status.FINISHED or current.time_seconds is None:
            refuse("result.verify_without_finish", "action",
                   "there is no finish to check: tap the time first")
        if not _complete(write, rules, refuse):
            return _count(write, competitor_confirmed=False, time_credit=credit)
        return ResultValues(status=Status.FINISHED, time_seconds=current.time_seconds,
                            missing=write.missing, missing_contiguous=write.missing_contiguous,
                            missing_found=write.missing_found, checked=True,
                            competitor_confirmed=True, note=current.note, time_credit=credit)
    if current is not None and current.checked and current.status != Status.UNFINISHED:
        _refuse_if_checked(current, refuse)
    return _count(write, competitor_confirmed=write.competitor_confirmed, time_credit=credit)


class _Refusals:
    """Raise a RulesError for the entry at once (the checks depend on one another)."""

    def __init__(self, entry: str) -> None:
        self.entry = entry

    def __call__(self, code: str, field: str, message: str, **params: Any) -> NoReturn:
        raise RulesError(violation(code, message, entry=self.entry, field=field, **params))


def _refuse_if_checked(current: Result | None, refuse: _Refusals) -> None:
    if current is not None and current.checked:
        refuse("result.already_checked", "action",
               f"the result is checked already ({current.status}): the head judge corrects it "
               "with a reason", status=current.status)


def _complete(write: JudgeWrite, rules: RoundRules, refuse: _Refusals) -> bool:
    """Whether the checked puzzle counts as finished; refuses a check the rules do not allow."""
    if write.complete_and_correct is None:
        refuse("result.check_missing", "complete_and_correct",
               "say whether the puzzle is complete and every piece correctly placed")
    if write.complete_and_correct:
        if not write.competitor_confirmed:
            refuse("result.not_confirmed", "competitor_confirmed",
                   "the competitor confirms the time shown before the finish is checked")
        return True
    if not rules.ruleset.counting.wrong_piece_means_unfinished:
        refuse("result.not_complete", "complete_and_correct",
               "under these rules an incomplete puzzle is not a finish: let the competitor go "
               "on and tap the time again, or record wrongly placed pieces as missing")
    return False


def _count(write: JudgeWrite, *, competitor_confirmed: bool, time_credit: int) -> ResultValues:
    return ResultValues(status=Status.UNFINISHED, pieces=write.pieces, remaining=write.remaining,
                        time_credit=time_credit, checked=True,
                        competitor_confirmed=competitor_confirmed, note=write.note)


def _disqualify(write: JudgeWrite, credit: int,
                refuse: _Refusals) -> ResultValues:
    if not write.note.strip():
        refuse("result.dsq_without_reason", "note", "a disqualification needs its reason")
    # A disqualified entry has no per-puzzle times or counts (rules/contradictions.py); the
    # result's history keeps what was recorded before.
    return ResultValues(status=Status.DSQ, time_credit=credit, checked=True,
                        note=write.note.strip())


# ----------------------------------------------------------------- multi-puzzle rounds
def fresh_puzzles(rules: RoundRules) -> list[dict[str, Any]]:
    """The per-puzzle records of an entry before its first write: the first stage is open.

    In a chosen order (czech-championship.txt, teams) every puzzle is open from the start.

    A puzzle neither finished nor counted yet holds 0 pieces: the live ranking shows what is
    certain, and the count at the limit replaces it.
    """
    first = set(opening_stages(rules.round)[0])
    return [{"time": None, "pieces": 0, "remaining": None, "missing": 0, "contiguous": 0,
             "found": 0, "verified": False, "authorised": i in first}
            for i in range(len(rules.puzzle_sizes))]


def _multi_puzzle(write: JudgeWrite, current: Result | None, rules: RoundRules, credit: int,
                  refuse: _Refusals) -> ResultValues:
    puzzles = [dict(p) for p in current.puzzles] if current and current.puzzles else \
        fresh_puzzles(rules)
    if current is not None and current.status in (Status.DSQ, Status.DNS):
        _refuse_if_checked(current, refuse)
    count = len(puzzles)
    if write.puzzle is None or not 1 <= write.puzzle <= count:
        refuse("result.puzzle_unknown", "puzzle", f"give the puzzle, 1 to {count}")
    index = write.puzzle - 1
    record = puzzles[index]
    stages = opening_stages(rules.round)
    stage = next(n for n, members in enumerate(stages) if index in members)
    if write.action is Action.AUTHORISE:
        _authorise(puzzles, stages, stage, refuse)
    elif write.action is Action.TAP:
        _tap_puzzle(write, index, puzzles, stages, stage, credit, rules, refuse)
    elif write.action is Action.VERIFY:
        if record["time"] is None:
            refuse("result.verify_without_finish", "puzzle",
                   f"puzzle {write.puzzle} has no finish to check: tap its time first")
        if _complete(write, rules, refuse):
            record.update(missing=write.missing, contiguous=write.missing_contiguous,
                          found=write.missing_found, verified=True)
        else:
            record.update(time=None, pieces=write.pieces, remaining=write.remaining,
                          missing=0, contiguous=0, found=0, verified=True)
    else:
        if record["time"] is not None and record["verified"]:
            refuse("result.already_checked", "puzzle",
                   f"puzzle {write.puzzle} is finished and checked: nothing to count")
        if write.pieces is None and write.remaining is None:
            refuse("result.unfinished_without_count", "pieces",
                   "a count needs pieces (placed) or remaining")
        record.update(time=None, pieces=write.pieces, remaining=write.remaining, missing=0,
                      contiguous=0, found=0, verified=True)
    finished = all(p["time"] is not None for p in puzzles)
    timed = [p for p in puzzles if p["time"] is not None]
    return ResultValues(
        status=Status.FINISHED if finished else Status.UNFINISHED, puzzles=puzzles,
        time_credit=credit,
        checked=all(p["verified"] for p in puzzles if p["authorised"]),
        competitor_confirmed=bool(timed) and all(p["verified"] for p in timed),
        note=current.note if current else "")


def _authorise(puzzles: list[dict[str, Any]], stages: Stages, stage: int,
               refuse: _Refusals) -> None:
    if all(puzzles[i]["authorised"] for i in stages[stage]):
        refuse("result.puzzle_open_already", "puzzle", "this puzzle is open already")
    if stage == 0 or not all(puzzles[i]["time"] is not None and puzzles[i]["verified"]
                             for i in stages[stage - 1]):
        refuse("result.previous_puzzle_unchecked", "puzzle",
               "the puzzles before it must be finished and checked first")
    for i in stages[stage]:
        puzzles[i]["authorised"] = True


def _tap_puzzle(write: JudgeWrite, index: int, puzzles: list[dict[str, Any]],
                stages: Stages, stage: int, credit: int, rules: RoundRules,
                refuse: _Refusals) -> None:
    record = puzzles[index]
    time = write.time_seconds
    if time is None:
        refuse("result.finish_without_time", "time_seconds", "a tap needs its time")
    if not record["authorised"]:
        refuse("result.puzzle_not_open", "puzzle",
               f"puzzle {write.puzzle} is not open yet: check and authorise it first")
    if record["verified"]:
        refuse("result.already_checked", "puzzle",
               f"puzzle {write.puzzle} is checked already: the head judge corrects it")
    # The engine checks the last finish against the limit; earlier puzzles are checked here.
    limit = rules.time_limit_seconds + credit
    if time > limit:
        refuse("result.finish_past_limit", "time_seconds",
               f"finish {format_time(time)} is past the limit of {format_time(limit)}",
               limit=limit)
    gap = rules.ruleset.next_finish_after_seconds
    if rules.round.puzzle_order == "chosen":
        others = [p["time"] for i, p in enumerate(puzzles) if i != index and p["time"] is not None]
        if too_close_to_other_finish(time, others, gap):
            refuse("result.puzzle_before_previous", "time_seconds",
                   f"a puzzle is finished at least {gap} s after the puzzle it follows", gap=gap)
    earlier = [puzzles[i]["time"] for s in stages[:stage] for i in s
               if puzzles[i]["time"] is not None]
    if earlier and finished_too_soon(time, max(earlier), gap):
        refuse("result.puzzle_before_previous", "time_seconds",
               f"a puzzle is finished at least {gap} s after the puzzle it follows", gap=gap)
    record.update(time=time, pieces=None, remaining=None, missing=0, contiguous=0, found=0,
                  verified=False)
