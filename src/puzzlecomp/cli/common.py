"""Options and helpers shared by the subcommands."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

from puzzlecomp.formats.results_csv import (
    InputError,
    InputProblem,
    ResultRow,
    parse_results,
)
from puzzlecomp.rules.conditions import Value
from puzzlecomp.rules.errors import RulesError, RuleViolation
from puzzlecomp.rules.facts import check_members_count, declared_facts
from puzzlecomp.rules.loading import load_ruleset
from puzzlecomp.rules.ranking import RankedEntry, rank_round
from puzzlecomp.rules.results import Entry
from puzzlecomp.rules.rounds import RoundRules, resolve_round
from puzzlecomp.rules.settings import championship_settings

# The options that give what a round's rules lack (rules.rounds.round_rule_problems).
ROUND_OPTIONS = {"round.time_limit_required": "give it with --time-limit MINUTES",
                 "round.pieces_required": "give it with --pieces N",
                 "round.time_limit_invalid": "--time-limit MINUTES",
                 "round.pieces_invalid": "--pieces N"}


def with_option(violation: RuleViolation) -> str:
    """The engine's message, with the command-line option that gives the missing value."""
    option = ROUND_OPTIONS.get(violation.code)
    return f"{violation.message}: {option}" if option else violation.message


class CommandError(Exception):
    """A problem with the command line itself (a file that cannot be read, a bad option)."""


def add_ruleset_arguments(parser: argparse.ArgumentParser, *, round_required: bool = False) -> None:
    """--ruleset, --event and --round: which round of which ruleset a command is about."""
    parser.add_argument("--ruleset", required=True, help="ruleset id (see `puzzlecomp rulesets`)")
    parser.add_argument("--event", required=True, help="event id, e.g. individual, pairs, teams")
    parser.add_argument(
        "--round",
        required=round_required,
        default=None,
        help="round id" + ("" if round_required else " (default: the event's first round)"),
    )


def add_round_arguments(parser: argparse.ArgumentParser, *, round_required: bool = False) -> None:
    """The round's ids plus the organiser's overrides and championship settings."""
    add_ruleset_arguments(parser, round_required=round_required)
    parser.add_argument(
        "--time-limit", type=int, metavar="MINUTES", help="override the round's time limit"
    )
    parser.add_argument(
        "--pieces", type=int, metavar="N", help="override the size of every puzzle of the round"
    )
    parser.add_argument(
        "--setting",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a championship setting the ruleset asks for, e.g. host_region=NSW",
    )


def add_format_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--format", choices=("csv", "json"), default="csv", help="output format (default: csv)"
    )


def round_rules(args: argparse.Namespace) -> RoundRules:
    """The round named on the command line, with its overrides."""
    return resolve_round(
        load_ruleset(args.ruleset),
        args.event,
        args.round,
        time_limit_minutes=args.time_limit,
        pieces=args.pieces,
    )


def given_settings(args: argparse.Namespace) -> dict[str, str]:
    """Championship settings as given by repeated --setting NAME=VALUE options, unchecked."""
    values: dict[str, str] = {}
    names: dict[str, str] = {}
    for item in args.setting:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise CommandError(f"--setting {item!r}: expected NAME=VALUE")
        name, value = name.strip(), value.strip()
        earlier = names.setdefault(name.casefold(), name)
        if earlier in values and values[earlier].casefold() != value.casefold():
            raise CommandError(f"--setting {earlier} is given twice, as {values[earlier]!r} and "
                               f"as {value!r}; give it once")
        values[earlier] = value
    return values


def settings(args: argparse.Namespace) -> dict[str, Value]:
    """The championship settings of --setting options, checked against the ruleset's
    declarations (RulesError naming every unknown name, unknown value and missing setting)."""
    return championship_settings(load_ruleset(args.ruleset), given_settings(args))


def read_text(path: str) -> str:
    """A file's text, or CommandError naming it ("-" reads standard input)."""
    if path == "-":
        return sys.stdin.read()
    try:
        return Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise CommandError(f"{path}: cannot read: {exc}") from exc



def rank_file(path: str, rules: RoundRules, settings: Mapping[str, Value], *,
              checks: Callable[[list[Entry]], list[RuleViolation]] | None = None,
              ) -> list[RankedEntry]:
    """Rank a results file; raises InputError with every problem of every row, ranking none.
    `checks` adds the caller's own problems of the rows' entries (advance: their groups)."""
    rows, problems = parse_results(read_text(path), source=path,
                                   puzzles=len(rules.puzzle_sizes))
    try:
        rows = with_declared_facts(rows, rules, path)
        if checks is not None:
            problems.extend(located(RulesError(checks([r.entry for r in rows])), rows,
                                    path).problems)
        ranking = rank_round([(r.entry, r.result) for r in rows], rules, settings=settings)
    except RulesError as exc:
        problems.extend(located(exc, rows, path).problems)
    except InputError as exc:
        problems.extend(exc.problems)
    if problems:
        raise InputError(sorted(problems, key=lambda p: (p.row or 0)))
    return ranking


def with_declared_facts(rows: list[ResultRow], rules: RoundRules, source: str) -> list[ResultRow]:
    """The rows with their people's facts in the ruleset's spelling; InputError naming the row,
    entry and field of every value the ruleset does not declare and every entry listing more or
    fewer members than the event takes."""
    checked, problems = [], []
    for row in rows:
        try:
            check_members_count(row.entry, rules.event, rules.ruleset.id)
            entry = declared_facts(rules.ruleset, row.entry)
            checked.append(dataclasses.replace(row, entry=entry))
        except RulesError as exc:
            problems.extend(located(exc, [row], source).problems)
    if problems:
        raise InputError(problems)
    return checked


def located(exc: RulesError, rows: list[ResultRow], source: str) -> InputError:
    """The engine's violations placed at the input rows of their entries."""
    rows_of: dict[str, list[int]] = {}
    for row in rows:
        rows_of.setdefault(row.entry.id, []).append(row.row)

    def row_of(entry: str, code: str) -> int | None:
        numbers = rows_of.get(entry, [])
        # A duplicate is reported at its repeat, anything else at the entry's first row.
        index = 1 if code == "entry.duplicate" and len(numbers) > 1 else 0
        return numbers[index] if numbers else None

    return InputError(
        [
            InputProblem(source, row_of(v.entry, v.code), v.entry, v.field, v.message)
            for v in exc.violations
        ]
    )
