"""Multi-puzzle rounds: each stage finished and checked before the next one is started.

wjpc-2025.txt, teams: the second puzzle only after the first is correctly completed and verified.
czech-championship.txt, teams: one puzzle on the table at a time, in the order the team chooses.
czech-blind-and-relay.txt, 3.2-3.5: the relay's parts follow one another, the 1000-piece last.
The readings are in docs/rulesets.md ("Multi-puzzle rounds"). A puzzle that starts only once
the one before is checked cannot finish at the same second: it finishes at least the ruleset's
`next_finish_after_seconds` (1 or more) after it.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise

from puzzlecomp.rules.results import PuzzleRecord, Result
from puzzlecomp.rules.ruleset import Round

Reporter = Callable[..., None]


def puzzle_stages(rnd: Round) -> tuple[tuple[int, ...], ...]:
    """Puzzle indexes (from 0) worked at the same time: each relay part, else one puzzle each."""
    if not rnd.relay_parts:
        return tuple((index,) for index in range(len(rnd.puzzles)))
    stages, first = [], 0
    for part in rnd.relay_parts:
        stages.append(tuple(range(first, first + part.puzzles)))
        first += part.puzzles
    return tuple(stages)


def opening_stages(rnd: Round) -> tuple[tuple[int, ...], ...]:
    """Puzzle indexes (from 0) opened together on the judge's phone, the first open at the start.

    czech-championship.txt, teams: the team chooses the order, so every puzzle is open from the
    start and any may be finished first; a listed order opens stage after stage.
    """
    if rnd.puzzle_order == "chosen":
        return (tuple(range(len(rnd.puzzles))),)
    return puzzle_stages(rnd)


def too_close_to_other_finish(time: int, others: list[int], gap: int) -> bool:
    """True when a finish at `time` is less than `gap` from any other finish (a chosen order).

    One puzzle is on the table at a time, so no two finish within the gap, whichever is first.
    """
    return any(abs(time - other) < gap for other in others)


def earliest_next_finish(previous_end: int, gap: int) -> int:
    """The first second at which a puzzle started after a finish at `previous_end` may finish.

    `gap` is the ruleset's `next_finish_after_seconds`: the previous puzzle (or relay part) is
    checked before the next one opens, so the two never finish at the same second.
    """
    return previous_end + gap


def finished_too_soon(time: int, previous_end: int, gap: int) -> bool:
    """True when a finish at `time` comes before the earliest finish after `previous_end`."""
    return time < earliest_next_finish(previous_end, gap)


def check_puzzle_order(
    result: Result, rnd: Round, sizes: tuple[int, ...], limit: int, gap: int, bad: Reporter
) -> None:
    """Report every puzzle finished outside the limit or worked out of the round's order.

    `limit` is the entry's own limit in seconds (the round's plus its time credit); `gap` the
    least seconds between a finish and the next stage's (the ruleset's
    `next_finish_after_seconds`).
    """
    for index, record in enumerate(result.puzzles):
        field = f"puzzle {index + 1}"
        if record.time == 0:
            bad("result.finish_at_zero", field, f"{field}: a finish at 0:00:00 is not a time")
        elif record.time is not None and record.time > limit:
            bad("result.finish_past_limit", field,
                f"{field}: the finish is past the entry's limit", limit=limit)
    if rnd.puzzle_order == "chosen":
        _one_puzzle_at_a_time(result.puzzles, sizes, gap, bad)
    else:
        _stages_in_order(result.puzzles, sizes, puzzle_stages(rnd), gap, bad)


def _worked(record: PuzzleRecord, size: int) -> bool:
    """True when the puzzle was finished or holds counted pieces."""
    if record.time is not None:
        return True
    if record.pieces is not None:
        return record.pieces > 0
    return record.remaining is not None and record.remaining < size


def _stages_in_order(
    puzzles: tuple[PuzzleRecord, ...],
    sizes: tuple[int, ...],
    stages: tuple[tuple[int, ...], ...],
    gap: int,
    bad: Reporter,
) -> None:
    # The earlier stages' last finish (0 before the first stage: the start), or None while one
    # of their puzzles is unfinished.
    ended: int | None = 0
    for number, stage in enumerate(stages):
        for index in stage:
            record, field = puzzles[index], f"puzzle {index + 1}"
            if ended is None and _worked(record, sizes[index]):
                bad("result.puzzle_out_of_order", field,
                    f"{field} holds pieces while a puzzle before it is unfinished")
            elif (number and ended is not None and record.time is not None
                  and finished_too_soon(record.time, ended, gap)):
                bad("result.puzzle_before_previous", field,
                    f"{field} is finished less than {gap} s after the puzzle it follows",
                    gap=gap)
        times = [puzzles[index].time for index in stage]
        if ended is not None and all(t is not None for t in times):
            ended = max([ended, *(t for t in times if t is not None)])
        else:
            ended = None


def _one_puzzle_at_a_time(
    puzzles: tuple[PuzzleRecord, ...], sizes: tuple[int, ...], gap: int, bad: Reporter
) -> None:
    finishes = sorted((record.time, index) for index, record in enumerate(puzzles)
                      if record.time is not None)
    for (earlier, _), (time, index) in pairwise(finishes):
        if finished_too_soon(time, earlier, gap):
            field = f"puzzle {index + 1}"
            bad("result.puzzle_before_previous", field,
                f"{field} is finished less than {gap} s after the puzzle before it", gap=gap)
    started = [
        index
        for index, (record, size) in enumerate(zip(puzzles, sizes, strict=True))
        if record.time is None and _worked(record, size)
    ]
    for index in started[1:]:
        field = f"puzzle {index + 1}"
        bad("result.puzzles_at_once", field,
            f"{field} holds pieces while puzzle {started[0] + 1} is unfinished: one puzzle is "
            "on the table at a time")
