"""SVG charts of a round, built on the server: pure geometry, no Django.

Each chart is an `<svg role="img">` with a title and a description that say in words what the
picture shows, so a screen reader (or a browser without CSS) loses nothing. Colours come from
classes styled in results.css: the content security policy forbids inline styles.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from dataclasses import dataclass

WIDTH = 640
HEIGHT = 260
# Room for the axis labels: left, right, top, bottom.
LEFT, RIGHT, TOP, BOTTOM = 48, 16, 28, 44
# Line colours cycle through this many classes (chart-series-0 ...).
SERIES_CLASSES = 6


@dataclass(frozen=True)
class Labels:
    """The chart's words, already translated: its title, description and axis names."""

    title: str
    description: str
    x_axis: str
    y_axis: str


@dataclass(frozen=True)
class Series:
    """One line of a step chart: its name and its (x, y) points in data units."""

    name: str
    points: Sequence[tuple[float, float]]


@dataclass(frozen=True)
class Bin:
    """One bar of a histogram: [start, end) and how many values fell in it."""

    start: float
    end: float
    count: int


def bins_of(values: Sequence[float], *, width: float, start: float = 0.0) -> list[Bin]:
    """Values counted in bins of `width` from `start` up to the largest value (none: no bins)."""
    if not values:
        return []
    count = max(1, math.floor((max(values) - start) / width) + 1)
    counts = [0] * count
    for value in values:
        counts[min(count - 1, max(0, math.floor((value - start) / width)))] += 1
    return [Bin(start + i * width, start + (i + 1) * width, n) for i, n in enumerate(counts)]


def nice_step(span: float, *, ticks: int = 5) -> float:
    """A round step (1, 2 or 5 times a power of ten) giving about `ticks` ticks over `span`."""
    if span <= 0:
        return 1.0
    raw = span / ticks
    power = 10 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw)


def _svg(labels: Labels, chart_id: str) -> ET.Element:
    svg = ET.Element("svg", {
        "xmlns": "http://www.w3.org/2000/svg", "viewBox": f"0 0 {WIDTH} {HEIGHT}",
        "class": "chart", "role": "img", "id": chart_id,
        "aria-labelledby": f"{chart_id}-title {chart_id}-desc",
    })
    ET.SubElement(svg, "title", {"id": f"{chart_id}-title"}).text = labels.title
    ET.SubElement(svg, "desc", {"id": f"{chart_id}-desc"}).text = labels.description
    return svg


def _text(parent: ET.Element, x: float, y: float, text: str, cls: str,
          anchor: str = "middle") -> None:
    ET.SubElement(parent, "text", {"x": _n(x), "y": _n(y), "class": cls,
                                   "text-anchor": anchor}).text = text


def _n(value: float) -> str:
    return f"{value:.1f}".removesuffix(".0")


class _Frame:
    """Data units to the SVG's pixels, with the axes and their ticks drawn."""

    def __init__(self, svg: ET.Element, labels: Labels, *, x_max: float, y_max: float,
                 x_format: Callable[[float], str], y_format: Callable[[float], str],
                 y_down: bool = False, y_min: float = 0.0, x_unit: float = 1.0) -> None:
        self.x_max = x_max if x_max > 0 else 1.0
        self.y_min, self.y_max = y_min, max(y_max, y_min + 1)
        self.y_down = y_down
        axes = ET.SubElement(svg, "g", {"class": "chart-axes", "aria-hidden": "true"})
        plot_bottom = HEIGHT - BOTTOM
        ET.SubElement(axes, "line", {"x1": _n(LEFT), "y1": _n(plot_bottom),
                                     "x2": _n(WIDTH - RIGHT), "y2": _n(plot_bottom)})
        ET.SubElement(axes, "line", {"x1": _n(LEFT), "y1": _n(TOP),
                                     "x2": _n(LEFT), "y2": _n(plot_bottom)})
        # Ticks fall on round numbers of the unit the axis is read in (minutes: 60 s).
        # Never less than one unit: a tick of whole minutes every 30 s read "0 0 1 2 2".
        x_step = (max(1.0, nice_step(self.x_max / x_unit)) if x_unit > 1
                  else nice_step(self.x_max)) * x_unit
        tick = 0.0
        while tick <= self.x_max + 1e-9:
            _text(axes, self.x(tick), plot_bottom + 18, x_format(tick), "chart-tick")
            tick += x_step
        y_step = max(1.0, nice_step(self.y_max - self.y_min))
        # The lowest value, then round multiples of the step (places: 1, 10, 20, 30).
        ticks = [self.y_min] + [k * y_step for k in range(1, int(self.y_max / y_step) + 1)
                                if k * y_step > self.y_min]
        for tick in ticks:
            y = self.y(tick)
            ET.SubElement(axes, "line", {"x1": _n(LEFT), "y1": _n(y), "x2": _n(WIDTH - RIGHT),
                                         "y2": _n(y), "class": "chart-grid"})
            _text(axes, LEFT - 6, y + 4, y_format(tick), "chart-tick", "end")
        _text(axes, (LEFT + WIDTH - RIGHT) / 2, HEIGHT - 4, labels.x_axis, "chart-axis-name")
        _text(axes, 4, 14, labels.y_axis, "chart-axis-name", "start")

    def x(self, value: float) -> float:
        return LEFT + (WIDTH - LEFT - RIGHT) * min(value, self.x_max) / self.x_max

    def y(self, value: float) -> float:
        share = (value - self.y_min) / (self.y_max - self.y_min)
        if self.y_down:
            return TOP + (HEIGHT - TOP - BOTTOM) * share
        return HEIGHT - BOTTOM - (HEIGHT - TOP - BOTTOM) * share


