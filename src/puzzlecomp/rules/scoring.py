"""Turn a judge's record into a score: final time with penalties, or pieces placed."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from puzzlecomp.rules.contradictions import check_contradictions
from puzzlecomp.rules.credits import time_credit_refusal
from puzzlecomp.rules.errors import RulesError, RuleViolation, violation
from puzzlecomp.rules.puzzle_order import check_puzzle_order
from puzzlecomp.rules.results import NO_MISSING, MissingPieces, PuzzleRecord, Result, Status
from puzzlecomp.rules.rounds import RoundRules
from puzzlecomp.rules.ruleset import PenaltyRule, Ruleset
from puzzlecomp.rules.times import format_time

# One number, smaller is better: finishers by final time, then unfinished entries by pieces
# (most first), then dnf. A plain int keeps sorting large rounds fast.
SortKey = int
_UNFINISHED_BASE = 10**9
# Assisted entrants (no time recorded) come after every unaided entrant, all on one place.
_ASSISTED_KEY = 2 * 10**9 - 1
_DNF_KEY = 2 * 10**9
_ASSISTANCE = (Status.ASSISTED, Status.OUTSIDE_HELP)
_Reporter = Callable[..., None]
# Enum members as plain names: attribute lookups on an Enum class are slow in a hot loop.
_FINISHED, _UNFINISHED, _DNF = Status.FINISHED, Status.UNFINISHED, Status.DNF


class Score(NamedTuple):
    """The comparable outcome of a result (a named tuple: ranking builds many of them)."""

    status: Status
    final_time: int | None = None
    penalty_seconds: int = 0
    pieces: int | None = None
    # Smaller is better; None for results that get no rank (dsq, dns).
    sort_key: SortKey | None = None


# Building the tuple directly skips NamedTuple's argument parsing (a third of the cost).
_new_score = tuple.__new__


def statuses_of(ruleset: Ruleset) -> tuple[Status, ...]:
    """The statuses a result may take under the ruleset: assisted and outside help only where
    it declares `assistance` (australia-state-national.txt; docs/rulesets.md, Assistance)."""
    return tuple(s for s in Status if s not in _ASSISTANCE or ruleset.assistance)


def penalty_seconds(missing: MissingPieces, rule: PenaltyRule) -> int:
    """Seconds added for missing pieces under the ruleset's penalty rule."""
    if rule.charge == "all":
        charged = missing.missing
    elif rule.charge == "not_contiguous":
        charged = missing.missing - missing.contiguous
    else:
        charged = missing.found
    return charged * rule.seconds_per_piece


def score_result(result: Result, rules: RoundRules, *, entry: str = "") -> Score:
    """Score one result; raises RulesError listing every problem with its entry and field."""
    if not _plainly_valid(result, rules):
        problems = _check(result, rules, entry)
        if problems:
            raise RulesError(problems)
    status = result.status
    if status is _FINISHED:
        if result.puzzles:
            penalty = sum(penalty_seconds(m, rules.ruleset.penalty) for m in _all_missing(result))
        elif result.missing is NO_MISSING:
            penalty = 0
        else:
            penalty = penalty_seconds(result.missing, rules.ruleset.penalty)
        time = result.time if result.time is not None else _finish_time(result)
        assert time is not None
        final = time - result.time_credit + penalty
        return _new_score(Score, (status, final, penalty, None, final))
    if status is _UNFINISHED:
        pieces = _placed_pieces(result, rules)
        return _new_score(Score, (status, None, 0, pieces, _UNFINISHED_BASE - pieces))
    if status is _DNF:
        return _new_score(Score, (status, None, 0, None, _DNF_KEY))
    if status is Status.ASSISTED:
        return _new_score(Score, (status, None, 0, None, _ASSISTED_KEY))
    return Score(status)


