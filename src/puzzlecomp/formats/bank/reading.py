"""A statement file read as lines, whichever format it is in."""

from __future__ import annotations

from puzzlecomp.formats.bank import camt053, csv_statements
from puzzlecomp.formats.bank.statements import StatementLine, statement_error

# A statement larger than this is no treasurer's upload (a year of a busy account is a few MB).
MAX_STATEMENT_BYTES = 20 * 1024 * 1024


def read_statement(content: bytes, *, source: str) -> list[StatementLine]:
    """The lines of a statement file: camt.053 XML or a bank's CSV export.

    Raises InputError naming the file, line and field of the first problem; a file either reads
    whole or not at all.
    """
    if len(content) > MAX_STATEMENT_BYTES:
        raise statement_error(source, None, "", f"the file is larger than "
                              f"{MAX_STATEMENT_BYTES // 1024 // 1024} MB")
    if content.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<"):
        return camt053.read_camt053(content, source=source)
    return csv_statements.read_csv_statement(content, source=source)
