"""The charts' geometry and figures, without a database (public/live/charts.py, round_charts.py)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlecomp.public.live.charts import Labels, Series, bins_of, nice_step, step_chart
from puzzlecomp.public.live.round_charts import entrant_place_chart, places_through_round


def line(entry: int, time: int | None, final: int | None = None, group: str = "A") -> dict:
    return {"entry": entry, "group": group, "status": "finished" if time else "unfinished",
            "time_seconds": time, "final_seconds": final or time}


@settings(deadline=None)
@given(st.lists(st.floats(min_value=0, max_value=2_000), min_size=1, max_size=300),
       st.sampled_from([0.5, 60.0, 300.0]))
def test_every_value_falls_in_exactly_one_bin(values, width):
    bins = bins_of(values, width=width)
    assert sum(b.count for b in bins) == len(values)
    assert all(b.end - b.start == width for b in bins)


def test_a_step_is_one_two_or_five_times_a_power_of_ten():
    assert [nice_step(span) for span in (90, 7, 1200, 0)] == [20, 2, 500, 1]


def test_a_place_counts_only_the_entrants_own_group_and_better_final_times():
    lines = [line(1, 2000), line(2, 2500, final=3100), line(3, 3000), line(4, 1000, group="B")]
    # Before entry 2 finishes at 2500 s it stands behind entry 1; once finished, its final
    # time with a penalty (3100 s) puts it behind entry 3's 3000 s when that one finishes.
    assert places_through_round(lines, 2) == [(0.0, 1), (2000.0, 2), (2500.0, 2), (3000.0, 3)]


def test_an_entrant_who_never_finishes_falls_behind_every_finisher():
    lines = [line(1, 2000), line(2, None), line(3, 3000)]
    assert places_through_round(lines, 2) == [(0.0, 1), (2000.0, 2), (3000.0, 3)]


def test_a_step_chart_is_an_accessible_svg_without_inline_styles():
    labels = Labels("Finishers", "2 of 3 finished.", "Minutes", "Finishers")
    svg = ET.fromstring(step_chart([Series("A", [(0, 0), (600, 1), (1200, 2)])], labels,
                                   chart_id="c", x_max=1800, x_format=str, x_unit=60))
    ns = "{http://www.w3.org/2000/svg}"
    assert svg.get("role") == "img"
    assert svg.get("aria-labelledby") == "c-title c-desc"
    assert svg.find(f"{ns}title").text == "Finishers"
    assert svg.find(f"{ns}desc").text == "2 of 3 finished."
    assert not [e for e in svg.iter() if e.get("style")]
    assert svg.find(f"{ns}path").get("d").startswith("M48,")


def test_minute_ticks_never_repeat_a_minute_on_a_short_axis():
    """A round two minutes old drew ticks every 30 s, labelled in whole minutes: "0 0 1 2 2"."""
    labels = Labels("Finishers", "", "Minutes", "Finishers")
    svg = ET.fromstring(step_chart([Series("A", [(0, 0), (60, 1)])], labels, chart_id="c",
                                   x_max=120, x_format=lambda s: str(round(s / 60)), x_unit=60))
    ns = "{http://www.w3.org/2000/svg}"
    ticks = [t.text for t in svg.iter(f"{ns}text") if t.get("class") == "chart-tick"
             and t.get("text-anchor") == "middle"]
    assert ticks == ["0", "1", "2"]


def test_no_place_chart_before_anyone_of_the_group_has_finished():
    data = {"round": {"id": 1, "time_limit_seconds": 5400},
            "lines": [line(1, None), line(2, None), line(3, 900, group="B")]}
    assert entrant_place_chart(data, 1) is None
