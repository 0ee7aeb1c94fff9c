"""A bank statement as lines, whatever file it came from, and the reader that picks the format."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from puzzlecomp.formats.results_csv import InputError, InputProblem
from puzzlecomp.rules.payments.matching import BankLine


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


def check_currency(lines: Sequence[StatementLine], currency: str, *, source: str) -> None:
    """Refuse a statement with amounts in another currency than the championship's."""
    for line in lines:
        if line.currency != currency:
            raise statement_error(source, line.line, "currency", f"an amount in "
                                  f"{line.currency}; this championship is paid in {currency}")
