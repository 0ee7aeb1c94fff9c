"""`puzzlecomp payments references|import`: each entry's payment reference, and a bank
statement imported and matched, for treasurers and scripts.

Both use the database of the web app (DATABASE_URL, else ./var), like `puzzlecomp serve`.
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path
from typing import Any

from puzzlecomp.cli.championship import database_setup
from puzzlecomp.cli.common import CommandError

REFERENCE_COLUMNS = ("entry", "event", "name", "reference", "amount_due", "paid", "currency")
IMPORT_COLUMNS = ("line", "transaction", "amount", "currency", "reference", "entry", "status",
                  "reason")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "payments", help="payment references, and bank statements imported and matched",
        description="Payments by bank transfer: every entry's reference, and statements "
        "(camt.053 XML or a bank's CSV export) matched to entries.")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    references = actions.add_parser(
        "references", help="CSV of every entry's reference, amount due and paid",
        description="Print CSV entry,event,name,reference,amount_due,paid,currency, one line "
        "per entry.")
    references.add_argument("slug", metavar="SLUG")
    references.set_defaults(run=run_references)
    imported = actions.add_parser(
        "import", help="import a bank statement and match its lines to entries",
        description="Import a statement and print CSV line,transaction,amount,currency,"
        "reference,entry,status,reason, one line per statement line. A bad file stores "
        "nothing: one line naming file, line and field, exit status 2.")
    imported.add_argument("file", metavar="FILE", type=Path)
    imported.add_argument("--championship", required=True, metavar="SLUG")
    imported.add_argument("--dry-run", action="store_true",
                          help="show what would match; store nothing")
    imported.set_defaults(run=run_import)
    offers = actions.add_parser(
        "offers", help="settle the waiting lists' offers (for an organiser's cron)",
        description="Store what the clock decided about every waiting-list offer: entries that "
        "paid in time confirmed, lapsed offers passed on, new offers mailed with their "
        "deadline. Prints CSV event,entry,offer, one line per change.")
    offers.add_argument("slug", metavar="SLUG")
    offers.set_defaults(run=run_offers)


def _championship(slug: str) -> Any:
    from puzzlecomp.championships.models import Championship

    championship = Championship.objects.filter(slug=slug).first()
    if championship is None:
        raise CommandError(f"no championship {slug!r}")
    return championship


def run_references(args: argparse.Namespace) -> int:
    database_setup()
    from puzzlecomp.championships.selectors.payments import (
        championship_entries,
        entry_due,
        entry_reference,
    )
    from puzzlecomp.championships.selectors.registration import entry_currency

    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow(REFERENCE_COLUMNS)
    for entry in championship_entries(_championship(args.slug)):
        writer.writerow((entry.number, entry.event.code, entry.name, entry_reference(entry),
                         entry_due(entry), entry.paid_amount, entry_currency(entry)))
    return 0


def run_import(args: argparse.Namespace) -> int:
    database_setup()
    from puzzlecomp.championships.selectors.payments import championship_currency
    from puzzlecomp.championships.services.payments import statement_import
    from puzzlecomp.formats.bank.reading import read_statement
    from puzzlecomp.formats.bank.statements import check_currency

    championship = _championship(args.championship)
    try:
        content = args.file.read_bytes()
    except OSError as exc:
        raise CommandError(f"{args.file}: {exc.strerror}") from None
    source = str(args.file)
    lines = read_statement(content, source=source)
    check_currency(lines, championship_currency(championship), source=source)
    previews = statement_import(championship=championship, lines=lines, source=args.file.name,
                                by=None, dry_run=args.dry_run)
    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow(IMPORT_COLUMNS)
    for number, preview in enumerate(previews, start=1):
        line, match = preview.line, preview.match
        writer.writerow((number, line.transaction, line.amount, line.currency,
                         line.reference, preview.entry.number if preview.entry else "",
                         match.status, match.reason))
    return 0


OFFER_COLUMNS = ("event", "entry", "offer")


def run_offers(args: argparse.Namespace) -> int:
    database_setup()
    from puzzlecomp.championships.services.registration import waiting_offers_settle

    changed = waiting_offers_settle(championship=_championship(args.slug))
    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow(OFFER_COLUMNS)
    for change in changed:
        writer.writerow((change["event"], change["number"], change["offer"]))
    return 0
