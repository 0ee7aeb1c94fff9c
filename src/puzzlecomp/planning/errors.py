"""Errors of the planning code: a machine code for programs and an English message."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from types import MappingProxyType


class PlanningError(Exception):
    """Raised for input no plan can satisfy; the web layer translates `code` for people."""

    def __init__(self, code: str, message: str, **params: int | str) -> None:
        self.code = code
        self.message = message
        self.params: Mapping[str, int | str] = MappingProxyType(params)
        super().__init__(message)


def reject_repeats(code: str, what: str, values: Iterable[str]) -> None:
    """Raise a `PlanningError` with `code` when any value occurs more than once."""
    repeated = sorted(value for value, n in Counter(values).items() if n > 1)
    if repeated:
        listed = ", ".join(repeated)
        raise PlanningError(
            code, f"Each {what} may appear once; repeated: {listed}.", repeated=listed
        )
