"""`puzzlecomp rank`: rank a round's results."""

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
from puzzlecomp.formats.ranking_output import ranking_csv, ranking_json


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "rank",
        help="rank a round's results",
        description="Read a round's results (CSV, see docs/formats.md) and write its ranking. "
        "Each group is ranked on its own.",
    )
    parser.add_argument("results", metavar="RESULTS.csv", help="results file, or - for stdin")
    add_round_arguments(parser)
    add_format_argument(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    rules = round_rules(args)
    ranking = rank_file(args.results, rules, settings(args))
    sys.stdout.write(
        ranking_json(ranking, rules) if args.format == "json" else ranking_csv(ranking)
    )
    return 0
