"""Printed pairing sheets: one A5 page per judge's device with its tables and QR code."""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

import segno
from django.utils.translation import gettext as _

from puzzlecomp.championships.printing.documents import Document


@dataclass(frozen=True)
class PairingSheet:
    championship: str
    label: str
    table_from: int
    table_to: int
    url: str


def pairing_sheets_pdf(sheets: Sequence[PairingSheet]) -> bytes:
    """A5 pages: the device's label and tables, the pairing QR code, its link and what to do."""
    # A5 by its size in mm (fpdf2 2.8 warns about a past fix of "A5").
    pdf = Document(orientation="portrait", format=(148, 210))
    for sheet in sheets:
        pdf.add_page()
        pdf.bookmark(sheet.label)
        pdf.write_line(sheet.championship, 10)
        pdf.ln(4)
        pdf.write_line(sheet.label, 22, bold=True, height=11)
        pdf.write_line(_("Tables %(first)s to %(last)s")
                       % {"first": sheet.table_from, "last": sheet.table_to}, 16, height=9)
        qr = io.BytesIO()
        segno.make(sheet.url, error="m", micro=False, mask=2).save(qr, kind="png", scale=8,
                                                                    border=2)
        pdf.image(qr, x=34, y=pdf.get_y() + 4, w=80, h=80, link=sheet.url)
        pdf.set_y(pdf.get_y() + 88)
        pdf.use(7)
        pdf.multi_cell(0, 3, sheet.url, align="C", new_x="LMARGIN", new_y="NEXT")
        pdf.ln(4)
        pdf.use(11)
        pdf.multi_cell(0, 5.5, pdf.text_of(_(
            "Scan this code with the judge's phone and tap \"Pair this phone\". The code works "
            "once; the phone then records results for these tables until the championship "
            "ends.")), new_x="LMARGIN", new_y="NEXT")
    return pdf.to_bytes()
