"""How a round unfolds, from its snapshot: finishers over time per group, the spread of final
times, pieces per minute, and one entrant's place through the round. The geometry is charts.py;
here are the figures and their words.

Finishing instants are the stored stopwatch times (`time_seconds`): who had finished when.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import Any

from django.utils.formats import number_format
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from puzzlecomp.public.live.charts import (
    Labels,
    Series,
    bins_of,
    histogram,
    minutes,
    nice_step,
    series_class,
    step_chart,
)
from puzzlecomp.public.live.display import duration, group_heading


@dataclass(frozen=True)
class Chart:
    heading: str
    # What the chart shows, in a sentence (also the SVG's description).
    summary: str
    # Built by charts.py with ElementTree, which escapes every text: safe to insert.
    svg: SafeString
    # The colour class and name of each line, for a legend in HTML (it wraps on a phone).
    legend: list[tuple[str, str]] = field(default_factory=list)


def _finished(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [line for line in lines
            if line["status"] == "finished" and line.get("time_seconds") is not None]


def _limit(data: dict[str, Any]) -> float:
    return float(data["clock"]["limit_seconds"] or 0)


def round_charts(data: dict[str, Any]) -> list[Chart]:
    """The round's three charts, from its snapshot (as the snapshot's JSON values)."""
    lines = data["lines"]
    finished = _finished(lines)
    return [_finishers(data, finished), _final_times(finished), _pace(lines)]


def _finishers(data: dict[str, Any], finished: list[dict[str, Any]]) -> Chart:
    limit = _limit(data) or max((line["time_seconds"] for line in finished), default=60.0)
    # Groups nobody sits in (a round planned for more) would only draw flat lines.
    sitting = {line.get("group") or "" for line in data["lines"]}
    groups = [g for g in data["round"]["groups"] if g in sitting] or [""]
    series, counts = [], []
    for group in groups:
        times = sorted(line["time_seconds"] for line in finished
                       if (line.get("group") or "") == group or len(groups) == 1)
        points = [(0.0, 0.0)] + [(float(t), float(i)) for i, t in enumerate(times, 1)]
        points.append((limit, float(len(times))))
        name = group_heading(group) or _("All")
        series.append(Series(name, points))
        counts.append(_("%(group)s: %(count)s") % {"group": name, "count": len(times)})
    description = _("%(finished)s of %(entrants)s entrants have finished.") % {
        "finished": len(finished), "entrants": max(data["seated"], len(data["lines"]))}
    if len(groups) > 1:
        description += " " + ", ".join(counts) + "."
    labels = Labels(_("Finishers over time"), description, _("Minutes into the round"),
                    _("Finishers"))
    legend = ([(series_class(i), one.name) for i, one in enumerate(series)]
              if len(series) > 1 else [])
    return Chart(labels.title, labels.description, mark_safe(step_chart(
        series, labels, chart_id=f"finishers-{data['round']['id']}", x_max=limit,
        x_format=minutes, x_unit=60)), legend)


def _final_times(finished: list[dict[str, Any]]) -> Chart:
    finals = sorted(float(line["final_seconds"]) for line in finished
                    if line.get("final_seconds") is not None)
    if finals:
        description = _("Fastest %(fastest)s, median %(median)s, slowest %(slowest)s.") % {
            "fastest": duration(finals[0]), "median": duration(statistics.median(finals)),
            "slowest": duration(finals[-1])}
    else:
        description = _("No one has finished yet.")
    labels = Labels(_("Final times"), description, _("Final time (minutes)"), _("Entrants"))
    width = 60.0 * max(1.0, nice_step((finals[-1] - finals[0]) / 60 if finals else 1,
                                      ticks=12))
    start = (finals[0] // width) * width if finals else 0.0
    return Chart(labels.title, labels.description, mark_safe(histogram(
        bins_of(finals, width=width, start=start), labels, chart_id="final-times",
        x_format=minutes, x_unit=60)))


def _pace(lines: list[dict[str, Any]]) -> Chart:
    paces = sorted(float(line["pieces_per_minute"]) for line in lines
                   if line.get("pieces_per_minute") is not None)
    if paces:
        description = _("Median %(median)s pieces per minute, fastest %(fastest)s.") % {
            "median": number_format(statistics.median(paces), 2),
            "fastest": number_format(paces[-1], 2)}
    else:
        description = _("No one has finished yet.")
    labels = Labels(_("Pieces per minute"), description, _("Pieces per minute"),
                    _("Entrants"))
    width = nice_step(paces[-1] if paces else 1, ticks=10)
    return Chart(labels.title, labels.description, mark_safe(histogram(
        bins_of(paces, width=width), labels, chart_id="pace",
        x_format=lambda v: number_format(v, 1))))


def places_through_round(lines: list[dict[str, Any]], number: int) -> list[tuple[float, int]]:
    """The entrant's place at each finish in the round, (stopwatch seconds, place).

    Until they finish they stand behind everyone finished so far; once finished, behind those
    finished with a better final time. The last point is their place in the ranking.
    """
    own = next(line for line in lines if line["entry"] == number)
    # Places are counted within a group (the engine ranks each group apart).
    rivals = [line for line in lines if line.get("group") == own.get("group")]
    finished = sorted(_finished(rivals), key=lambda line: line["time_seconds"])
    own_time = own["time_seconds"] if own in finished else None
    places: list[tuple[float, int]] = [(0.0, 1)]
    done: list[dict[str, Any]] = []
    for line in finished:
        done.append(line)
        at = float(line["time_seconds"])
        if own_time is None or at < own_time:
            place = 1 + sum(1 for other in done if other is not own)
        else:
            place = 1 + sum(1 for other in done if other is not own
                            and other["final_seconds"] < own["final_seconds"])
        places.append((at, place))
    return places


def entrant_place_chart(data: dict[str, Any], number: int) -> Chart | None:
    """The entrant's place through the round; None when they have no line in it, or while
    nobody of their group has finished (no place is taken before the first finish)."""
    if not any(line["entry"] == number for line in data["lines"]):
        return None
    places = places_through_round(data["lines"], number)
    if len(places) == 1:
        return None
    limit = _limit(data) or places[-1][0] or 60.0
    own = next(line for line in data["lines"] if line["entry"] == number)
    final_place = own.get("rank") or places[-1][1]
    places.append((limit, final_place))
    if own["status"] == "finished" and own.get("time_seconds") is not None:
        best = min(place for at, place in places if at >= own["time_seconds"])
        description = _("Place %(place)s at the end; best place %(best)s.") % {
            "place": final_place, "best": best}
    else:
        description = _("Place %(place)s at the end.") % {"place": final_place}
    labels = Labels(_("Place through the round"), description, _("Minutes into the round"),
                    _("Place"))
    series = [Series(_("Place"), [(t, float(p)) for t, p in places])]
    return Chart(labels.title, labels.description, mark_safe(step_chart(
        series, labels, chart_id=f"place-{data['round']['id']}", x_max=limit,
        x_format=minutes, x_unit=60, y_down=True)))
