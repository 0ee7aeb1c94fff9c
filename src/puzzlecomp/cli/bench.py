"""`puzzlecomp bench`: measure the engine and print the figures as JSON."""

from __future__ import annotations

import argparse
import json
from typing import Any

from puzzlecomp.benchmarks import BENCHMARKS
from puzzlecomp.cli.common import CommandError


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "bench",
        help="measure the engine (JSON with median timings)",
        description="Run the engine benchmarks and print median timings as JSON.",
    )
    parser.add_argument(
        "names",
        nargs="*",
        metavar="NAME",
        help=f"benchmarks to run (default: all): {', '.join(BENCHMARKS)}",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    names = args.names or list(BENCHMARKS)
    unknown = [name for name in names if name not in BENCHMARKS]
    if unknown:
        known = ', '.join(BENCHMARKS)
        raise CommandError(f"unknown benchmark {', '.join(unknown)}; known: {known}")
    print(json.dumps({name: BENCHMARKS[name]() for name in names}, indent=2))
    return 0
