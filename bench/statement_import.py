"""A bank statement of 5,000 lines imported against the WJPC demo's 1,700 entries (issue 28).

    .venv/bin/python bench/statement_import.py                # --lines 5000
    .venv/bin/python bench/statement_import.py --lines 500

Loads the demo (1,200 individuals, 400 pairs, 100 teams) in a temporary SQLite database, writes
a camt.053 statement of `--lines` lines (payments by reference, by name and amount only, part
payments, unknown payers, money going out), reads and imports it, then imports the same file
again. Prints JSON: seconds to read, seconds to import (matching included), the statuses, and
whether the second import changed anything (it must not). The target is under 2 s to import.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import time
from collections import Counter
from decimal import Decimal

from django_setup import django_on_a_temporary_database


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lines", type=int, default=5000)
    args = parser.parse_args()
    django_on_a_temporary_database()
    from puzzlecomp.championships.demo import DEMO_SLUG, demo_load
    from puzzlecomp.championships.models import BankTransaction, Championship, Entry
    from puzzlecomp.championships.selectors.payments import championship_entries, entry_reference
    from puzzlecomp.championships.services.payments import statement_import
    from puzzlecomp.formats.bank.camt053 import write_camt053
    from puzzlecomp.formats.bank.reading import read_statement
    from puzzlecomp.formats.bank.statements import StatementLine

    demo_load()
    championship = Championship.objects.get(slug=DEMO_SLUG)
    entries = list(championship_entries(championship))
    rng = random.Random(28)
    day = dt.date(2026, 5, 4)
    lines = []
    for n in range(1, args.lines + 1):
        entry = rng.choice(entries)
        fee = entry.fee_amount or Decimal(60)
        kind = rng.random()
        amount = (fee if kind < 0.8 else fee / 2 if kind < 0.9 else Decimal("-12.00") if
                  kind < 0.95 else Decimal("33.00"))
        lines.append(StatementLine(
            line=n, transaction=f"B-{n:06d}", booked_on=day, amount=amount, currency="EUR",
            reference=entry_reference(entry) if kind < 0.7 else "",
            payer=entry.name if kind < 0.95 else "Somebody Else"))
    content = write_camt053(lines, iban="ES9121000418450200051332", statement_id="BENCH")
    start = time.perf_counter()
    read = read_statement(content, source="bench.xml")
    read_seconds = time.perf_counter() - start
    start = time.perf_counter()
    first = statement_import(championship=championship, lines=read, source="bench.xml", by=None)
    import_seconds = time.perf_counter() - start
    paid = sorted(Entry.objects.filter(event__championship=championship)
                  .values_list("pk", "paid_amount"))
    stored = BankTransaction.objects.count()
    start = time.perf_counter()
    second = statement_import(championship=championship, lines=read, source="bench.xml", by=None)
    again_seconds = time.perf_counter() - start
    unchanged = (BankTransaction.objects.count() == stored and paid == sorted(
        Entry.objects.filter(event__championship=championship).values_list("pk", "paid_amount"))
        and all(p.match.status == "already_imported" for p in second))
    print(json.dumps({
        "entries": len(entries), "lines": len(read), "read_seconds": round(read_seconds, 2),
        "import_seconds": round(import_seconds, 2), "again_seconds": round(again_seconds, 2),
        "statuses": dict(Counter(p.match.status for p in first)),
        "second_import_changed_nothing": unchanged,
    }, indent=1))


if __name__ == "__main__":
    main()
