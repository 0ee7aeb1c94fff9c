"""The PDF builders (fpdf2): plain values in, PDF bytes out, one page per table or group."""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import segno
from django.utils.translation import gettext as _
from fpdf import FPDF

from puzzlecomp.championships.printing.fonts import PdfFont, pdf_font, printable
from puzzlecomp.championships.printing.sheet_rules import SheetRules
from puzzlecomp.championships.selectors.planning import TableLine


@dataclass(frozen=True)
class Heading:
    """What every page says at its top."""

    championship: str
    event: str
    round: str
    group: str

    def line(self) -> str:
        parts = [self.championship, self.event, self.round]
        if self.group:
            parts.append(_("Group %(group)s") % {"group": self.group})
        return " · ".join(parts)


@dataclass(frozen=True)
class ListLine:
    number: int
    name: str
    country: str
    table: int | None


class Document(FPDF):
    """An FPDF with the championship's font and text passed through `printable`."""

    def __init__(self, orientation: str = "portrait",
                 format: str | tuple[float, float] = "A4") -> None:
        super().__init__(orientation=orientation, format=format)
        self.font_choice: PdfFont = pdf_font()
        if self.font_choice.unicode:
            self.add_font("body", "", self.font_choice.regular)
            self.add_font("body", "B", self.font_choice.bold)
            self.body_family = "body"
        else:
            self.body_family = "helvetica"
        self.set_auto_page_break(auto=True, margin=12)
        self.set_creator("puzzlecomp")

    def text_of(self, text: str) -> str:
        return printable(text, self.font_choice)

    def use(self, size: float, bold: bool = False) -> None:
        self.set_font(self.body_family, "B" if bold else "", size)

    def write_line(self, text: str, size: float, *, bold: bool = False, height: float = 0,
                   align: str = "L") -> None:
        self.use(size, bold)
        self.cell(0, height or size * 0.5, self.text_of(text), new_x="LMARGIN", new_y="NEXT",
                  align=align)

    def bookmark(self, title: str) -> None:
        # One outline entry per page: "Table 12" lets a viewer (and a test) find each table.
        self.start_section(self.text_of(title), strict=False)

    def box(self, x: float, y: float, w: float, h: float, label: str) -> None:
        self.rect(x, y, w, h)
        self.use(7)
        self.set_xy(x, y + h + 0.5)
        self.cell(w, 3, self.text_of(label), align="C")

    def to_bytes(self) -> bytes:
        return bytes(self.output())


def entry_text(line: TableLine) -> str:
    return f"{line.number} · {line.name}" + (f" ({line.country})" if line.country else "")


def table_cards_pdf(*, heading: Heading, tables: Mapping[int, Sequence[TableLine]],
                    judge_url: Callable[[int], str]) -> bytes:
    """One A5 card per table: its number large, who sits there, and a QR code for the judge."""
    # A5 by its size in mm: naming "A5" makes fpdf2 2.8 warn about a past fix of its size.
    pdf = Document(orientation="landscape", format=(148, 210))
    for table, lines in sorted(tables.items()):
        pdf.add_page()
        pdf.bookmark(_("Table %(table)s") % {"table": table})
        pdf.write_line(heading.line(), 10)
        pdf.use(110, bold=True)
        pdf.set_xy(pdf.l_margin, 22)
        pdf.cell(125, 50, str(table), align="L")
        url = judge_url(table)
        qr = io.BytesIO()
        # A fixed mask: searching the best of 8 takes 3 of the 4 seconds of 100 cards, and
        # any mask scans.
        segno.make(url, error="m", micro=False, mask=2).save(qr, kind="png", scale=8, border=2)
        pdf.image(qr, x=148, y=18, w=50, h=50, link=url)
        pdf.set_xy(143, 69)
        pdf.use(6)
        pdf.multi_cell(57, 2.5, url, align="C")
        pdf.set_xy(pdf.l_margin, 82)
        for line in lines:
            if not line.no_show:
                pdf.use(18, bold=True)
                pdf.multi_cell(0, 9, pdf.text_of(entry_text(line)), new_x="LMARGIN",
                               new_y="NEXT")
    return pdf.to_bytes()


def result_sheets_pdf(*, heading: Heading, rules: SheetRules,
                      tables: Mapping[int, Sequence[TableLine]]) -> bytes:
    """One A4 sheet per table for its judge: time, missing pieces, count and DSQ boxes per
    entry, asking only what the round's ruleset records."""
    pdf = Document()
    pdf.set_auto_page_break(auto=False)
    for table, lines in sorted(tables.items()):
        pdf.add_page()
        pdf.bookmark(_("Table %(table)s") % {"table": table})
        pdf.write_line(heading.line(), 9)
        pdf.write_line(_("Result sheet · Table %(table)s") % {"table": table}, 22, bold=True,
                       height=14)
        pdf.write_line(rules.line(), 10)
        for index, line in enumerate(ln for ln in lines if not ln.no_show):
            _result_block(pdf, line, rules, top=44 + index * 124)
    return pdf.to_bytes()


