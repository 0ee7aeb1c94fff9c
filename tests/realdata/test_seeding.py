"""`puzzlecomp seed` reads the published WJPC history whole and seeds the 2025 entrants by it."""

from __future__ import annotations

import csv
import io

import pytest

from puzzlecomp.cli.main import main

pytestmark = pytest.mark.realdata


def test_every_2025_entrant_with_earlier_solo_results_is_seeded(shared_data, tmp_path, capsys):
    """shared/data/README.md: 429 of the 996 first-round entrants of 2025 competed solo before."""
    with (shared_data / "wjpc-results.csv").open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    history = tmp_path / "history.csv"
    with history.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(r for r in rows if int(r["year"]) < 2025)
    first_round = [r for r in rows if (r["year"], r["division"]) == ("2025", "solo")
                   and r["round"] in "ABCDEF"]
    entries = tmp_path / "entries.csv"
    entries.write_text("entry,person\n" + "".join(
        f"{r['entrant']},{r['people']}\n" for r in first_round), encoding="utf-8")
    assert main(["seed", str(entries), "--history", str(history), "--event", "individual"]) == 0
    seeded = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert len(seeded) == len(first_round) == 996
    assert sum(1 for r in seeded if r["seed_rank"]) == 429
