"""Payment references and statement matching (issue 28): pure rules, no database.

The rulebooks charge fees (WJPC rulebook, fees; Czech rulebook, startovné) that small
federations collect by bank transfer; these rules find which entry a bank line pays.
"""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st
from stdnum import iso11649, luhn

from puzzlecomp.rules.payments.matching import BankLine, Payable, match_statement
from puzzlecomp.rules.payments.references import EntryKey, entry_key_of, payment_reference

KEY = EntryKey(event_position=1, number=125)


def test_a_czech_variable_symbol_is_at_most_ten_digits_with_a_luhn_check_digit():
    reference = payment_reference(KEY, "CZK")
    assert reference.isdigit()
    assert len(reference) <= 10
    assert luhn.is_valid(reference)


def test_a_euro_reference_is_an_iso_11649_creditor_reference():
    reference = payment_reference(KEY, "EUR")
    assert reference.startswith("RF")
    assert iso11649.is_valid(reference)


def test_a_norwegian_kid_ends_in_its_mod10_check_digit():
    reference = payment_reference(KEY, "NOK")
    assert reference.isdigit()
    assert 2 <= len(reference) <= 25
    assert luhn.is_valid(reference)


def test_every_reference_reads_back_to_its_entry_even_without_leading_zeros_or_in_groups():
    for currency in ("CZK", "EUR", "NOK", "AUD"):
        reference = payment_reference(KEY, currency)
        assert entry_key_of(reference) == KEY
        assert entry_key_of(f"startovne VS {reference.lstrip('0')} Novak") == KEY
    assert entry_key_of(iso11649.format(payment_reference(KEY, "EUR"))) == KEY


def test_a_mistyped_reference_names_no_entry():
    reference = payment_reference(KEY, "CZK")
    wrong = reference[:-2] + str((int(reference[-2]) + 1) % 10) + reference[-1]
    assert entry_key_of(wrong) is None
    assert entry_key_of(payment_reference(KEY, "EUR")[:4] + wrong) is None


def _payable(number: int, name: str, due: str = "400", paid: str = "0") -> Payable:
    return Payable(EntryKey(1, number), (name,), Decimal(due), Decimal(paid))


def _line(transaction: str, amount: str, reference: str = "", payer: str = "",
          message: str = "") -> BankLine:
    return BankLine(transaction, Decimal(amount), "CZK", reference, payer, message)


def test_a_line_is_matched_by_reference_and_compared_with_what_is_due():
    entries = [_payable(1, "Jana Nováková"), _payable(2, "Petr Svoboda")]
    ref = payment_reference(EntryKey(1, 2), "CZK")
    statuses = [(m.status, m.key, m.reason) for m in match_statement(
        [_line("a", "400", ref), _line("b", "100", payment_reference(EntryKey(1, 1), "CZK")),
         _line("c", "50", ref)], entries)]
    assert statuses == [("matched", EntryKey(1, 2), "reference"),
                        ("partial", EntryKey(1, 1), "reference"),
                        ("overpaid", EntryKey(1, 2), "reference")]


def test_without_a_reference_amount_and_payer_name_find_the_entry_accents_ignored():
    entries = [_payable(1, "Jana Nováková"), _payable(2, "Petr Svoboda")]
    [match] = match_statement([_line("a", "400", payer="NOVAKOVA JANA")], entries)
    assert (match.status, match.key, match.reason) == ("matched", EntryKey(1, 1),
                                                       "amount_and_name")


def test_two_entries_that_fit_amount_and_name_make_the_line_ambiguous():
    entries = [_payable(1, "Jana Nováková"), _payable(2, "Eva Nováková")]
    [match] = match_statement([_line("a", "400", payer="Novakova")], entries)
    assert (match.status, match.key) == ("ambiguous", None)


def test_a_line_nobody_fits_is_unknown_and_money_going_out_is_ignored():
    entries = [_payable(1, "Jana Nováková")]
    matches = match_statement([_line("a", "400", payer="Someone Else"), _line("b", "-400")],
                              entries)
    assert [(m.status, m.reason) for m in matches] == [("unknown", "no_reference"),
                                                       ("ignored", "outgoing")]


def test_a_transaction_imported_before_or_twice_in_one_statement_counts_once():
    entries = [_payable(1, "Jana Nováková")]
    ref = payment_reference(EntryKey(1, 1), "CZK")
    matches = match_statement([_line("a", "400", ref), _line("a", "400", ref),
                               _line("b", "400", ref)], entries, imported={"b"})
    assert [m.status for m in matches] == ["matched", "already_imported", "already_imported"]


lines_strategy = st.lists(st.tuples(
    st.sampled_from("abcdefgh"), st.integers(-500, 900), st.integers(0, 4),
    st.sampled_from(["", "Jana Nováková", "Petr Svoboda", "Nobody"])), max_size=30)


@given(lines_strategy, lines_strategy)
def test_no_bank_transaction_is_ever_counted_twice_over_repeated_imports(first, second):
    entries = [_payable(1, "Jana Nováková"), _payable(2, "Petr Svoboda", due="800"),
               _payable(3, "Eva Dvořáková", due="0")]

    def lines(rows):
        return [_line(t, str(amount), payment_reference(EntryKey(1, n), "CZK") if n else "",
                      payer) for t, amount, n, payer in rows]

    counted: list[str] = []
    imported: set[str] = set()
    for statement in (lines(first), lines(second), lines(first)):
        for line, match in zip(statement, match_statement(statement, entries,
                                                          imported=imported), strict=True):
            if match.status != "already_imported":
                counted.append(line.transaction)
                imported.add(line.transaction)
    assert len(counted) == len(set(counted))