_BREAKDOWN_LABELS = {"contiguous": lambda: _("in adjacent clusters"),
                     "found": lambda: _("found (bag, floor)")}


def _result_block(pdf: Document, line: TableLine, rules: SheetRules, *, top: float) -> None:
    left = pdf.l_margin
    pdf.set_xy(left, top)
    pdf.write_line(_("Entry %(text)s") % {"text": entry_text(line)}, 14, bold=True, height=9)
    y = top + 16
    pdf.set_xy(left, y - 5)
    pdf.write_line(_("Finish time (h : min : s)"), 10)
    for i in range(3):
        pdf.box(left + i * 22, y + 2, 18, 12, ("h", "min", "s")[i])
    pdf.set_xy(left + 80, y - 5)
    pdf.use(10)
    pdf.cell(0, 5, pdf.text_of(_("Missing pieces")))
    labels = [_("missing")] + [_BREAKDOWN_LABELS[part]() for part in rules.missing_breakdown]
    for i, label in enumerate(labels):
        pdf.box(left + 80 + i * 32, y + 2, 26, 12, label)
    y += 28
    pdf.set_xy(left, y)
    if rules.count_remaining:
        pdf.write_line(_("Not finished: pieces left over"), 10)
        pdf.box(left, y + 7, 30, 12, _("piles of 10"))
        pdf.box(left + 36, y + 7, 30, 12, _("loose pieces"))
    else:
        pdf.write_line(_("Not finished: pieces placed (groups of %(size)s or more joined)")
                       % {"size": rules.min_cluster}, 10)
        pdf.box(left, y + 7, 40, 12, _("pieces"))
    pdf.set_xy(left + 110, y)
    pdf.write_line(_("Disqualified"), 10)
    pdf.box(left + 110, y + 7, 8, 8, "")
    pdf.line(left + 122, y + 15, left + 185, y + 15)
    pdf.set_xy(left + 122, y + 15.5)
    pdf.use(7)
    pdf.cell(63, 3, pdf.text_of(_("reason")), align="C")
    y += 34
    for i, label in enumerate((_("Judge's signature"), _("Competitor's signature"))):
        x = left + i * 95
        pdf.line(x, y + 14, x + 85, y + 14)
        pdf.set_xy(x, y + 15)
        pdf.use(8)
        pdf.cell(85, 4, pdf.text_of(label))


def participant_list_pdf(*, heading: Heading,
                         sections: Sequence[tuple[str, Sequence[ListLine]]]) -> bytes:
    """The entries of each group (number, name, country, table), a new page per group."""
    pdf = Document()
    for group, lines in sections:
        pdf.add_page()
        title = _("Group %(group)s") % {"group": group} if group else _("Participants")
        pdf.bookmark(title)
        pdf.write_line(" · ".join((heading.championship, heading.event, heading.round)), 9)
        pdf.write_line(title, 18, bold=True, height=12)
        pdf.use(9)
        with pdf.table(col_widths=(14, 90, 50, 18), text_align=("RIGHT", "LEFT", "LEFT", "RIGHT"),
                       line_height=5.5, first_row_as_headings=True) as grid:
            grid.row([pdf.text_of(t) for t in (_("No."), _("Name"), _("Country"), _("Table"))])
            for line in lines:
                grid.row([str(line.number), pdf.text_of(line.name), line.country,
                          str(line.table) if line.table else ""])
    return pdf.to_bytes()


@dataclass(frozen=True)
class DeskLine:
    """One line of the check-in desk's list."""

    name: str
    number: int
    country: str
    group: str
    table: int | None


def check_in_list_pdf(*, heading: Heading, lines: Sequence[DeskLine]) -> bytes:
    """The check-in desk's list in the order given (by name), with a cell to tick per entrant."""
    pdf = Document()
    pdf.add_page()
    title = _("Check-in list")
    pdf.bookmark(title)
    pdf.write_line(" · ".join((heading.championship, heading.event, heading.round)), 9)
    pdf.write_line(title, 18, bold=True, height=12)
    pdf.use(9)
    with pdf.table(col_widths=(80, 14, 30, 18, 16, 18),
                   text_align=("LEFT", "RIGHT", "LEFT", "LEFT", "RIGHT", "CENTER"),
                   line_height=6, first_row_as_headings=True) as grid:
        grid.row([pdf.text_of(t) for t in (_("Name"), _("No."), _("Country"), _("Group"),
                                           _("Table"), _("Present"))])
        for line in lines:
            grid.row([pdf.text_of(line.name), str(line.number), line.country, line.group,
                      str(line.table) if line.table else "", ""])
    return pdf.to_bytes()
