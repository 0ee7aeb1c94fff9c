"""`puzzlecomp groups`: assign a first round's entries to groups."""

from __future__ import annotations

import argparse
import json
import sys
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
from puzzlecomp.planning import PlanningEntrant, assign_groups
from puzzlecomp.rules.flags import entry_flag
from puzzlecomp.rules.group_maxima import groups_over_maximum
from puzzlecomp.rules.loading import load_ruleset
from puzzlecomp.rules.people import Person, split_members
from puzzlecomp.rules.results import Entry
from puzzlecomp.rules.rounds import find_round
from puzzlecomp.rules.ruleset import Event


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "groups",
        help="assign a first round's entries to groups",
        description="Spread each country's entrants evenly over the round's groups, keeping group "
        "sizes within one and the groups that merge later proportionate. Reads entries CSV "
        "(entry, name, country, optional seed_rank and person); writes them back with their group. "
        "With --history, an entry's strength comes from its members' past results where they "
        "have any (docs/seeding.md). "
        "Balance figures go to stderr (CSV) or into the document (JSON).",
    )
    parser.add_argument("entries", metavar="ENTRIES.csv", help="entries file, or - for stdin")
    add_ruleset_arguments(parser)
    parser.add_argument("--seed", type=int, default=0, help="random seed (record it!)")
    add_history_argument(parser, required=False)
    add_format_argument(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    event, rnd = find_round(load_ruleset(args.ruleset), args.event, args.round)
    if not rnd.groups:
        raise CommandError(f"round {rnd.id} of {args.event} has no groups to assign")
    rows = read_entries(read_text(args.entries), source=args.entries)
    ranks = effective_seed_ranks(rows, args.history, args.event, before=args.before)
    assignment = assign_groups(
        [PlanningEntrant(r.entry, flag_of(r, event), ranks[r.entry]) for r in rows],
        groups=rnd.groups,
        merges=rnd.merging_groups,
        seed=args.seed,
    )
    out = [
        {
            "entry": r.entry,
            "name": r.name,
            "country": r.country,
            "seed_rank": ranks[r.entry],
            "group": assignment.group_of[r.entry],
        }
        for r in rows
    ]
    out.sort(key=lambda row: (rnd.groups.index(row["group"]), row["entry"]))
    b = assignment.balance
    balance = {
        "seed": args.seed,
        "sizes": dict(b.sizes),
        "max_size_difference": b.max_size_difference,
        "countries_per_group": dict(b.countries),
        "max_countries_difference": b.max_countries_difference,
        "max_country_spread": b.max_country_spread,
        "max_country_spread_between_merging_groups": b.max_country_block_spread,
    }
    for over in groups_over_maximum(event, rnd.id, assignment.group_of.values()):
        print(f"warning: {over}", file=sys.stderr)
    if args.format == "json":
        print(json.dumps({"groups": out, "balance": balance}, indent=2, ensure_ascii=False))
    else:
        sys.stdout.write(rows_csv(out, ("entry", "name", "country", "seed_rank", "group")))
        print(f"balance: {json.dumps(balance)}", file=sys.stderr)
    return 0


def flag_of(row: EntryRow, event: Event) -> str:
    """The country a row's entry represents; mixed pairs and teams share the mixed flag."""
    members = tuple(Person(nationality=code) for code in split_members(row.country, 1))
    return entry_flag(Entry(row.entry, country=row.country, members=members), event)
