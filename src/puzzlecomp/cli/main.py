"""The `puzzlecomp` command: one subcommand per module of this package."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from puzzlecomp import __version__
from puzzlecomp.cli import (
    advance,
    archive,
    awards,
    bench,
    championship,
    groups,
    organiser,
    payments,
    rank,
    results,
    rulesets,
    seat,
    seed,
    serve,
    standings,
    translations,
)
from puzzlecomp.cli.common import CommandError, with_option
from puzzlecomp.formats.results_csv import InputError
from puzzlecomp.planning import PlanningError
from puzzlecomp.rules.errors import RulesError

COMMANDS = (serve, rank, advance, standings, awards, rulesets, groups, seat, seed, championship,
            archive, results, organiser, translations, bench, payments)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="puzzlecomp",
        description="Run jigsaw puzzle championships under any federation's rules.",
    )
    parser.add_argument("--version", action="version", version=f"puzzlecomp {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand; problems go to stderr one per line, never as a traceback."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except InputError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
    except RulesError as exc:
        for violation in exc.violations:
            print(f"error: {with_option(violation)}", file=sys.stderr)
    except PlanningError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
    except CommandError as exc:
        print(f"error: {exc}", file=sys.stderr)
    return 2