def series_class(index: int) -> str:
    """The class that colours the `index`th series (the page's legend uses it too)."""
    return f"chart-series-{index % SERIES_CLASSES}"


def step_chart(series: Sequence[Series], labels: Labels, *, chart_id: str, x_max: float,
               x_format: Callable[[float], str], x_unit: float = 1.0,
               y_down: bool = False) -> str:
    """Lines that hold their value until the next point (counts, places), one per series.

    `y_down` puts the smallest value on top (a place: 1 is best).
    """
    svg = _svg(labels, chart_id)
    values = [y for s in series for _, y in s.points]
    y_min = 1.0 if y_down else 0.0
    frame = _Frame(svg, labels, x_max=x_max, y_max=max(values, default=1.0),
                   x_format=x_format, y_format=lambda v: str(int(v)), y_down=y_down,
                   y_min=y_min, x_unit=x_unit)
    for index, one in enumerate(series):
        cls = f"chart-line {series_class(index)}"
        if not one.points:
            continue
        path = [f"M{_n(frame.x(one.points[0][0]))},{_n(frame.y(one.points[0][1]))}"]
        for (_, y_before), (x, y) in zip(one.points, one.points[1:], strict=False):
            path.append(f"H{_n(frame.x(x))}V{_n(frame.y(y))}" if y != y_before
                        else f"H{_n(frame.x(x))}")
        ET.SubElement(svg, "path", {"d": "".join(path), "class": cls})
    return ET.tostring(svg, encoding="unicode")


def histogram(bins: Sequence[Bin], labels: Labels, *, chart_id: str,
              x_format: Callable[[float], str], x_unit: float = 1.0) -> str:
    """Bars of how many values fell in each bin, each bar titled with its bin and count."""
    svg = _svg(labels, chart_id)
    x_max = bins[-1].end if bins else 1.0
    x_min = bins[0].start if bins else 0.0
    frame = _Frame(svg, labels, x_max=x_max - x_min, y_max=max((b.count for b in bins),
                                                               default=1),
                   x_format=lambda v: x_format(v + x_min), y_format=lambda v: str(int(v)),
                   x_unit=x_unit)
    bars = ET.SubElement(svg, "g", {"class": "chart-bars"})
    for one in bins:
        if not one.count:
            continue
        left, right = frame.x(one.start - x_min), frame.x(one.end - x_min)
        top = frame.y(one.count)
        bar = ET.SubElement(bars, "rect", {
            "x": _n(left + 1), "y": _n(top), "width": _n(max(1.0, right - left - 2)),
            "height": _n(frame.y(0) - top), "class": "chart-bar"})
        ET.SubElement(bar, "title").text = (
            f"{x_format(one.start)}\u2013{x_format(one.end)}: {one.count}")
    return ET.tostring(svg, encoding="unicode")


def minutes(seconds: float) -> str:
    """An axis tick of seconds, in whole minutes ("45")."""
    return str(round(seconds / 60))


def decimal(value: float) -> str:
    return _n(value)



def dot_chart(series: Sequence[Series], labels: Labels, *, chart_id: str, x_min: float,
              x_max: float, x_format: Callable[[float], str],
              point_title: Callable[[str, float, float], str]) -> str:
    """Points joined by lines, one series each (values over editions); every point is titled
    with its words, so hovering or a screen reader gives the figure."""
    svg = _svg(labels, chart_id)
    values = [y for s in series for _, y in s.points]
    # One or two editions still get an axis two units wide, the points in its middle.
    span = max(x_max - x_min, 2.0)
    start = x_min - (span - (x_max - x_min)) / 2
    frame = _Frame(svg, labels, x_max=span, y_max=max(values, default=1.0) * 1.1,
                   x_format=lambda v: x_format(v + start), y_format=lambda v: str(int(v)))
    for index, one in enumerate(series):
        cls = series_class(index)
        points = sorted(one.points)
        if not points:
            continue
        path = "".join(f"{'M' if i == 0 else 'L'}{_n(frame.x(x - start))},{_n(frame.y(y))}"
                       for i, (x, y) in enumerate(points))
        ET.SubElement(svg, "path", {"d": path, "class": f"chart-line {cls}"})
        dots = ET.SubElement(svg, "g", {"class": cls})
        for x, y in points:
            dot = ET.SubElement(dots, "circle", {"cx": _n(frame.x(x - start)),
                                                 "cy": _n(frame.y(y)), "r": "4"})
            ET.SubElement(dot, "title").text = point_title(one.name, x, y)
    return ET.tostring(svg, encoding="unicode")
