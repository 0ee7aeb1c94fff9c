"""Bank statements read back from the files the project writes (camt.053, a Czech bank's
cp1250 CSV, an English CSV), bad files refused naming file, line and field, and the payment QR
codes decoded back (issue 28)."""

from __future__ import annotations

import datetime as dt
import io
from decimal import Decimal

import pytest
import zxingcpp
from PIL import Image

from puzzlecomp.formats.bank.camt053 import write_camt053
from puzzlecomp.formats.bank.csv_statements import write_czech_csv, write_english_csv
from puzzlecomp.formats.bank.qr import PaymentOrder, payment_qr, spayd
from puzzlecomp.formats.bank.reading import read_statement
from puzzlecomp.formats.bank.statements import StatementLine, check_currency
from puzzlecomp.formats.results_csv import InputError

LINES = [
    StatementLine(1, "T-1", dt.date(2026, 5, 4), Decimal("400.00"), "CZK", "01001254",
                  "Jiří Černý", "CZ6508000000192000145399", "startovné"),
    StatementLine(2, "T-2", dt.date(2026, 5, 5), Decimal("-1234.50"), "CZK", "", "Pronájem",
                  "", "sál"),
    StatementLine(3, "T-3", dt.date(2026, 5, 6), Decimal("3200.00"), "CZK", "", "Žluťoučký kůň",
                  "", "tým VS 2001258"),
]


def _essence(lines):
    return [(line.transaction, line.booked_on, line.amount, line.currency, line.reference,
             line.payer, line.message) for line in lines]


def test_a_camt053_statement_reads_back_line_for_line():
    content = write_camt053(LINES, iban="CZ6508000000192000145399", statement_id="S1")
    read = read_statement(content, source="may.xml")
    assert _essence(read) == _essence(LINES)
    assert [line.line for line in read] == [1, 2, 3]


def test_a_czech_bank_csv_in_windows_1250_with_semicolons_and_decimal_commas_reads_back():
    content = write_czech_csv(LINES)
    with pytest.raises(UnicodeDecodeError):
        content.decode("utf-8")
    assert b"1234,50" in content
    read = read_statement(content, source="fio.csv")
    assert _essence(read) == _essence(LINES)
    assert read[0].line == 4  # the account line and a blank line come above the header


def test_an_english_csv_without_ids_reads_back_with_ids_stable_across_imports():
    content = write_english_csv(LINES + LINES[:1])
    read = read_statement(content, source="bank.csv")
    assert [(line.amount, line.payer) for line in read] == [
        (line.amount, line.payer) for line in LINES + LINES[:1]]
    ids = [line.transaction for line in read]
    assert len(set(ids)) == 4  # the same line twice is two transactions
    assert ids == [line.transaction for line in read_statement(content, source="bank.csv")]


@pytest.mark.parametrize(("content", "expected"), [
    (b"<Document><broken", "may.xml: not readable XML"),
    (b'<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.09"/>',
     "may.xml, field Document: not a camt.053 statement"),
    (write_camt053(LINES, iban="X", statement_id="S").replace(b">400.00<", b">4OO<"),
     "may.xml, row 1, field Amt: '4OO' is not an amount"),
    (b"Name;Town\nJana;Brno\n", "may.xml, row 1: no line of column names"),
    ("Datum;Objem;Měna\n01.05.2026;12x;CZK\n".encode("cp1250"),
     "may.xml, row 2, field amount: '12x' is not an amount"),
    (b"Date,Amount,Currency\n2026-13-01,10.00,EUR\n",
     "may.xml, row 2, field booked_on: '2026-13-01' is not a date"),
])
def test_a_bad_statement_is_refused_naming_file_line_and_field(content, expected):
    with pytest.raises(InputError) as error:
        read_statement(content, source="may.xml")
    assert str(error.value).startswith(expected)


