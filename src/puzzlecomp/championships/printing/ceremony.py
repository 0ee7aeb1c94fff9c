"""The prize ceremony on paper: the list the presenter reads from, and a certificate per prize.

Both come from `selectors.standings` (the engine's awards), so they name the same winners as the
awards page.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from urllib.parse import urlencode

import segno
from django.utils import formats
from django.utils.translation import gettext as _

from puzzlecomp.championships.printing.documents import Document
from puzzlecomp.championships.selectors.results_package import certificate_code
from puzzlecomp.championships.selectors.standings import AwardRow, EventStandings
from puzzlecomp.championships.time_zones import local


def ceremony_file_name(standings: EventStandings, what: str) -> str:
    """e.g. wjpc-2025-individual-ceremony."""
    event = standings.event
    return f"{event.championship.slug}-{event.code}-{what}"


def ceremony_list_pdf(standings: EventStandings) -> bytes:
    """Every prize of the event on A4, category by category: place, name, country, prize."""
    event = standings.event
    awards = standings.award_rows(public=False)
    pdf = Document()
    pdf.add_page()
    pdf.write_line(f"{event.championship.name} · {event.display_name}", 9)
    pdf.write_line(_("Prize ceremony"), 18, bold=True, height=12)
    official = standings.official_ranking
    if official is not None:
        pdf.write_line(_("Official ranking: %(who)s.") % {"who": official}, 10)
    if standings.still_to_come:
        pdf.write_line(standings.still_to_come, 11)
    elif not awards:
        pdf.write_line(_("No prizes yet: no entrant has a place."), 11)
    for note in standings.tiebreakers_to_come:
        pdf.write_line(note, 11)
    for category in standings.categories:
        lines = [award for award in awards if award.category == category.id]
        if not lines:
            continue
        pdf.bookmark(category.name)
        pdf.ln(3)
        pdf.write_line(category.name, 13, bold=True, height=9)
        pdf.use(10)
        if official is None:
            with pdf.table(col_widths=(20, 72, 22, 76),
                           text_align=("RIGHT", "LEFT", "LEFT", "LEFT"),
                           line_height=6, first_row_as_headings=True) as grid:
                grid.row([pdf.text_of(t) for t in (_("Place"), _("Name"), _("Country"),
                                                   _("Prize"))])
                for award in lines:
                    grid.row([str(award.place), pdf.text_of(award.name),
                              pdf.text_of(award.flag), pdf.text_of(award.prize)])
            continue
        # The title follows the official place; the overall place stands beside it.
        with pdf.table(col_widths=(18, 18, 66, 20, 68),
                       text_align=("RIGHT", "RIGHT", "LEFT", "LEFT", "LEFT"),
                       line_height=6, first_row_as_headings=True) as grid:
            grid.row([pdf.text_of(t) for t in (_("Place"), _("Overall"), _("Name"),
                                               _("Country"), _("Prize"))])
            for award in lines:
                overall = award.overall_place
                grid.row([str(award.place), "" if overall is None else str(overall),
                          pdf.text_of(award.name), pdf.text_of(award.flag),
                          pdf.text_of(award.prize)])
    return pdf.to_bytes()


# Bidirectional embedding, override and isolate controls (U+202A-202E, U+2066-2069): a name
# holding U+202E would print the rest of the line reversed on a certificate.
_BIDI_CONTROLS = dict.fromkeys([*range(0x202A, 0x202F), *range(0x2066, 0x206A)])


def without_bidi_controls(text: str) -> str:
    """The text without its bidirectional controls (a certificate prints names as given)."""
    return text.translate(_BIDI_CONTROLS)


def certificates_pdf(standings: EventStandings, awards: Sequence[AwardRow], *,
                     codes: Mapping[int, str], verify_url: str) -> bytes:
    """One certificate page (A4 landscape) per prize; each carries a QR code to the
    verification page with the code of the winner's result in the signed results package
    (`codes`: entry number -> code)."""
    event = standings.event
    championship = event.championship
    held = " · ".join(part for part in (
        championship.venue,
        formats.date_format(local(championship.starts_at, championship), "DATE_FORMAT")
        if championship.date_known else str(championship.start_year)) if part)
    pdf = Document(orientation="landscape")
    pdf.set_auto_page_break(auto=False)
    for award in awards:
        pdf.add_page()
        pdf.bookmark(without_bidi_controls(f"{award.entry} {award.name}"))
        pdf.set_line_width(1.2)
        pdf.rect(10, 10, pdf.w - 20, pdf.h - 20)
        pdf.set_line_width(0.3)
        pdf.rect(14, 14, pdf.w - 28, pdf.h - 28)
        pdf.set_y(40)
        pdf.write_line(without_bidi_controls(championship.name), 16, height=10, align="C")
        pdf.write_line(_("Certificate"), 34, bold=True, height=22, align="C")
        pdf.ln(6)
        pdf.write_line(without_bidi_controls(award.name), 32, bold=True, height=18, align="C")
        pdf.write_line(award.flag, 14, height=9, align="C")
        pdf.ln(6)
        place = (_("Place %(place)s in the official ranking") % {"place": award.place}
                 if award.official else _("Place %(place)s") % {"place": award.place})
        pdf.write_line(without_bidi_controls(
            f"{place} · {award.category_name} · {event.display_name}"), 18, height=11, align="C")
        if award.official and award.overall_place is not None:
            pdf.write_line(_("Overall place %(place)s") % {"place": award.overall_place}, 12,
                           height=8, align="C")
        if award.prize:
            pdf.write_line(without_bidi_controls(award.prize), 15, height=10, align="C")
        pdf.set_y(pdf.h - 40)
        pdf.write_line(without_bidi_controls(held), 11, height=7, align="C")
        code = codes.get(award.entry)
        if code:
            _verification(pdf, f"{verify_url}?{urlencode({'code': code})}", code)
    return pdf.to_bytes()


def _verification(pdf: Document, url: str, code: str) -> None:
    """The QR code to the verification page in the lower right corner, the code beneath."""
    qr = io.BytesIO()
    segno.make(url, error="m", micro=False, mask=2).save(qr, kind="png", scale=6, border=1)
    size, caption = 30, 50
    # Inside the inner frame (14 mm from the edge), the caption centred under the code.
    left, y = pdf.w - 18 - caption, pdf.h - 24 - size
    pdf.image(qr, x=left + (caption - size) / 2, y=y, w=size, h=size, link=url)
    pdf.set_xy(left, y + size + 0.5)
    pdf.use(7)
    pdf.cell(caption, 3, pdf.text_of(_("Verify: %(code)s") % {"code": certificate_code(code)}),
             align="C")
