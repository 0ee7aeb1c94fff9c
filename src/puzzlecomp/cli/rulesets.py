"""`puzzlecomp rulesets`: list the bundled rulesets, or show one in plain words."""

from __future__ import annotations

import argparse
from typing import Any

from puzzlecomp.rules.describe import describe_ruleset
from puzzlecomp.rules.loading import load_ruleset, ruleset_ids


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "rulesets",
        help="list rulesets, or show one",
        description="Without arguments: list the bundled rulesets. "
        "`rulesets show ID`: events, rounds, limits, puzzle sizes and rules in plain words.",
    )
    parser.set_defaults(run=run_list)
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    show = actions.add_parser(
        "show", help="describe one ruleset", description="Describe one ruleset in plain words."
    )
    show.add_argument("ruleset_id", metavar="ID")
    show.set_defaults(run=run_show)


def run_list(args: argparse.Namespace) -> int:
    for ruleset_id in ruleset_ids():
        ruleset = load_ruleset(ruleset_id)
        events = ", ".join(e.id for e in ruleset.events)
        print(f"{ruleset_id:20} {ruleset.name} (events: {events})")
    return 0


def run_show(args: argparse.Namespace) -> int:
    print("\n".join(describe_ruleset(load_ruleset(args.ruleset_id))))
    return 0
