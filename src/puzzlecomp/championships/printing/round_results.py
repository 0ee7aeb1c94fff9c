"""A round's results as downloads: one set of lines behind the CSV, the XLSX and the PDF.

The ranking is always the engine's (group by group, as the entries sat in the round); the
qualification columns show the confirmed qualifiers once confirmed, else the engine's forecast.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from fpdf.fonts import FontFace

from puzzlecomp.championships.engine import round_ranking
from puzzlecomp.championships.models import Round, Seat
from puzzlecomp.championships.printing.documents import Document, Heading
from puzzlecomp.championships.selectors.lists import Table
from puzzlecomp.championships.selectors.planning import group_labels
from puzzlecomp.championships.services.qualifiers import (
    QualifierLine,
    round_qualification_marks,
)
from puzzlecomp.formats.ranking_output import ranking_rows
from puzzlecomp.rules.times import format_time

COLUMNS = ("rank", "official_rank", "entry", "name", "country", "group", "table", "status",
           "time", "penalty_seconds", "final_time", "pieces", "qualified", "to_group", "reason")
# The PDF prints the qualification in one column.
PDF_COLUMNS = ("rank", "official_rank", "entry", "name", "country", "table", "status", "time",
               "penalty_seconds", "final_time", "pieces")
MARK_COLUMNS = ("qualified", "to_group", "reason")
# Qualifiers stand out in bold, as on the projector.
QUALIFIED = FontFace(emphasis="BOLD")


@dataclass(frozen=True)
class ResultLine:
    """One line of a round's results, values as the files show them (None where blank)."""

    rank: int | None
    official_rank: int | None
    entry: int
    name: str
    country: str
    group: str
    table: int | None
    status: str
    time: str | None
    penalty_seconds: int
    final_time: str | None
    pieces: int | None
    qualified: str | None
    to_group: str | None
    reason: str | None

    def cells(self, columns: tuple[str, ...]) -> tuple[Any, ...]:
        return tuple(getattr(self, column) for column in columns)


def qualified_text(mark: QualifierLine | None) -> str | None:
    """yes (confirmed), withdrawn, forecast (the engine's, not yet confirmed) or blank."""
    if mark is None:
        return None
    return {"confirmed": "yes", "withdrawn": "withdrawn"}.get(mark.status, "forecast")


def round_result_lines(rnd: Round) -> list[ResultLine]:
    """The round's ranking with tables, recorded times and qualification, group by group.

    Raises RulesError when the stored results cannot be ranked.
    """
    ranking = round_ranking(rnd)
    marks = round_qualification_marks(rnd, ranking.lines, rules=ranking.rules)
    tables = dict(Seat.objects.filter(round=rnd, no_show=False)
                  .values_list("entry__number", "table"))
    order = {label: i for i, label in enumerate(group_labels(rnd))}
    lines = []
    for row in ranking_rows(ranking.lines):
        number = int(row["entry"])
        mark = marks.get(number)
        time = ranking.rows[number]["time_seconds"]
        lines.append(ResultLine(**{
            **row,
            "entry": number,
            "table": tables.get(number),
            "time": format_time(time) if time is not None else None,
            "qualified": qualified_text(mark),
            "to_group": mark.to_group if mark else None,
            "reason": mark.reason if mark else None,
        }))
    # The engine ranks groups in the order it meets them; files list them in the round's order.
    lines.sort(key=lambda line: order.get(line.group, len(order)))
    return lines


def results_file_name(rnd: Round) -> str:
    """The downloads' name without extension, e.g. wjpc-2025-individual-first-results."""
    event = rnd.event
    return f"{event.championship.slug}-{event.code}-{rnd.code}-results"


def round_results_table(rnd: Round) -> Table:
    """The lines as a downloadable table (CSV and XLSX have the same columns)."""
    rows = [line.cells(COLUMNS) for line in round_result_lines(rnd)]
    return Table(results_file_name(rnd), COLUMNS, rows)


def _cell(value: Any) -> str:
    return "" if value is None else str(value)


def round_results_pdf(rnd: Round) -> bytes:
    """The results on A4 landscape, a page (or more) per group, qualifiers in bold."""
    event = rnd.event
    lines = round_result_lines(rnd)
    heading = Heading(event.championship.name, event.display_name, rnd.display_name, "")
    groups: dict[str, list[ResultLine]] = {}
    for line in lines:
        groups.setdefault(line.group, []).append(line)
    pdf = Document(orientation="landscape")
    titles = (_("Rank"), _("Official"), _("No."), _("Name"), _("Country"), _("Table"),
              _("Status"), _("Time"), _("Penalty"), _("Final time"), _("Pieces"),
              _("Qualified"))
    for group, members in list(groups.items()) or [("", [])]:
        pdf.add_page()
        title = _("Group %(group)s") % {"group": group} if group else _("Results")
        pdf.bookmark(title)
        pdf.write_line(heading.line(), 9)
        pdf.write_line(title, 18, bold=True, height=12)
        pdf.use(8)
        with pdf.table(col_widths=(12, 14, 12, 70, 22, 12, 20, 18, 16, 20, 14, 40),
                       text_align=("RIGHT", "RIGHT", "RIGHT", "LEFT", "LEFT", "RIGHT", "LEFT",
                                   "RIGHT", "RIGHT", "RIGHT", "RIGHT", "LEFT"),
                       line_height=5, first_row_as_headings=True) as grid:
            grid.row([pdf.text_of(t) for t in titles])
            for line in members:
                mark = " · ".join(_cell(v) for v in line.cells(MARK_COLUMNS) if v)
                grid.row([pdf.text_of(_cell(v)) for v in line.cells(PDF_COLUMNS)]
                         + [pdf.text_of(mark)],
                         style=QUALIFIED if line.qualified in ("yes", "forecast") else None)
    return pdf.to_bytes()
