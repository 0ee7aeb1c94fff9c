"""Bank statements exported as CSV: columns found by a map of the names banks give them.

Czech banks export Windows-1250 with `;` between fields and decimal commas ("1 234,50");
others UTF-8 with commas and decimal points. The encoding is detected as the entry import does
it, the separator from the header line, the decimal mark from each amount.
"""

from __future__ import annotations

import contextlib
import csv
import datetime as dt
import hashlib
import io
import re
from collections.abc import Mapping, Sequence
from decimal import Decimal, InvalidOperation

from puzzlecomp.formats.bank.statements import StatementLine, statement_error

# Each field of a statement line and the column names banks give it (compared case-insensitively,
# accents kept). Fio, ČSOB, Komerční banka and Česká spořitelna in Czech; common English exports.
COLUMN_MAP: Mapping[str, tuple[str, ...]] = {
    "transaction": ("id pohybu", "id transakce", "identifikace transakce", "transaction id",
                    "transaction reference", "id"),
    "booked_on": ("datum", "datum zaúčtování", "datum splatnosti", "date", "booking date",
                  "value date"),
    "amount": ("objem", "částka", "amount", "credit amount"),
    "currency": ("měna", "currency"),
    "reference": ("vs", "variabilní symbol", "variable symbol", "reference", "payment reference",
                  "kid"),
    "payer": ("název protiúčtu", "protistrana", "název účtu protistrany", "payer", "payer name",
              "counterparty", "name"),
    "payer_account": ("protiúčet", "číslo protiúčtu", "payer account", "counterparty account",
                      "iban"),
    "message": ("zpráva pro příjemce", "poznámka", "popis", "message", "description", "details"),
}
REQUIRED = ("booked_on", "amount", "currency")
_DATE_FORMATS = ("%Y-%m-%d", "%d.%m.%Y", "%d/%m/%Y", "%d. %m. %Y")
_AMOUNT = re.compile(r"[+-]?\d{1,3}(?:[ .' \u00a0]?\d{3})*(?:[.,]\d{1,2})?"
                     r"|[+-]?\d+(?:[.,]\d{1,2})?")


def read_csv_statement(content: bytes, *, source: str) -> list[StatementLine]:
    """The statement lines of a bank's CSV export, in the file's order."""
    header_at = None
    for text in _decodings(content, source):
        lines = text.splitlines()
        header_at = _header_line(lines)
        if header_at is not None:
            break
    if header_at is None:
        raise statement_error(source, 1, "", "no line of column names that this program knows "
                              "(needs a date, an amount and a currency column)")
    delimiter = max(";,\t", key=lines[header_at].count)
    reader = csv.reader(io.StringIO("\n".join(lines[header_at:])), delimiter=delimiter)
    header = [name.strip().casefold() for name in next(reader)]
    columns = {field: next(i for i, name in enumerate(header) if name in names)
               for field, names in COLUMN_MAP.items() if any(name in names for name in header)}
    read: list[StatementLine] = []
    occurrences: dict[str, int] = {}
    for offset, values in enumerate(reader, start=header_at + 2):
        if not any(value.strip() for value in values):
            continue
        if len(values) < len(header):
            raise statement_error(source, offset, header[len(values)] if values else "",
                                  f"the line has {len(values)} fields, the header {len(header)}")

        def value(field: str, values: list[str] = values) -> str:
            return values[columns[field]].strip() if field in columns else ""

        amount = _amount(value("amount"), source, offset)
        booked_on = _date(value("booked_on"), source, offset)
        currency = value("currency").upper()
        if not re.fullmatch(r"[A-Z]{3}", currency):
            raise statement_error(source, offset, "currency", f"{value('currency')!r} is not "
                                  "a currency code")
        transaction = value("transaction")
        if not transaction:
            # No id in the export: the line's own content, numbered among identical lines, so
            # the same export imported again gives the same ids.
            content_key = "|".join(values)
            occurrences[content_key] = occurrences.get(content_key, 0) + 1
            transaction = "csv:" + hashlib.sha256(
                f"{content_key}#{occurrences[content_key]}".encode()).hexdigest()[:24]
        read.append(StatementLine(
            line=offset, transaction=transaction, booked_on=booked_on, amount=amount,
            currency=currency, reference=value("reference"), payer=value("payer"),
            payer_account=value("payer_account"), message=value("message")))
    if not read:
        raise statement_error(source, None, "", "the statement has no lines below its header")
    return read


