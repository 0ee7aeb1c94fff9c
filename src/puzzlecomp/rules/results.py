"""What a judge records for an entry, and who the entry is."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from puzzlecomp.rules.people import Person


class Status(StrEnum):
    FINISHED = "finished"
    UNFINISHED = "unfinished"
    DNF = "dnf"
    DSQ = "dsq"
    DNS = "dns"
    # Rulesets with `assistance` (docs/rulesets.md): finished with the help the competitor asked
    # for, no time recorded; helped by someone from outside, no time at all.
    ASSISTED = "assisted"
    OUTSIDE_HELP = "outside_help"

    @property
    def is_ranked(self) -> bool:
        return self not in (Status.DSQ, Status.DNS, Status.OUTSIDE_HELP)


@dataclass(frozen=True, slots=True)
class MissingPieces:
    """Pieces missing at a finish: all, those in adjacent clusters, those found elsewhere."""

    missing: int = 0
    contiguous: int = 0
    found: int = 0


NO_MISSING = MissingPieces()


@dataclass(frozen=True, slots=True)
class PuzzleRecord:
    """One puzzle of a multi-puzzle round: finish time from the shared start, or its count."""

    time: int | None = None
    pieces: int | None = None
    remaining: int | None = None
    missing: MissingPieces = NO_MISSING


@dataclass(frozen=True, slots=True)
class Result:
    """A judge's record: times are whole seconds from the start of the round."""

    status: Status
    time: int | None = None
    pieces: int | None = None
    remaining: int | None = None
    missing: MissingPieces = NO_MISSING
    # Time lost through the organiser's fault (wrong puzzle handed out): subtracted from the time
    # and added to the entry's own limit.
    time_credit: int = 0
    # Per-puzzle detail of multi-puzzle rounds, in the ruleset's puzzle order.
    puzzles: tuple[PuzzleRecord, ...] = ()


@dataclass(frozen=True, slots=True)
class Entry:
    """A person, pair or team in a round."""

    id: str
    name: str = ""
    country: str = ""
    group: str = ""
    members: tuple[Person, ...] = (Person(),)
