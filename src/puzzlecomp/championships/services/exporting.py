"""Downloads: one `Table` (selectors.lists) written as CSV or XLSX with the same columns."""

from __future__ import annotations

import csv
import datetime as dt
import io
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from openpyxl import Workbook

from puzzlecomp.championships.actions import PRIVATE_DOWNLOADED
from puzzlecomp.championships.models import Championship
from puzzlecomp.championships.selectors.lists import Table
from puzzlecomp.championships.services.work import action_audit

FORMATS = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}


@dataclass(frozen=True)
class ExportFile:
    filename: str
    content_type: str
    content: bytes


# A spreadsheet runs a text cell starting with one of these as a formula ("CSV injection"):
# a name such as =HYPERLINK(...) must stay text, so it gets a leading apostrophe.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def guard_formula(text: str) -> str:
    """The text with a leading apostrophe when a spreadsheet would read it as a formula."""
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def _cell_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, str):
        return guard_formula(value)
    return str(value)


def table_csv(table: Table) -> bytes:
    """The table as UTF-8 CSV with a byte-order mark, so spreadsheets read accents right."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(table.columns)
    writer.writerows([_cell_text(v) for v in row] for row in table.rows)
    return out.getvalue().encode("utf-8-sig")


def _cell_value(value: Any) -> Any:
    # Spreadsheets hold floats; money keeps its two decimals as a number.
    if isinstance(value, Decimal):
        return float(value)
    return guard_formula(value) if isinstance(value, str) else value


def table_xlsx(table: Table) -> bytes:
    """The table as a one-sheet XLSX workbook, the header in the first row."""
    workbook = Workbook(write_only=True)
    sheet = workbook.create_sheet(title=table.name[-31:])
    sheet.append(list(table.columns))
    for row in table.rows:
        sheet.append([_cell_value(v) for v in row])
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def table_export(*, championship: Championship, table: Table, fmt: str, by: Any) -> ExportFile:
    """The table as a file in `fmt` ("csv" or "xlsx"); downloads of private data are audited."""
    content = table_csv(table) if fmt == "csv" else table_xlsx(table)
    if table.private:
        action_audit(PRIVATE_DOWNLOADED, championship=championship, user=by, table=table.name,
                     rows=len(table.rows))
    return ExportFile(f"{table.name}.{fmt}", FORMATS[fmt], content)