def _plainly_valid(result: Result, rules: RoundRules) -> bool:
    """A fast yes for the common single-puzzle records; anything else gets the full check."""
    if result.puzzles or result.time_credit or result.remaining is not None:
        return False
    status = result.status
    missing = result.missing
    if status is _FINISHED:
        time = result.time
        if result.pieces is not None:
            return False
        if missing is NO_MISSING:
            return time is not None and 0 < time <= rules.time_limit_seconds
        return (
            time is not None
            and 0 < time <= rules.time_limit_seconds
            and 0 <= missing.found <= missing.missing <= rules.total_pieces
            and 0 <= missing.contiguous <= missing.missing
            and missing.contiguous != 1
        )
    if status is _UNFINISHED:
        pieces = result.pieces
        return (
            pieces is not None
            and result.time is None
            and missing is NO_MISSING
            and pieces >= 0
            and (pieces <= rules.total_pieces or not rules.sizes_known)
        )
    return (result.time is None and result.pieces is None and missing is NO_MISSING
            and (status not in _ASSISTANCE or rules.ruleset.assistance))


def _all_missing(result: Result) -> list[MissingPieces]:
    return [result.missing, *(p.missing for p in result.puzzles)]


def _finish_time(result: Result) -> int | None:
    """The time called; in multi-puzzle rounds the last puzzle's finish from the shared start."""
    if result.time is not None:
        return result.time
    times = [p.time for p in result.puzzles]
    if times and all(t is not None for t in times):
        return max(t for t in times if t is not None)
    return None


def _placed_pieces(result: Result, rules: RoundRules) -> int:
    if result.puzzles:
        return sum(
            _puzzle_pieces(record, size)
            for record, size in zip(result.puzzles, rules.puzzle_sizes, strict=True)
        )
    if result.pieces is not None:
        return result.pieces
    assert result.remaining is not None
    return rules.total_pieces - result.remaining


def _puzzle_pieces(record: PuzzleRecord, size: int) -> int:
    if record.time is not None:
        return size
    if record.pieces is not None:
        return record.pieces
    # A puzzle neither finished nor counted holds no pieces.
    return size - record.remaining if record.remaining is not None else 0


def _check(result: Result, rules: RoundRules, entry: str) -> list[RuleViolation]:
    problems: list[RuleViolation] = []

    def bad(code: str, field: str, message: str, **params: object) -> None:
        problems.append(violation(code, message, entry=entry, field=field, **params))

    for name in ("time", "pieces", "remaining", "time_credit"):
        value = getattr(result, name)
        if value is not None and value < 0:
            bad("result.negative", name, f"{name} must not be negative (got {value})")
    for missing in _all_missing(result):
        for name, value in (
            ("missing", missing.missing),
            ("missing_contiguous", missing.contiguous),
            ("missing_found", missing.found),
        ):
            if value < 0:
                bad("result.negative", name, f"{name} must not be negative (got {value})")
        if missing.contiguous > missing.missing:
            bad(
                "result.contiguous_above_missing",
                "missing_contiguous",
                "missing_contiguous is more than missing",
            )
        if missing.found > missing.missing:
            bad("result.found_above_missing", "missing_found", "missing_found is more than missing")
        if missing.contiguous == 1:
            bad(
                "result.contiguous_single",
                "missing_contiguous",
                "a contiguous cluster has at least two pieces",
            )
    if result.puzzles and len(result.puzzles) != len(rules.puzzle_sizes):
        bad(
            "result.puzzle_count",
            "puzzles",
            f"the round has {len(rules.puzzle_sizes)} puzzles, the result gives "
            f"{len(result.puzzles)}",
        )
        return problems
    if problems:
        return problems
    limit = rules.time_limit_seconds + result.time_credit
    check_contradictions(result, bad)
    credit = time_credit_refusal(rules.ruleset, rules.event, rules.round,
                                 credit=result.time_credit, entry=entry,
                                 time_limit_seconds=rules.time_limit_seconds)
    if credit is not None:
        problems.append(credit)
    if result.puzzles and result.status in (Status.FINISHED, Status.UNFINISHED):
        check_puzzle_order(result, rules.round, rules.puzzle_sizes, limit,
                           rules.ruleset.next_finish_after_seconds, bad)
    if result.status is Status.FINISHED:
        time = _finish_time(result)
        if time is None:
            if not result.puzzles:  # each unfinished puzzle was named above
                bad("result.finish_without_time", "time", "a finished result needs its time")
        elif result.time == 0:
            bad("result.finish_at_zero", "time", "a finish at 0:00:00 is not a time")
        elif time > limit and result.time is not None:
            # A multi-puzzle result's finishes were each checked against the limit above.
            bad(
                "result.finish_past_limit",
                "time",
                f"finish {format_time(time)} is past the limit of {format_time(limit)}",
                limit=limit,
            )
        elif result.time_credit > time:
            bad("result.credit_above_time", "time_credit", "time_credit is more than the time")
        missing_total = sum(m.missing for m in _all_missing(result))
        if missing_total > rules.total_pieces:
            bad(
                "result.missing_above_size",
                "missing",
                f"missing {missing_total} is more than the {rules.total_pieces} pieces",
            )
    elif result.status is Status.UNFINISHED:
        _check_plain_count(result, rules, bad)
        if result.puzzles and all(p.time is not None for p in result.puzzles):
            bad("result.unfinished_all_finished", "status",
                "every puzzle has a finish time, so the result is finished")
        _check_count(result, rules, bad)
    elif result.pieces is not None or result.remaining is not None or result.time is not None:
        bad(
            "result.count_without_unfinished",
            "status",
            f"a {result.status} result takes no time or count; use finished or unfinished",
        )
    if result.status not in statuses_of(rules.ruleset):
        bad(
            "result.status_not_in_ruleset",
            "status",
            f"{rules.ruleset.id} has no {result.status} results",
            status=str(result.status),
        )
    return problems


