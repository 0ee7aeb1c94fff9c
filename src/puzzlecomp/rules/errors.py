"""Errors of the rules engine: a machine code with parameters, and an English message."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class RuleViolation:
    """One broken rule: a stable code for programs, parameters, and an English message."""

    code: str
    message: str
    field: str = ""
    entry: str = ""
    params: Mapping[str, Any] = dataclasses.field(default_factory=dict)


class RulesError(Exception):
    """Raised by the engine with one or more violations; the web layer translates their codes."""

    def __init__(self, violations: list[RuleViolation] | RuleViolation) -> None:
        self.violations = violations if isinstance(violations, list) else [violations]
        super().__init__("; ".join(v.message for v in self.violations))

    @property
    def code(self) -> str:
        return self.violations[0].code


class RulesetError(RulesError):
    """A ruleset file is missing, malformed or refers to something that does not exist."""


def violation(code: str, message: str, **params: Any) -> RuleViolation:
    """Build a violation whose `field` and `entry` come from the parameters when given."""
    return RuleViolation(
        code=code,
        message=message,
        field=str(params.pop("field", "")),
        entry=str(params.pop("entry", "")),
        params=params,
    )
