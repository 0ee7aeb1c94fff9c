"""The relay's rotation part: a signal every few minutes, who moves to which unfinished puzzle."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from puzzlecomp.rules.errors import RulesError, violation
from puzzlecomp.rules.ruleset import RelayPart


@dataclass(frozen=True, slots=True)
class Move:
    member: str
    from_puzzle: int
    to_puzzle: int


@dataclass(frozen=True, slots=True)
class RotationSignal:
    """A signal `at` seconds after the start, and the moves it calls for."""

    at: int
    moves: tuple[Move, ...]


def rotation_schedule(
    part: RelayPart,
    *,
    members: Sequence[str],
    finishes: Mapping[int, int],
    until: int,
) -> list[RotationSignal]:
    """Signals of a rotating part, given the puzzles finished so far (puzzle index -> second).

    Member i starts at puzzle i. The member at a puzzle when it is finished stops assembling;
    at each signal every active member moves clockwise to the next unfinished puzzle. The
    schedule runs until every puzzle is finished or `until` (the round's limit) is reached.
    """
    interval = (part.rotate_every_minutes or 0) * 60
    if not interval:
        raise RulesError(violation("relay.no_rotation", f"part {part.name!r} does not rotate"))
    if len(members) != part.puzzles:
        raise RulesError(
            violation(
                "relay.members",
                f"part {part.name!r} needs {part.puzzles} members, got {len(members)}",
                field="members",
            )
        )
    at_puzzle = {member: index for index, member in enumerate(members)}
    signals: list[RotationSignal] = []
    at = interval
    while at < until:
        unfinished = [p for p in range(part.puzzles) if finishes.get(p, until + 1) > at]
        if not unfinished:
            break
        following = {p: unfinished[(i + 1) % len(unfinished)] for i, p in enumerate(unfinished)}
        moves = tuple(
            Move(member, puzzle, following[puzzle])
            for member, puzzle in at_puzzle.items()
            if puzzle in following and following[puzzle] != puzzle
        )
        for move in moves:
            at_puzzle[move.member] = move.to_puzzle
        for member, puzzle in list(at_puzzle.items()):
            if puzzle not in following:
                del at_puzzle[member]  # finished their puzzle: advises only from now on
        signals.append(RotationSignal(at, moves))
        at += interval
    return signals
