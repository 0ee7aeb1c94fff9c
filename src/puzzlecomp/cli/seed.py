"""`puzzlecomp seed`: seed a new championship's entries by their members' past results."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from puzzlecomp.cli.common import CommandError, add_format_argument, read_text
from puzzlecomp.formats.archive_checks import member_count_warnings, read_archive_rows
from puzzlecomp.formats.archive_sizes import NO_EDITIONS, edition_sizes_file, rules_sized
from puzzlecomp.formats.entries_csv import EntryRow
from puzzlecomp.formats.history_csv import EVENT_OF_DIVISION, past_results
from puzzlecomp.formats.member_checks import entry_member_problems
from puzzlecomp.formats.ranking_output import rows_csv
from puzzlecomp.formats.results_csv import InputError, InputProblem, csv_records
from puzzlecomp.planning.rating import (
    Seed,
    SeedingEntry,
    rate_people,
    seed_entries,
    seed_ranks,
)
from puzzlecomp.rules.loading import load_ruleset
from puzzlecomp.rules.ruleset import Event

COLUMNS = ("entry", "person", "seed_rank", "rating")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "seed",
        help="seed entries by their members' past results",
        description="Rate every person from the published results of earlier editions "
        "(docs/seeding.md) and list the entries best first, with seed_rank and rating. "
        "Reads entries CSV (entry, person: the person ids, ';' between members; other columns "
        "ignored). Entries without history come last, without a seed rank.",
    )
    parser.add_argument("entries", metavar="ENTRIES.csv", help="entries file, or - for stdin")
    add_history_argument(parser, required=True)
    parser.add_argument("--event", required=True, help="event: individual, pairs or teams")
    parser.add_argument("--ruleset", default="wjpc-2025",
                        help="the ruleset whose event says how many members an entry lists "
                        "(default: wjpc-2025, whose published results the history format is)")
    parser.add_argument("--editions", metavar="EDITIONS.toml",
                        help="puzzles of past editions where they differed from the ruleset's "
                        "(as archive import; e.g. src/puzzlecomp/samples/wjpc-editions.toml)")
    add_format_argument(parser)
    parser.set_defaults(run=run)


def add_history_argument(parser: argparse.ArgumentParser, *, required: bool) -> None:
    parser.add_argument(
        "--history",
        required=required,
        metavar="RESULTS.csv",
        help="published results of earlier editions (year, division, round, ..., people)",
    )
    parser.add_argument(
        "--before",
        type=int,
        metavar="YEAR",
        help="read only the history's editions before YEAR (the edition being seeded and later "
        "ones would leak its own results into its seeding)",
    )


def run(args: argparse.Namespace) -> int:
    seeds = seeds_from_files(args.entries, args.history, args.event, ruleset_id=args.ruleset,
                             before=args.before, editions=args.editions)
    out = [
        {
            "entry": s.entry,
            "person": ";".join(s.people),
            "seed_rank": s.seed_rank,
            "rating": None if s.rating is None else round(s.rating, 1),
        }
        for s in seeds
    ]
    if args.format == "json":
        print(json.dumps({"seeding": out}, indent=2, ensure_ascii=False))
    else:
        sys.stdout.write(rows_csv(out, COLUMNS))
    return 0


def seeds_from_files(entries_path: str, history_path: str, event: str, *,
                     ruleset_id: str | None = None, before: int | None = None,
                     editions: str | None = None) -> list[Seed]:
    """The seeding of an entries file from a history file, for one event; with a ruleset, each
    entry's members are checked against its event (formats.member_checks)."""
    spec = None
    if ruleset_id is not None:
        try:
            spec = load_ruleset(ruleset_id).event(event)
        except KeyError:
            spec = None  # ratings_from_file names the unknown event
    # Both files' problems in one run: the entries' and the history's.
    problems: list[InputProblem] = []
    try:
        entries = read_seeding_entries(read_text(entries_path), source=entries_path, event=spec)
    except InputError as exc:
        problems += exc.problems
    try:
        ratings = ratings_from_file(history_path, event, before=before,
                                    ruleset_id=ruleset_id or "wjpc-2025", editions=editions)
    except InputError as exc:
        problems += exc.problems
    if problems:
        raise InputError(problems)
    return seed_entries(entries, ratings)


def ratings_from_file(history_path: str, event: str, *, before: int | None = None,
                      ruleset_id: str = "wjpc-2025",
                      editions: str | None = None) -> Mapping[str, float]:
    """Every person's rating in one event from a history file (its editions before `before`)."""
    events = sorted(set(EVENT_OF_DIVISION.values()))
    if event not in events:
        raise CommandError(f"--event {event!r}: expected one of {', '.join(events)}")
    ruleset = load_ruleset(ruleset_id)
    # The rows the archive would refuse are refused here too, with the archive's messages.
    history = read_archive_rows(read_text(history_path), source=history_path, ruleset=ruleset)
    # And what the archive warns of, it warns of here: a pair or team of another size.
    for warning in member_count_warnings(history, ruleset, history_path):
        print(warning, file=sys.stderr)
    # The file's puzzle sizes are a scraper's guess (pairs first rounds as 1000): take the
    # rules', as the archive does (docs/archive.md, Puzzle sizes).
    history = rules_sized(history, source=history_path, ruleset=ruleset,
                          editions=edition_sizes_file(Path(editions)) if editions else NO_EDITIONS)
    if before is not None:
        history = [row for row in history if row.year < before]
    return rate_people(past_results(history, event=event))


def effective_seed_ranks(
    rows: Sequence[EntryRow], history_path: str | None, event: str, *,
    before: int | None = None,
) -> dict[str, int | None]:
    """Each entry's seed rank: from its history when `--history` is given, else the typed one."""
    typed = {row.entry: row.seed_rank for row in rows}
    if history_path is None:
        return typed
    ratings = ratings_from_file(history_path, event, before=before)
    seeds = seed_entries([SeedingEntry(row.entry, row.people) for row in rows], ratings)
    return seed_ranks(seeds, typed)


def read_seeding_entries(text: str, *, source: str,
                         event: Event | None = None) -> list[SeedingEntry]:
    """Entries with their person ids; raises InputError naming every bad row and field: a blank
    entry id, an entry twice, a blank member, a person twice in one entry and (with the
    event) an entry listing fewer or more members than the event takes."""
    entries: list[SeedingEntry] = []
    problems: list[InputProblem] = []
    seen: set[str] = set()
    records = list(csv_records(text, source=source))
    if records and "person" not in records[0][1]:
        raise InputError([InputProblem(source, 1, "", "person", "the header has no person column")])
    for number, values in records:
        entry = values["entry"]
        if not entry:
            problems.append(InputProblem(source, number, "", "entry", "the entry id is blank"))
        elif entry in seen:
            problems.append(
                InputProblem(source, number, entry, "entry", f"entry {entry} appears twice")
            )
        seen.add(entry)
        problems.extend(InputProblem(source, number, entry, "person", message) for message
                        in entry_member_problems(values["person"], event, history=False))
        people = tuple(p.strip() for p in values["person"].split(";") if p.strip())
        entries.append(SeedingEntry(entry, people))
    if problems:
        raise InputError(problems)
    return entries
