"""Issue 30: the second looks replayed on the real WJPC 2025 first round, with the editions
before it as history, flag at most 1 % of the finishes, and the 22:02 of group B among them."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from puzzlecomp.formats.history_csv import read_history

pytestmark = pytest.mark.realdata

BENCH = Path(__file__).resolve().parents[2] / "bench" / "second_looks.py"


def bench():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("second_looks_bench", BENCH)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_2025_first_round_flags_at_most_one_percent_and_the_2202_finish(shared_data):
    replay = bench()
    path = shared_data / "wjpc-results.csv"
    rows = replay.sized(read_history(path.read_text(encoding="utf-8"), source=str(path)),
                        str(path))
    events = {event: replay.replay(rows, 2025, event) for event in replay.EVENTS}
    finishes = sum(e["finishes"] for e in events.values())
    flagged = {entrant for e in events.values() for entrant in e["flagged_entries"]}
    assert finishes == 1192
    assert len(flagged) <= 0.01 * finishes
    # 22:02 in group B, where nobody else finished under 30:35.
    [fast] = [r for r in rows if (r.year, r.event, r.round, r.time_seconds)
              == (2025, "individual", "B", 1322.0)]
    assert fast.entrant in flagged
    assert events["individual"]["flagged_entries"][fast.entrant] == ["second_look.ahead_of_group"]
