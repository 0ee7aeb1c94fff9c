"""A bank statement as lines, whatever file it came from, and the reader that picks the format."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from puzzlecomp.formats.results_csv import InputError, InputProblem
from puzzlecomp.rules.payments.matching import BankLine

# A statement larger than this is no treasurer's upload (a year of a busy account is a few MB).
MAX_STATEMENT_BYTES = 20 * 1024 * 1024


@dataclass(frozen=True)
class StatementLine:
    """One transaction of a statement; `line` is where the file has it (a CSV's line number, a
    camt.053 entry's position), for messages."""

    line: int
    transaction: str
    booked_on: dt.date | None
    amount: Decimal
    currency: str
    reference: str = ""
    payer: str = ""
    payer_account: str = ""
    message: str = ""

    def bank_line(self) -> BankLine:
        """The line as the matching rules read it."""
        return BankLine(transaction=self.transaction, amount=self.amount, currency=self.currency,
                        reference=self.reference, payer=self.payer, message=self.message)


def statement_error(source: str, line: int | None, field: str, message: str) -> InputError:
    """A statement that cannot be read, with the one problem that says where."""
    return InputError([InputProblem(source, line, "", field, message)])


def read_statement(content: bytes, *, source: str) -> list[StatementLine]:
    """The lines of a statement file: camt.053 XML or a bank's CSV export.

    Raises InputError naming the file, line and field of the first problem; a file either reads
    whole or not at all.
    """
    from puzzlecomp.formats.bank import camt053, csv_statements

    if len(content) > MAX_STATEMENT_BYTES:
        raise statement_error(source, None, "", f"the file is larger than "
                              f"{MAX_STATEMENT_BYTES // 1024 // 1024} MB")
    if content.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<"):
        return camt053.read_camt053(content, source=source)
    return csv_statements.read_csv_statement(content, source=source)


def check_currency(lines: Sequence[StatementLine], currency: str, *, source: str) -> None:
    """Refuse a statement with amounts in another currency than the championship's."""
    for line in lines:
        if line.currency != currency:
            raise statement_error(source, line.line, "currency", f"an amount in "
                                  f"{line.currency}; this championship is paid in {currency}")
