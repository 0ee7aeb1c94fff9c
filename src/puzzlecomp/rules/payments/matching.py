"""Matching the lines of a bank statement to entries: by reference, else by amount and name.

Each line gets a status and the reason for it (a code the screens translate):

- `ignored`: money going out, or nothing at all (`outgoing`).
- `already_imported`: its transaction id was imported before, or appears earlier in the same
  statement (`seen_before`): a bank transaction is counted once, however often it is imported.
- `matched`, `partial`, `overpaid`: the line pays an entry, found by the reference the bank
  carried (`reference`) or, without a readable reference, by the amount still due together
  with the payer's name (`amount_and_name`); the status compares the amount with what is due.
- `unknown`: no entry found (`no_reference`), or the reference names no open entry
  (`reference_of_no_entry`).
- `ambiguous`: amount and name fit more than one entry (`several_entries`).

Lines are decided in the statement's order; two payments of one entry in one statement see
each other (the second of two full payments is `overpaid`).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

from puzzlecomp.rules.payments.references import EntryKey, entry_key_of

Status = Literal["matched", "partial", "overpaid", "unknown", "ambiguous", "already_imported",
                 "ignored"]
STATUSES: tuple[Status, ...] = ("matched", "partial", "overpaid", "unknown", "ambiguous",
                                "already_imported", "ignored")
# The statuses whose money is recorded as paid by the entry found.
PAYING: frozenset[Status] = frozenset({"matched", "partial", "overpaid"})
# The statuses the treasurer looks at: money to assign, ask for or give back.
QUEUED: frozenset[Status] = frozenset({"partial", "overpaid", "unknown", "ambiguous"})


@dataclass(frozen=True)
class Payable:
    """An entry as the matcher sees it: its key, the names that may appear as the payer, what it
    owes in all and what it has paid so far."""

    key: EntryKey
    names: tuple[str, ...]
    due: Decimal
    paid: Decimal


@dataclass(frozen=True)
class BankLine:
    """One line of a statement: the bank's transaction id, a signed amount (negative: money
    out), the reference field, the payer's name and the free text."""

    transaction: str
    amount: Decimal
    currency: str
    reference: str = ""
    payer: str = ""
    message: str = ""


@dataclass(frozen=True)
class LineMatch:
    """What one statement line is: its status, the entry it pays (if any) and why."""

    status: Status
    key: EntryKey | None
    reason: str

    @property
    def pays(self) -> bool:
        """True when the line's money counts as paid by its entry."""
        return self.status in PAYING and self.key is not None


def match_statement(lines: Sequence[BankLine], payables: Iterable[Payable], *,
                    imported: Iterable[str] = ()) -> list[LineMatch]:
    """Decide every line of a statement, in order, against the open entries.

    `imported` holds the transaction ids stored from earlier statements.
    """
    by_key = {payable.key: payable for payable in payables}
    paid = {key: payable.paid for key, payable in by_key.items()}
    words = {key: _words(payable.names) for key, payable in by_key.items()}
    # Entries by what they still owe, so a line without a reference looks at a few, not all.
    owing: dict[Decimal, set[EntryKey]] = {}
    for key, payable in by_key.items():
        owing.setdefault(payable.due - paid[key], set()).add(key)
    seen = set(imported)
    decided = []
    for line in lines:
        match = _match_line(line, by_key, paid, words, owing, seen)
        seen.add(line.transaction)
        if match.pays and match.key is not None:
            key = match.key
            owing[by_key[key].due - paid[key]].discard(key)
            paid[key] += line.amount
            owing.setdefault(by_key[key].due - paid[key], set()).add(key)
        decided.append(match)
    return decided


def _match_line(line: BankLine, by_key: Mapping[EntryKey, Payable],
                paid: Mapping[EntryKey, Decimal], words: Mapping[EntryKey, frozenset[str]],
                owing: Mapping[Decimal, set[EntryKey]], seen: set[str]) -> LineMatch:
    if line.transaction in seen:
        return LineMatch("already_imported", None, "seen_before")
    if line.amount <= 0:
        return LineMatch("ignored", None, "outgoing")
    key = entry_key_of(line.reference) or entry_key_of(line.message)
    if key is not None:
        if key not in by_key:
            return LineMatch("unknown", None, "reference_of_no_entry")
        return LineMatch(_against_due(line.amount, by_key[key].due - paid[key]), key,
                         "reference")
    payer = _words((line.payer, line.message))
    fitting = sorted((k for k in owing.get(line.amount, ()) if payer & words[k]),
                     key=lambda k: (k.event_position, k.number))
    if len(fitting) == 1:
        return LineMatch("matched", fitting[0], "amount_and_name")
    if fitting:
        return LineMatch("ambiguous", None, "several_entries")
    return LineMatch("unknown", None, "no_reference")


def _against_due(amount: Decimal, outstanding: Decimal) -> Status:
    if amount == outstanding:
        return "matched"
    return "partial" if amount < outstanding else "overpaid"


def _words(texts: Iterable[str]) -> frozenset[str]:
    """The words of names, accents and case ignored, short ones left out ("Nováková" and
    "NOVAKOVA" agree)."""
    found: set[str] = set()
    for text in texts:
        plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
        found.update(w for w in "".join(c if c.isalnum() else " " for c in plain).casefold()
                     .split() if len(w) > 2 and not w.isdigit())
    return frozenset(found)
