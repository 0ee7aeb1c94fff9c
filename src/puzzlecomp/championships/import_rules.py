"""The public form's entry rules (ages, nationality) applied to the rows of an import.

czech-championship.txt: under 16 only with an adult; wjpc-2025.txt: from 14. The engine's
`check_entry` decides, as for the form; its problems are named by row, entry and column.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass

from puzzlecomp.championships.models import Event
from puzzlecomp.championships.selectors.registration import competition_day
from puzzlecomp.rules.errors import RuleViolation
from puzzlecomp.rules.loading import load_ruleset
from puzzlecomp.rules.registration import Applicant, check_entry

# The entry's size is the import's own check (import.member_count).
_SIZE_CODES = {"registration.team_size", "registration.drawn_teams_only"}
_MEMBER_FIELD = re.compile(r"members\[(\d+)\]\.(\w+)")
# The engine's member attributes and the import's columns.
_COLUMNS = {"birth_date": "birth_date", "birth_year": "birth_date",
            "chosen_nationality": "nationality", "person_id": "entry"}


@dataclass(frozen=True)
class RowMember:
    """What the rules read of one member's row."""

    row: int
    name: str
    birth_date: dt.date | None
    nationality: str
    accompanied_by_adult: bool


@dataclass(frozen=True)
class RowViolation:
    """A broken rule on a member's row and column."""

    row: int
    field: str
    violation: RuleViolation


def entry_rule_problems(event: Event, members: Sequence[RowMember]) -> list[RowViolation]:
    """Every registration rule one planned entry breaks, on the row of the member concerned."""
    ruleset = load_ruleset(event.championship.ruleset_id)
    spec = next((e for e in ruleset.events if e.id == event.code), None)
    if spec is None:
        return []
    start = competition_day(event.championship)
    applicants = [
        Applicant(person_id=f"row {m.row}", name=m.name, birth_date=m.birth_date,
                  birth_year=m.birth_date.year if m.birth_date else None,
                  nationalities=(m.nationality,) if m.nationality else (),
                  accompanied_by_adult=m.accompanied_by_adult)
        for m in members
    ]
    problems: list[RowViolation] = []
    for v in check_entry(spec, ruleset.registration, members=applicants, competition_start=start):
        if v.code in _SIZE_CODES:
            continue
        found = _MEMBER_FIELD.fullmatch(v.field)
        member = members[int(found[1])] if found else members[0]
        column = _COLUMNS.get(found[2], found[2]) if found else "entry"
        problems.append(RowViolation(member.row, column, v))
    return problems
