"""Write a round's ranking as CSV or JSON (documented in docs/formats.md)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from typing import Any

from puzzlecomp.rules.ranking import RankedEntry
from puzzlecomp.rules.rounds import RoundRules
from puzzlecomp.rules.times import format_time

RANKING_COLUMNS = (
    "rank",
    "entry",
    "name",
    "country",
    "group",
    "status",
    "final_time",
    "penalty_seconds",
    "pieces",
    "official_rank",
)


def ranking_rows(ranking: Sequence[RankedEntry]) -> list[dict[str, Any]]:
    """One plain dict per line, values as they appear in the CSV (None where blank)."""
    return [
        {
            "rank": line.rank,
            "entry": line.entry.id,
            "name": line.entry.name,
            "country": line.entry.country,
            "group": line.entry.group,
            "status": line.score.status.value,
            "final_time": (
                format_time(line.score.final_time) if line.score.final_time is not None else None
            ),
            "penalty_seconds": line.score.penalty_seconds,
            "pieces": line.score.pieces,
            "official_rank": line.official_rank,
        }
        for line in ranking
    ]


def ranking_csv(ranking: Sequence[RankedEntry]) -> str:
    """The ranking as CSV text with a header."""
    return rows_csv(ranking_rows(ranking), RANKING_COLUMNS)


def rows_csv(rows: Sequence[dict[str, Any]], columns: Sequence[str]) -> str:
    """Rows as CSV text; None becomes blank."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(columns), lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: "" if row.get(k) is None else row[k] for k in columns})
    return out.getvalue()


def ranking_json(ranking: Sequence[RankedEntry], rules: RoundRules) -> str:
    """The ranking as a JSON document with the round it belongs to."""
    document = {
        "ruleset": rules.ruleset.id,
        "event": rules.event.id,
        "round": rules.round.id,
        "time_limit_seconds": rules.time_limit_seconds,
        "puzzle_pieces": list(rules.puzzle_sizes),
        "ranking": [
            {**row, "final_time_seconds": line.score.final_time}
            for row, line in zip(ranking_rows(ranking), ranking, strict=True)
        ],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
