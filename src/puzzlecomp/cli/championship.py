"""`puzzlecomp championship export|import|results`: a whole championship as one JSON file, and
the ranking of one of its rounds.

The file format is documented in docs/interchange.md. Both commands use the database of the
web app (DATABASE_URL, else ./var), like `puzzlecomp serve`.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from puzzlecomp.cli.common import CommandError, add_format_argument
from puzzlecomp.formats.ranking_output import ranking_csv, ranking_json
from puzzlecomp.rules.errors import RulesError

if TYPE_CHECKING:
    from puzzlecomp.formats.interchange import ChampionshipFile


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "championship", help="export or import a whole championship (JSON)",
        description="Export a championship of the web app's database as one JSON file, or "
        "import such a file as a new championship (docs/interchange.md).",
    )
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    export = actions.add_parser(
        "export", help="write a championship as JSON to stdout",
        description="Write the championship as JSON to stdout (it includes birth dates and "
        "emails: keep the file private).")
    export.add_argument("slug", metavar="SLUG")
    export.set_defaults(run=run_export)
    imported = actions.add_parser(
        "import", help="create a championship from a JSON file",
        description="Create a new championship from a file of `championship export`. A file "
        "with any problem imports nothing: one line per problem, exit status 2.")
    imported.add_argument("file", type=Path, metavar="FILE", help="the JSON file, - for stdin")
    imported.add_argument("--slug", help="the new championship's slug (default: the file's)")
    imported.add_argument("--owner", metavar="USERNAME",
                          help="an existing user who becomes the championship's owner")
    imported.set_defaults(run=run_import)
    results = actions.add_parser(
        "results", help="rank a round of a championship file",
        description="Rank one round of a file of `championship export` as the web app ranks "
        "it (each group as its entrants sat in the round), without a database.")
    results.add_argument("file", type=Path, metavar="FILE", help="the JSON file, - for stdin")
    results.add_argument("--event", required=True, help="event code, e.g. individual")
    results.add_argument("--round", required=True, help="round code, e.g. first")
    add_format_argument(results)
    results.set_defaults(run=run_results)


def django_setup() -> None:
    from django.apps import apps

    if not apps.ready:
        from puzzlecomp.cli.serve import setup_django

        setup_django()


def database_setup() -> None:
    """Django, with the database brought up to date as `puzzlecomp serve` does: a fresh
    install has no tables yet. A database that cannot be reached or migrated is one line."""
    try:
        django_setup()
    except OSError as exc:  # the data directory cannot be created
        raise CommandError(
            f"the data directory {exc.filename} cannot be created ({exc.strerror}): set "
            "PUZZLECOMP_DATA_DIR to a folder you may write, then run `puzzlecomp serve "
            "--no-serve`") from None
    from django.conf import settings
    from django.core.management import call_command
    from django.db import DatabaseError

    try:
        call_command("migrate", interactive=False, verbosity=0)
    except DatabaseError as exc:
        where = settings.DATABASES["default"]["NAME"]
        first_line = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise CommandError(
            f"the database {where} could not be brought up to date ({first_line}): check "
            "DATABASE_URL and PUZZLECOMP_DATA_DIR, then run `puzzlecomp serve --no-serve`"
        ) from None


def run_export(args: argparse.Namespace) -> int:
    database_setup()
    from puzzlecomp.championships.models import Championship
    from puzzlecomp.championships.services.interchange import championship_export

    championship = Championship.objects.filter(slug=args.slug).first()
    if championship is None:
        raise CommandError(f"no championship {args.slug!r}")
    json.dump(championship_export(championship), sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")
    return 0


def _document(path: Path) -> Any:
    try:
        return sys.stdin.buffer.read() if str(path) == "-" else path.read_bytes()
    except OSError as exc:
        raise CommandError(f"{path}: {exc.strerror}") from None


def run_results(args: argparse.Namespace) -> int:
    django_setup()
    from puzzlecomp.championships.engine import round_ranking_in_file
    from puzzlecomp.formats.interchange import (
        ChampionshipFileRead,
        InterchangeError,
        load_json,
        read_championship_file,
        settings_problems,
    )

    try:
        read = read_championship_file(load_json(_document(args.file)))
    except InterchangeError as error:
        read = ChampionshipFileRead(None, error.problems, {})
    # The file's problems, its settings' and the round's, in one run (the engine ranks the
    # rows kept); the settings are checked as the import checks them.
    lines = [str(problem) for problem in read.problems]
    document = read.document
    ranking = None
    if document is not None:
        lines += [str(problem) for problem in settings_problems(document)]
        try:
            ranking = round_ranking_in_file(document, args.event, args.round)
        except RulesError as error:
            if not all(v.entry for v in error.violations):
                # An unknown event or round, or what the round's rules lack: named by its
                # option, after the file's own problems.
                for line in lines:
                    print(f"error: {args.file}: {line}", file=sys.stderr)
                raise
            lines += [read.file_path(line)
                      for line in _located(document, args.event, args.round, error)]
    if lines or ranking is None:
        for line in lines:
            print(f"error: {args.file}: {line}", file=sys.stderr)
        return 2
    sys.stdout.write(ranking_json(ranking.lines, ranking.rules) if args.format == "json"
                     else ranking_csv(ranking.lines))
    return 0


def _located(document: ChampionshipFile, event: str, round_code: str,
             error: RulesError) -> list[str]:
    """One line per violation: its JSON path, entry and field, then the engine's message (the
    import's line for the same violation)."""
    from puzzlecomp.formats.interchange import result_violation

    index = {str(r.entry): i for i, r in enumerate(document.results)
             if (r.event, r.round) == (event, round_code)}
    return [str(result_violation(index.get(v.entry), v)) for v in error.violations]


def run_import(args: argparse.Namespace) -> int:
    database_setup()
    from django.contrib.auth import get_user_model

    from puzzlecomp.championships.services.interchange import championship_import
    from puzzlecomp.formats.interchange import InterchangeError, load_json

    owner = None
    if args.owner:
        owner = get_user_model().objects.filter(username=args.owner).first()
        if owner is None:
            raise CommandError(f"--owner: no user {args.owner!r}")
    try:
        championship = championship_import(load_json(_document(args.file)), slug=args.slug,
                                           user=owner, operator=True)
    except InterchangeError as error:
        # The same lines as `championship results`: the file, then the JSON path, entry, field.
        for problem in error.problems:
            print(f"error: {args.file}: {problem}", file=sys.stderr)
        return 2
    print(f"imported {championship.name!r} as {championship.slug}: /control/{championship.slug}/")
    return 0
