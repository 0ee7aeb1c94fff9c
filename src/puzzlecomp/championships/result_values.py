"""The values a write stores in a result row: what the services write and the history shows."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from puzzlecomp.rules import results

# The stored fields a write sets, in the order the history shows them.
RESULT_FIELDS = ("status", "time_seconds", "pieces", "remaining", "missing",
                 "missing_contiguous", "missing_found", "time_credit", "puzzles", "checked",
                 "competitor_confirmed", "note")


@dataclass(frozen=True)
class ResultValues:
    """What a judge records; unset fields keep their defaults."""

    status: results.Status
    time_seconds: int | None = None
    pieces: int | None = None
    remaining: int | None = None
    missing: int = 0
    missing_contiguous: int = 0
    missing_found: int = 0
    time_credit: int = 0
    puzzles: list[dict[str, Any]] = field(default_factory=list)
    checked: bool = True
    competitor_confirmed: bool = False
    note: str = ""

    def as_stored(self) -> dict[str, Any]:
        return {name: getattr(self, name) if name != "status" else str(self.status)
                for name in RESULT_FIELDS}
