"""How many finishes of a real WJPC first round the second looks would flag, and which.

    .venv/bin/python bench/second_looks.py                 # the 2025 first round
    .venv/bin/python bench/second_looks.py --year 2024     # the year the limits were chosen on

Replays the first round (groups A-F) of the individual, pairs and teams events of `--year`
with every earlier edition of the data file as history, in finish order as the hall records
them (only the group's finishes before it are known; each new finish also looks again at
those, `rules.plausibility.now_ahead_of_group`): each finish is judged by
`rules.plausibility.faster_than_references` against the time expected of its entrant (the
rating from earlier results, `planning.rating`, at its group's pace, `planning.fairness`),
the fastest other finish of its group and the record of the event and puzzle size before
that year. Puzzle sizes are the rules' (formats/archive_sizes.py), as the archive stores them.
Prints JSON: `finishes`, `flagged`, `flagged_share`, `flagged_entries` (the data's `entrant`
ids, with the reasons) for the three events together, and the same per event.
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import defaultdict
from pathlib import Path
from typing import Any

from puzzlecomp.formats.archive_sizes import read_edition_sizes, round_of, rules_sized
from puzzlecomp.formats.history_csv import PublishedResult, past_results, read_history
from puzzlecomp.planning.fairness import GroupEntrant, expected_seconds, group_paces
from puzzlecomp.planning.rating import rate_people
from puzzlecomp.rules.loading import load_ruleset
from puzzlecomp.rules.plausibility import RecordedAt, faster_than_references, now_ahead_of_group
from puzzlecomp.samples import SAMPLE_EDITIONS

EVENTS = ("individual", "pairs", "teams")
FIRST_ROUND = "first"


def sized(rows: list[PublishedResult], source: str) -> list[PublishedResult]:
    """The rows with the puzzle size the rules give their round (formats/archive_sizes.py)."""
    editions = read_edition_sizes(SAMPLE_EDITIONS.read_text(encoding="utf-8"),
                                  source=SAMPLE_EDITIONS.name)
    return rules_sized(rows, source=source, ruleset=load_ruleset("wjpc-2025"), editions=editions)


def replay(rows: list[PublishedResult], year: int, event: str) -> dict[str, Any]:
    spec = load_ruleset("wjpc-2025").event(event)
    history = [r for r in rows if r.year < year]
    ratings = rate_people(past_results(history, event=event))
    field = [r for r in rows if (r.year, r.event) == (year, event)
             and round_of(spec, r.round).code == FIRST_ROUND]

    def rating(row: PublishedResult) -> float | None:
        known = [ratings[p] for p in row.people if p in ratings]
        return statistics.fmean(known) if known else None

    size, limit = field[0].puzzle_pieces, max(r.time_limit_seconds for r in field)
    record = min((r.time_seconds for r in history if r.event == event and r.completed
                  and r.time_seconds is not None and r.puzzle_pieces == size), default=None)
    finishes: dict[str, list[PublishedResult]] = defaultdict(list)
    for r in field:
        if r.completed and r.time_seconds is not None:
            finishes[r.round].append(r)
    flagged: dict[str, list[str]] = {}
    # In finish order, as the hall records them: each finish is judged with the group's
    # finishes before it, and then looks again at those (rules.plausibility.now_ahead_of_group).
    for group, its in finishes.items():
        its.sort(key=lambda r: (r.time_seconds, r.entrant))
        for n, row in enumerate(its):
            before = its[:n]
            paces = group_paces((GroupEntrant(r.round, rating(r), True, r.time_seconds,
                                              r.pieces_placed) for r in before),
                                puzzle_pieces=size, time_limit_seconds=limit)
            own = rating(row)
            recorded = RecordedAt(row.entrant, None, True, round(row.time_seconds or 0))
            found = faster_than_references(
                recorded,
                expected_seconds=(expected_seconds(own, paces[group])
                                  if own is not None and group in paces else None),
                group_next_seconds=min((round(r.time_seconds or 0) for r in before),
                                       default=None),
                record_seconds=round(record) if record is not None else None)
            found += now_ahead_of_group(
                [RecordedAt(r.entrant, None, True, round(r.time_seconds or 0)) for r in before],
                recorded)
            for v in found:
                who = v.entry
                if v.code not in flagged.get(who, []):
                    flagged.setdefault(who, []).append(v.code)
    total = sum(len(its) for its in finishes.values())
    return {"finishes": total, "flagged": len(flagged),
            "flagged_share": round(len(flagged) / total, 4) if total else 0.0,
            "flagged_entries": flagged}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    here = Path(__file__).resolve().parent
    parser.add_argument("--data", type=Path,
                        default=here.parent.parent / "shared" / "data" / "wjpc-results.csv")
    parser.add_argument("--year", type=int, default=2025)
    args = parser.parse_args()
    rows = sized(read_history(args.data.read_text(encoding="utf-8"), source=str(args.data)),
                 str(args.data))
    events = {event: replay(rows, args.year, event) for event in EVENTS}
    finishes = sum(e["finishes"] for e in events.values())
    flagged = {entrant: reasons for e in events.values()
               for entrant, reasons in e["flagged_entries"].items()}
    print(json.dumps({"year": args.year, "finishes": finishes, "flagged": len(flagged),
                      "flagged_share": round(len(flagged) / finishes, 4),
                      "flagged_entries": sorted(flagged), "reasons": flagged,
                      "events": events}, indent=2))


if __name__ == "__main__":
    main()
