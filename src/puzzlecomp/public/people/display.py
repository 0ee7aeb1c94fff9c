"""How counted results read on the people, country, ranking and records pages: a result in
words, and a person's chart over the editions (geometry: public/live/charts.py)."""

from __future__ import annotations

from decimal import Decimal

from django.utils.formats import number_format
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from puzzlecomp.championships.selectors.careers import CountedResult
from puzzlecomp.championships.selectors.person_pages import EditionPoints
from puzzlecomp.planning.ranking_list import printed_points
from puzzlecomp.public.live.charts import Labels, Series, dot_chart, series_class
from puzzlecomp.public.live.display import duration, status_words
from puzzlecomp.public.live.round_charts import Chart


def result_words(result: CountedResult) -> str:
    """A final time, the pieces placed, or the status in words."""
    if result.final_seconds is not None:
        return duration(result.final_seconds)
    if result.pieces is not None:
        return ngettext("%(count)s piece", "%(count)s pieces", result.pieces) % {
            "count": result.pieces}
    return status_words().get(result.status, result.status)


def points_words(points: float | None) -> str:
    """Points in the reader's number format, rounded as the ranking compares them (Django's
    number_format alone cuts a float's digits off: 5565.86 would read 5565.8)."""
    return number_format(Decimal(repr(printed_points(points))), 1) if points is not None else ""


def career_chart(points: list[EditionPoints]) -> Chart | None:
    """The person's best points per edition, a line per event; None without any points."""
    if not points:
        return None
    events: dict[str, list[EditionPoints]] = {}
    for point in points:
        events.setdefault(point.event_name, []).append(point)
    series = [Series(name, [(float(p.year), p.points) for p in found])
              for name, found in events.items()]
    description = " ".join(
        _("%(event)s: %(points)s.") % {"event": name, "points": ", ".join(
            _("%(year)s %(points)s points") % {"year": p.year, "points": points_words(p.points)}
            for p in found)}
        for name, found in events.items())
    labels = Labels(_("Points over the editions"), description, _("Edition"), _("Points"))
    years = [p.year for p in points]
    svg = dot_chart(
        series, labels, chart_id="career", x_min=min(years), x_max=max(years),
        x_format=lambda v: str(round(v)) if abs(v - round(v)) < 1e-6 else "",
        point_title=lambda name, year, value: _("%(event)s %(year)s: %(points)s points") % {
            "event": name, "year": int(year), "points": points_words(value)})
    legend = [(series_class(i), one.name) for i, one in enumerate(series)]
    # Built by charts.py with ElementTree, which escapes every text: safe to insert.
    return Chart(labels.title, labels.description, mark_safe(svg), legend)
