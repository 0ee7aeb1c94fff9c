"""Write a round's qualifiers as CSV or JSON (documented in docs/qualification.md)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from puzzlecomp.formats.ranking_output import rows_csv
from puzzlecomp.rules.qualification import Qualifier
from puzzlecomp.rules.rounds import RoundRules

QUALIFIER_COLUMNS = ("entry", "name", "country", "group", "rank", "to_group", "reason")


# How a tie at a maximum was settled (Qualification.tie_at_cap), in the reason column's words.
SETTLED_BY = {"raw_time": "the time before penalties",
              "entry_order": "the score, then the group and entry in order"}


def qualifier_rows(qualifiers: Sequence[Qualifier]) -> list[dict[str, Any]]:
    """One plain dict per qualifier; `tie_settled_by` is "" unless a tie at a maximum was."""
    return [
        {
            "entry": q.entry.id,
            "name": q.entry.name,
            "country": q.entry.country,
            "group": q.entry.group,
            "rank": q.rank,
            "to_group": q.to_group,
            "reason": q.reason.value,
            "tie_settled_by": q.tie_settled_by,
        }
        for q in qualifiers
    ]


def qualifiers_csv(qualifiers: Sequence[Qualifier]) -> str:
    """The qualifiers as CSV text with a header; the reason says when a tie at a maximum was
    settled, and how."""
    rows = [
        {**row, "reason": f"{row['reason']}; tie at the maximum settled by "
         f"{SETTLED_BY[row['tie_settled_by']]}" if row["tie_settled_by"] else row["reason"]}
        for row in qualifier_rows(qualifiers)
    ]
    return rows_csv(rows, QUALIFIER_COLUMNS)


def qualifiers_json(qualifiers: Sequence[Qualifier], rules: RoundRules) -> str:
    """The qualifiers as a JSON document naming the round they leave and the round they enter."""
    assert rules.round.qualification is not None
    document = {
        "ruleset": rules.ruleset.id,
        "event": rules.event.id,
        "round": rules.round.id,
        "to_round": rules.round.qualification.to_round,
        "qualifiers": qualifier_rows(qualifiers),
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