def _decodings(content: bytes, source: str) -> list[str]:
    """The file's text as UTF-8 when it decodes, else as detected (Czech exports: Windows-1250),
    then as Windows-1250 (a short file fools the detection)."""
    try:
        return [content.decode("utf-8-sig")]
    except UnicodeDecodeError:
        pass
    from charset_normalizer import from_bytes

    best = from_bytes(content).best()
    texts = [str(best)] if best is not None else []
    with contextlib.suppress(UnicodeDecodeError):
        texts.append(content.decode("cp1250"))
    if not texts:
        raise statement_error(source, None, "", "the file is not text in any known encoding")
    return texts


def _header_line(lines: list[str]) -> int | None:
    """The first line (of the first twenty: some banks put the account above) that names the
    required columns."""
    for index, line in enumerate(lines[:20]):
        delimiter = max(";,\t", key=line.count)
        names = {name.strip().strip('"').casefold() for name in line.split(delimiter)}
        if all(names & set(COLUMN_MAP[field]) for field in REQUIRED):
            return index
    return None


def _amount(text: str, source: str, line: int) -> Decimal:
    """An amount as banks write it: "1 234,50", "1.234,50", "1,234.50", "-400"."""
    compact = text.replace("\u00a0", " ").strip()
    if not _AMOUNT.fullmatch(compact):
        raise statement_error(source, line, "amount", f"{text!r} is not an amount")
    compact = re.sub(r"[ ' ]", "", compact)
    last_mark = max(compact.rfind(","), compact.rfind("."))
    if last_mark >= 0 and len(compact) - last_mark - 1 in (1, 2):
        whole, decimals = compact[:last_mark], compact[last_mark + 1:]
        compact = re.sub(r"[.,]", "", whole) + "." + decimals
    else:
        compact = re.sub(r"[.,]", "", compact)
    try:
        return Decimal(compact)
    except InvalidOperation as error:  # the pattern above lets none through; kept for safety
        raise statement_error(source, line, "amount", f"{text!r} is not an amount") from error


def _date(text: str, source: str, line: int) -> dt.date:
    for layout in _DATE_FORMATS:
        try:
            return dt.datetime.strptime(text, layout).date()  # noqa: DTZ007 - a calendar date
        except ValueError:
            continue
    raise statement_error(source, line, "booked_on", f"{text!r} is not a date")


def write_czech_csv(lines: Sequence[StatementLine]) -> bytes:
    """A Czech bank's export of the lines: Windows-1250, `;`, decimal commas, the account above
    the header (as Fio writes it)."""
    out = io.StringIO()
    out.write('"Účet";"Pohyby na účtu"\n\n')
    writer = csv.writer(out, delimiter=";", lineterminator="\n")
    writer.writerow(["ID pohybu", "Datum", "Objem", "Měna", "Protiúčet", "Název protiúčtu",
                     "VS", "Zpráva pro příjemce"])
    for line in lines:
        writer.writerow([line.transaction, line.booked_on.strftime("%d.%m.%Y")
                         if line.booked_on else "", f"{line.amount:.2f}".replace(".", ","),
                         line.currency, line.payer_account, line.payer, line.reference,
                         line.message])
    return out.getvalue().encode("cp1250", errors="replace")


def write_english_csv(lines: Sequence[StatementLine]) -> bytes:
    """A UTF-8 export with commas and decimal points, and no transaction ids (some banks give
    none: the lines' content stands in)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["Date", "Amount", "Currency", "Payer", "Reference", "Description"])
    for line in lines:
        writer.writerow([line.booked_on.isoformat() if line.booked_on else "",
                         f"{line.amount:.2f}", line.currency, line.payer, line.reference,
                         line.message])
    return out.getvalue().encode()
