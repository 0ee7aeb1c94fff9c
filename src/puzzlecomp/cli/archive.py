"""`puzzlecomp archive import`: past championships from published results (docs/archive.md).

Uses the database of the web app (DATABASE_URL, else ./var), like `puzzlecomp serve`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from puzzlecomp.cli.common import CommandError, read_text
from puzzlecomp.formats.archive_checks import member_count_warnings, read_archive_rows
from puzzlecomp.formats.archive_sizes import NO_EDITIONS, read_edition_dates, read_edition_sizes
from puzzlecomp.rules import limits
from puzzlecomp.rules.loading import load_ruleset
from puzzlecomp.samples import SAMPLE_EDITIONS
from puzzlecomp.samples import SAMPLE_RESULTS as SAMPLE


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "archive", help="import past championships from published results",
        description="The archive of past championships: read-only championships created from "
        "published results, whose people keep one identity across editions.",
    )
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    imported = actions.add_parser(
        "import", help="create past championships from a published results file",
        description="Create one read-only championship per year of a published results file "
        "(year, division, round, rank, entrant, country, completed, time_seconds, pieces, "
        "puzzle_pieces, time_limit_seconds, people), with its events, rounds, results and "
        "people (matched by their ids). A file with any problem imports nothing: one line per "
        f"problem, exit status 2. The WJPC 2019-2025 sample is {SAMPLE.name} in the package.",
    )
    imported.add_argument("results", metavar="RESULTS.csv|PACKAGE.json",
                          help=f"results file, - for stdin, or 'sample' for {SAMPLE.name}; or "
                          "a signed results package (docs/results-package.md) of a key added "
                          "with `puzzlecomp results trust`")
    imported.add_argument("--ruleset", default=None,
                          help="the ruleset whose events the divisions are, e.g. wjpc-2025")
    imported.add_argument("--editions", default=None, metavar="EDITIONS.toml",
                          help="the puzzles of past editions where they differed from the "
                          "ruleset's rounds (docs/archive.md; 'sample' is given for the sample)")
    imported.add_argument("--prefix", default=None,
                          help="slugs are PREFIX-YEAR (default: the file name before '-results')")
    imported.add_argument("--title", default=None,
                          help="names are 'TITLE YEAR' (default: the prefix in capitals)")
    imported.set_defaults(run=run_import)
    added = actions.add_parser(
        "add", help="put a finished championship into the archive",
        description="Make a championship of the database whose every round is final read-only "
        "and part of the history that seeds later championships (e.g. one imported with "
        "`puzzlecomp championship import FILE`).",
    )
    added.add_argument("slug", metavar="SLUG")
    added.set_defaults(run=run_add)


def run_import(args: argparse.Namespace) -> int:
    from puzzlecomp.cli.championship import database_setup

    if args.results.endswith(".json"):
        return run_package_import(args)
    if args.ruleset is None:
        raise CommandError("--ruleset is required for a results file (e.g. --ruleset wjpc-2025)")
    path = str(SAMPLE) if args.results == "sample" else args.results
    prefix = args.prefix or Path(path).stem.removesuffix("-results") or "archive"
    if not prefix.replace("-", "").isalnum():
        raise CommandError(f"--prefix {prefix!r}: letters, digits and '-' only")
    if args.title is not None and not limits.is_plain_line(args.title):
        raise CommandError(f"--title {args.title!r}: a name is one line")
    rows = read_archive_rows(read_text(path), source=path, ruleset=load_ruleset(args.ruleset))
    editions_path = SAMPLE_EDITIONS if args.results == "sample" else args.editions
    editions_text = read_text(str(editions_path)) if editions_path else ""
    editions = (read_edition_sizes(editions_text, source=str(editions_path))
                if editions_path else NO_EDITIONS)
    dates = read_edition_dates(editions_text, source=str(editions_path)) if editions_path else {}
    database_setup()
    from puzzlecomp.championships.services.archive import archive_import

    done = archive_import(rows=rows, source=path, ruleset_id=args.ruleset,
                          slug_prefix=prefix.lower(), title=args.title or prefix.upper(),
                          editions=editions, dates=dates)
    for warning in done.size_warnings:
        print(f"warning: {warning}", file=sys.stderr)
    if done.size_warnings:
        print(f"warning: {sum(len(w.rows) for w in done.size_warnings)} rows give a puzzle size "
              "the rules contradict; the rules' sizes were taken", file=sys.stderr)
    for over in done.pieces_warnings:
        print(f"warning: {over}", file=sys.stderr)
    for unfinished in done.ranked_unfinished:
        print(f"warning: {unfinished}", file=sys.stderr)
    for limit in done.limit_warnings:
        print(f"warning: {limit}", file=sys.stderr)
    for namesake in done.namesakes:
        print(f"warning: {namesake}", file=sys.stderr)
    if done.namesakes:
        ids = sorted({namesake.person for namesake in done.namesakes})
        print(f"warning: {len(done.namesakes)} entries name a person already in another entry "
              "of the round, or of the event and edition with other members (namesakes in the "
              f"source): each kept apart as a person of its own; {len(ids)} ids: "
              f"{', '.join(ids)}", file=sys.stderr)
    for member_warning in member_count_warnings(rows, load_ruleset(args.ruleset), path):
        print(member_warning, file=sys.stderr)
    print(f"archived {done.results} results in {', '.join(done.championships)}; "
          f"{done.people_created} people new to the archive")
    return 0


def run_package_import(args: argparse.Namespace) -> int:
    """A trusted installation's final results package, as an archived championship."""
    from puzzlecomp.cli.championship import database_setup

    try:
        content = Path(args.results).read_bytes()
    except OSError as exc:
        raise CommandError(f"{args.results}: {exc.strerror}") from None
    database_setup()
    from puzzlecomp.championships.services.results_package import package_archive_import
    from puzzlecomp.formats.interchange import InterchangeError

    try:
        championship = package_archive_import(content, slug=args.prefix)
    except InterchangeError as error:
        for problem in error.problems:
            print(f"error: {args.results}: {problem}", file=sys.stderr)
        return 2
    print(f"archived {championship.slug} from a package signed by a trusted key")
    return 0


def run_add(args: argparse.Namespace) -> int:
    from puzzlecomp.cli.championship import database_setup

    database_setup()
    from puzzlecomp.championships.models import Championship
    from puzzlecomp.championships.services.archive import ArchiveRefused, championship_archive

    championship = Championship.objects.filter(slug=args.slug).first()
    if championship is None:
        raise CommandError(f"no championship {args.slug!r}")
    try:
        championship_archive(championship=championship)
    except ArchiveRefused as refused:
        raise CommandError(str(refused)) from None
    print(f"archived {championship.slug}")
    return 0