def test_amounts_in_another_currency_are_refused_naming_the_line():
    lines = read_statement(write_english_csv(LINES), source="bank.csv")
    with pytest.raises(InputError, match=r"bank.csv, row 2, field currency: an amount in CZK"):
        check_currency(lines, "EUR", source="bank.csv")


def _decoded(code) -> str:
    png = io.BytesIO()
    code.save(png, kind="png", scale=4)
    png.seek(0)
    [found] = zxingcpp.read_barcodes(Image.open(png))
    return found.text


def test_the_czech_qr_platba_decodes_back_to_account_amount_currency_and_variable_symbol():
    order = PaymentOrder(iban="CZ6508000000192000145399", bic="GIBACZPX",
                         holder="Česká asociace skládání puzzle", amount=Decimal("400"),
                         currency="CZK", reference="01001254", message="Jiří Černý")
    text = _decoded(payment_qr(order))
    assert text == spayd(order)
    fields = dict(part.split(":", 1) for part in text.split("*")[2:])
    assert text.startswith("SPD*1.0*")
    assert fields == {"ACC": "CZ6508000000192000145399+GIBACZPX", "AM": "400.00", "CC": "CZK",
                      "X-VS": "01001254", "RN": "Ceska asociace skladani puzzle",
                      "MSG": "Jiri Cerny"}


def test_the_epc_qr_decodes_back_to_account_amount_currency_and_creditor_reference():
    order = PaymentOrder(iban="DE89370400440532013000", bic="COBADEFFXXX", holder="WJPC",
                         amount=Decimal("125.00"), currency="EUR", reference="RF4601001254",
                         message="")
    lines = _decoded(payment_qr(order)).split("\n")
    assert lines[0] == "BCD"
    assert lines[3] == "SCT"
    assert (lines[4], lines[5], lines[6]) == ("COBADEFFXXX", "WJPC", "DE89370400440532013000")
    assert Decimal(lines[7].removeprefix("EUR")) == Decimal("125")
    assert lines[7][:3] == "EUR"
    assert lines[9] == "RF4601001254"


def test_other_currencies_have_no_payment_qr_code():
    order = PaymentOrder(iban="NO9386011117947", bic="", holder="NPF", amount=Decimal("300"),
                         currency="NOK", reference="01001254", message="")
    assert payment_qr(order) is None


def test_refunds_and_prizes_in_eur_make_a_schema_valid_pain001_and_all_of_them_a_csv():
    from defusedxml.ElementTree import fromstring

    from puzzlecomp.formats.bank.payouts import Payout, payouts_csv, payouts_pain001

    prize = Payout("prize", "individual", 7, "Ana Ruiz", "Ana Ruiz", "DE89370400440532013000",
                   "COBADEFFXXX", "", Decimal("2000"), "EUR", "Prize WJPC Open 1")
    refund = Payout("refund", "pairs", 3, "Jan Novak", "Jan Novak", "", "", "123-456/0800",
                    Decimal("800"), "CZK", "Refund")
    content = payouts_pain001([prize, refund], holder="WJPC", iban="ES9121000418450200051332",
                              bic="CAIXESBBXXX", execution_date=dt.date(2026, 9, 30))
    root = fromstring(content)
    ns = {"p": "urn:iso:std:iso:20022:tech:xsd:pain.001.001.03"}
    [transfer] = root.findall(".//p:CdtTrfTxInf", ns)  # the CZK refund has no IBAN: CSV only
    assert transfer.find("p:Amt/p:InstdAmt", ns).text == "2000.00"
    assert transfer.find("p:CdtrAcct/p:Id/p:IBAN", ns).text == "DE89370400440532013000"
    assert transfer.find("p:PmtId/p:EndToEndId", ns).text == "PRIZE-individual-7"
    rows = payouts_csv([prize, refund]).splitlines()
    assert rows[0] == "kind,event,entry,name,holder,iban,bic,account,amount,currency,reason"
    assert rows[2] == "refund,pairs,3,Jan Novak,Jan Novak,,,123-456/0800,800.00,CZK,Refund"
