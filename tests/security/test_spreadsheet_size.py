"""Issue 14, finding 6: a small XLSX file claiming 16,384 columns is refused by its size before
it is read (it took 10 s and 390 MB to import)."""

from __future__ import annotations

import io
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from openpyxl import Workbook

from puzzlecomp.championships.models import Entry, Role
from puzzlecomp.championships.services.importing import ImportRejected, import_file_read


def wide_sheet(rows: int = 200) -> bytes:
    workbook = Workbook()
    sheet = workbook.active
    sheet.append(["First name", "Last name", "Nationality"])
    for row in range(2, rows + 2):
        sheet.append(["Ana", "García", "ESP"])
        sheet.cell(row=row, column=16_384, value="x")
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def test_a_sheet_claiming_16384_columns_is_refused_before_reading(championship, client_as):
    content = wide_sheet()
    assert len(content) < 30_000
    client = client_as(championship, Role.ORGANISER)
    event = championship.events.get(code="individual")
    response = client.post(f"/control/{championship.slug}/data/import/", {
        "event": event.pk, "file": SimpleUploadedFile("wide.xlsx", content)})
    assert "The sheet is too large" in response.content.decode()
    assert not Entry.objects.exists()


def test_a_sheet_that_unpacks_to_too_much_is_refused():
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(wide_sheet(1)), "r") as original, \
            zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as bomb:
        for part in original.infolist():
            bomb.writestr(part, original.read(part))
        bomb.writestr("xl/padding.xml", b" " * (60 * 1024 * 1024))
    with pytest.raises(ImportRejected) as refused:
        import_file_read(filename="bomb.xlsx", content=out.getvalue())
    assert refused.value.problems[0].code == "import.sheet_too_large"
