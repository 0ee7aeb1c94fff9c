"""`puzzlecomp rank`: rank a round's results."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from puzzlecomp.cli.common import (
    add_format_argument,
    add_round_arguments,
    located,
    read_result_rows,
    round_rules,
    settings,
)
from puzzlecomp.formats.ranking_output import ranking_csv, ranking_json
from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.ranking import rank_round


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
    rows = read_result_rows(args.results)
    try:
        ranking = rank_round([(r.entry, r.result) for r in rows], rules, settings=settings(args))
    except RulesError as exc:
        raise located(exc, rows, args.results) from exc
    sys.stdout.write(
        ranking_json(ranking, rules) if args.format == "json" else ranking_csv(ranking)
    )
    return 0
