"""`puzzlecomp seat`: seat a round's entries at the hall's numbered tables."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from typing import Any

from puzzlecomp.cli.common import (
    CommandError,
    add_format_argument,
    add_ruleset_arguments,
    read_text,
)
from puzzlecomp.cli.seed import add_history_argument, effective_seed_ranks
from puzzlecomp.formats.entries_csv import EntryRow, read_entries
from puzzlecomp.formats.ranking_output import rows_csv
from puzzlecomp.planning import FloorPlan, SeatingEntrant, seat_entries
from puzzlecomp.rules.loading import load_ruleset
from puzzlecomp.rules.rounds import find_round

COLUMNS = ("table", "seat", "row", "entry", "name", "country")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "seat",
        help="seat a round's entries at numbered tables",
        description="Seat entries in order of seeding: by seed_rank (first rounds) or by place in "
        "the previous round (columns previous_group/previous_place, or the group/rank columns "
        "that `puzzlecomp advance` writes). The round's seating rule says who sits alone. With "
        "--history, a first round's order comes from the members' past results where they have "
        "any (docs/seeding.md).",
    )
    parser.add_argument("entries", metavar="ENTRIES.csv", help="entries file, or - for stdin")
    add_ruleset_arguments(parser)
    parser.add_argument(
        "--group",
        default=None,
        help="seat only this group: entries of the group, or qualifiers whose to_group it is",
    )
    parser.add_argument(
        "--rows",
        default=None,
        metavar="6,8,10,...",
        help="tables per row, front to back (default: the ruleset's hall)",
    )
    parser.add_argument(
        "--guest-tables",
        type=int,
        default=None,
        help="tables kept for guests at the back (default: the ruleset's)",
    )
    add_history_argument(parser, required=False)
    add_format_argument(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    ruleset = load_ruleset(args.ruleset)
    _, rnd = find_round(ruleset, args.event, args.round)
    plan = floor_plan(args, ruleset.floor_plan)
    rows = read_entries(read_text(args.entries), source=args.entries)
    if args.group is not None:
        # Qualifiers (advance output) are chosen by where they go, entries by their group.
        rows = [r for r in rows if (r.to_group or r.previous_group) == args.group]
    seating = seat_entries(
        [
            SeatingEntrant(r.entry, r.previous_group, r.previous_place)
            for r in seeded(rows, effective_seed_ranks(rows, args.history, args.event,
                                                       before=args.before))
        ],
        plan,
        solo_count_per_group=rnd.seating.solo_top_per_previous_group,
        seats_per_table=rnd.seating.entries_per_table,
        share_only_when_needed=rnd.seating.shared == "when_needed",
    )
    by_entry = {r.entry: r for r in rows}
    out = [
        {
            "table": a.table,
            "seat": a.seat,
            "row": plan.row_of(a.table) + 1,
            "entry": a.entry,
            "name": by_entry[a.entry].name,
            "country": by_entry[a.entry].country,
        }
        for a in seating.assignments
    ]
    if args.format == "json":
        print(
            json.dumps(
                {"seating": out, "tables_used": len({a.table for a in seating.assignments})},
                indent=2,
                ensure_ascii=False,
            )
        )
    else:
        sys.stdout.write(rows_csv(out, COLUMNS))
    return 0


def seeded(rows: list[EntryRow], seed_rank: Mapping[str, int | None]) -> list[EntryRow]:
    """Order of seeding: place in the previous round, else seed rank, else file order."""

    def key(item: tuple[int, EntryRow]) -> tuple[int, int, int]:
        position, row = item
        seed = row.previous_place if row.previous_place is not None else seed_rank[row.entry]
        return (seed is None, seed or 0, position)

    return [row for _, row in sorted(enumerate(rows), key=key)]


def floor_plan(args: argparse.Namespace, spec: Any) -> FloorPlan:
    if args.rows:
        try:
            rows = tuple(int(part) for part in args.rows.split(","))
        except ValueError:
            raise CommandError(f"--rows {args.rows!r}: expected numbers like 6,8,10") from None
    elif spec is not None:
        rows = spec.rows
    else:
        raise CommandError(f"ruleset {args.ruleset} has no floor plan: give --rows")
    guests = (
        args.guest_tables
        if args.guest_tables is not None
        else (spec.guest_tables if spec is not None and not args.rows else 0)
    )
    return FloorPlan(rows=rows, guest_tables=guests)