def _check_plain_count(result: Result, rules: RoundRules, bad: _Reporter) -> None:
    """A plain count beside the puzzles' counts must be their total (rules/contradictions.py:
    like a plain time, a disagreeing count is an error, not silently ignored)."""
    if not result.puzzles or len(result.puzzles) != len(rules.puzzle_sizes):
        return
    total = sum(_puzzle_pieces(record, size)
                for record, size in zip(result.puzzles, rules.puzzle_sizes, strict=True))
    for name, value in (("pieces", result.pieces), ("remaining", result.remaining)):
        placed = value if name == "pieces" or value is None else rules.total_pieces - value
        if placed is not None and placed != total:
            bad("result.count_disagrees", name,
                f"the {name} count {value} is not the puzzles' total ({total} placed)",
                count=value, total=total)


def _check_count(result: Result, rules: RoundRules, bad: _Reporter) -> None:
    if result.puzzles:
        for index, (record, size) in enumerate(
            zip(result.puzzles, rules.puzzle_sizes, strict=True)
        ):
            field = f"puzzle {index + 1}"
            if record.time is None and record.pieces is None and record.remaining is None:
                bad("result.unfinished_without_count", field, f"{field} needs a time or a count")
            for value in (record.pieces, record.remaining):
                if value is not None and value > size:
                    bad(
                        "result.pieces_above_size",
                        field,
                        f"{field}: {value} is more than its {size} pieces",
                    )
        return
    if result.pieces is None and result.remaining is None:
        bad(
            "result.unfinished_without_count",
            "pieces",
            "an unfinished result needs pieces (placed) or remaining",
        )
    elif result.pieces is not None and result.remaining is not None:
        bad("result.pieces_and_remaining", "remaining", "give pieces or remaining, not both")
    for name in ("pieces", "remaining"):
        value = getattr(result, name)
        if value is not None and value > rules.total_pieces and rules.sizes_known:
            bad(
                "result.pieces_above_size",
                name,
                f"{name} {value} is more than the puzzle's {rules.total_pieces} pieces",
            )
