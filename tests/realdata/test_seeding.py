"""`puzzlecomp seed` reads the published WJPC history whole and seeds the 2025 entrants by it."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from puzzlecomp.cli.main import main
from puzzlecomp.samples import SAMPLE_RESULTS

pytestmark = pytest.mark.realdata


def history_before_2025(source: Path, history: Path) -> list[dict[str, str]]:
    """`source`'s rows before 2025 written to `history`; every row of `source` returned."""
    with source.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    with history.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(r for r in rows if int(r["year"]) < 2025)
    return rows


def test_the_published_history_is_refused_where_the_archive_refuses_it(shared_data, tmp_path,
                                                                        capsys):
    """Issue 23 (second referee): `seed` runs the archive's row checks. The published file
    lists the 2024 pair Ec640f73b in first-round groups A and C (docs/archive.md, The sample):
    one line, the archive's, and no seeding."""
    history = tmp_path / "history.csv"
    history_before_2025(shared_data / "wjpc-results.csv", history)
    entries = tmp_path / "entries.csv"
    entries.write_text("entry,person\nE1,P1\n", encoding="utf-8")
    assert main(["seed", str(entries), "--history", str(history), "--event", "individual"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == [f"{history}, row 4805, entry Ec640f73b, field round: entrant "
                                "Ec640f73b is already in this round (A, row 4449)"]


def test_every_2025_entrant_with_earlier_solo_results_is_seeded(shared_data, tmp_path, capsys):
    """shared/data/README.md: 429 of the 996 first-round entrants of 2025 competed solo before.
    The history is the archive's sample: the published file less the one row the archive
    refuses (docs/archive.md, The sample)."""
    rows = history_before_2025(SAMPLE_RESULTS, tmp_path / "history.csv")
    history = tmp_path / "history.csv"
    first_round = [r for r in rows if (r["year"], r["division"]) == ("2025", "solo")
                   and r["round"] in "ABCDEF"]
    entries = tmp_path / "entries.csv"
    entries.write_text("entry,person\n" + "".join(
        f"{r['entrant']},{r['people']}\n" for r in first_round), encoding="utf-8")
    assert main(["seed", str(entries), "--history", str(history), "--event", "individual"]) == 0
    seeded = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert len(seeded) == len(first_round) == 996
    assert sum(1 for r in seeded if r["seed_rank"]) == 429
