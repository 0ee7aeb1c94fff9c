"""`puzzlecomp advance`: list who goes from a round to the next."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from puzzlecomp.cli.common import (
    add_format_argument,
    add_round_arguments,
    rank_file,
    round_rules,
    settings,
)
from puzzlecomp.formats.qualifiers_output import qualifiers_csv, qualifiers_json
from puzzlecomp.rules.group_maxima import groups_over_maximum
from puzzlecomp.rules.qualification import (
    group_problems,
    qualification_rules,
    qualify_for_next_round,
)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "advance",
        help="list the qualifiers for the next round",
        description="Read the results of every group of a round (CSV, as for `rank`) and write "
        "exactly the entries that go to the next round, with their next-round group and why "
        "(see docs/qualification.md).",
    )
    parser.add_argument("results", metavar="RESULTS.csv", help="results file, or - for stdin")
    add_round_arguments(parser, round_required=True)
    add_format_argument(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    rules = round_rules(args)
    values = settings(args)
    # A final has nobody to advance: say so before reading any results.
    qualification = qualification_rules(rules)
    ranking = rank_file(args.results, rules, values,
                        checks=lambda entries: group_problems(entries, rules))
    qualifiers = qualify_for_next_round(ranking, rules)
    for over in groups_over_maximum(rules.event, qualification.to_round,
                                    (q.to_group for q in qualifiers)):
        print(f"warning: {over}", file=sys.stderr)
    sys.stdout.write(
        qualifiers_json(qualifiers, rules) if args.format == "json" else qualifiers_csv(qualifiers)
    )
    return 0
