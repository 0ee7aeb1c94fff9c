"""Facts about a person that come from their earlier championships.

- Debutant (wjpc-2025.txt, the Debutant prizes): has not competed in this category (event) at any
  earlier edition of the championship.
- First state competition of the calendar year (australia-state-national.txt, Trophies: residents
  of a territory without state competitions): no other state competition entered earlier in
  the same calendar year.

Editions of one championship are the championships whose rulesets belong to one series: the
ruleset id without a trailing year ("wjpc-2025" and "wjpc-2026" are both "wjpc").
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass

from pydantic import BaseModel

from puzzlecomp.rules.conditions import Condition

_TRAILING_YEAR = re.compile(r"-\d{4}$")


@dataclass(frozen=True)
class Participation:
    """A confirmed entry of the person at one championship."""

    ruleset_id: str
    event: str
    starts_on: dt.date


def ruleset_series(ruleset_id: str) -> str:
    """The series a ruleset's championships are editions of: its id without a trailing year."""
    return _TRAILING_YEAR.sub("", ruleset_id)


def ruleset_year(ruleset_id: str) -> int | None:
    """The edition year a ruleset was written for ("wjpc-2025": 2025); None without one."""
    match = _TRAILING_YEAR.search(ruleset_id)
    return int(match.group()[1:]) if match else None


def edition_rules_known(ruleset_id: str, year: int) -> bool:
    """True when a ruleset's birth-year limits are those of the edition held in `year`.

    A rulebook's birth years belong to its own edition (wjpc-2025.txt, Subcategories: Senior B
    born in 1964 or before, for 2025); a past edition imported with it keeps no age category,
    since its own limits are unknown. A ruleset without a year states no edition.
    """
    written_for = ruleset_year(ruleset_id)
    return written_for is None or written_for == year


def is_debutant(past: Iterable[Participation], *, ruleset_id: str, event: str,
                starts_on: dt.date) -> bool:
    """True when the person has no entry in this event at an earlier edition of the series."""
    series = ruleset_series(ruleset_id)
    return not any(
        p.event == event and ruleset_series(p.ruleset_id) == series and p.starts_on < starts_on
        for p in past
    )


def is_first_state_competition_of_year(past: Iterable[Participation], *, ruleset_id: str,
                                       starts_on: dt.date) -> bool:
    """True when the person entered no earlier championship of the series that calendar year."""
    series = ruleset_series(ruleset_id)
    return not any(
        ruleset_series(p.ruleset_id) == series
        and p.starts_on.year == starts_on.year
        and p.starts_on < starts_on
        for p in past
    )


HISTORY_FACTS = ("debutant", "first_state_competition_of_year")


def facts_used(ruleset: BaseModel) -> tuple[str, ...]:
    """The facts from history that any condition of the ruleset tests, in HISTORY_FACTS order."""
    used = _condition_fields(ruleset)
    return tuple(fact for fact in HISTORY_FACTS if fact in used)


def _condition_fields(value: object) -> set[str]:
    if isinstance(value, Condition):
        own = {value.field} if value.field else set()
        nested = [*value.all_of, *value.any_of, *([value.not_] if value.not_ else [])]
        return own.union(*(_condition_fields(c) for c in nested))
    if isinstance(value, BaseModel):
        return set().union(*(_condition_fields(getattr(value, name))
                             for name in type(value).model_fields))
    if isinstance(value, tuple | list):
        return set().union(*(_condition_fields(item) for item in value))
    if isinstance(value, dict):
        return set().union(*(_condition_fields(item) for item in value.values()))
    return set()
