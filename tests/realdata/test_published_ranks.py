"""`puzzlecomp rank` reproduces every published rank of WJPC 2019-2025 and USA nationals."""

from __future__ import annotations

import csv
import json
import math
from collections import defaultdict
from pathlib import Path

import pytest

from puzzlecomp.cli.main import main

pytestmark = pytest.mark.realdata

Round = tuple[str, str, str]


def published_rounds(path: Path) -> dict[Round, list[dict[str, str]]]:
    rounds: dict[Round, list[dict[str, str]]] = defaultdict(list)
    with path.open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            rounds[(row["year"], row["division"], row["round"])].append(row)
    return rounds


def as_results_csv(rows: list[dict[str, str]]) -> tuple[str, int]:
    """The round as our results CSV; finishers ranked among the unfinished (shared/data/README.md,
    the three anomalous entries) become unfinished with a count between their neighbours'."""
    rows = sorted(rows, key=lambda r: int(r["rank"]))
    lines = ["entry,country,status,time,pieces"]
    anomalies = 0
    last_count: int | None = None
    for position, row in enumerate(rows):
        if row["completed"] == "True" and last_count is not None:
            after = [r for r in rows[position:] if r["completed"] == "False"]
            low = int(float(after[0]["pieces"])) if after else 0
            last_count = last_count - 1 if last_count - 1 > low else last_count
            lines.append(f'{row["entrant"]},"{row["country"]}",unfinished,,{last_count}')
            anomalies += 1
        elif row["completed"] == "True":
            lines.append(f'{row["entrant"]},"{row["country"]}",finished,{row["time_seconds"]},')
        else:
            last_count = int(float(row["pieces"]))
            lines.append(f'{row["entrant"]},"{row["country"]}",unfinished,,{row["pieces"]}')
    return "\n".join(lines) + "\n", anomalies


@pytest.mark.parametrize("filename", ["wjpc-results.csv", "usajpa-results.csv"])
def test_every_published_rank_is_reproduced(filename, shared_data, tmp_path, capsys):
    """shared/data/README.md: standard competition ranking, finishers by time, then pieces."""
    rounds = published_rounds(shared_data / filename)
    total_anomalies = 0
    for (year, division, round_id), rows in sorted(rounds.items()):
        text, anomalies = as_results_csv(rows)
        total_anomalies += anomalies
        source = tmp_path / f"{year}-{division}-{round_id}.csv"
        source.write_text(text, encoding="utf-8")
        # The published limit is sometimes the slowest finish and the puzzle size a guess:
        # give the round room for every published figure.
        limit = max(int(float(r["time_limit_seconds"])) for r in rows)
        limit = max([limit, *(int(float(r["time_seconds"])) for r in rows if r["time_seconds"])])
        pieces = max([int(float(r["puzzle_pieces"])) for r in rows]
                     + [int(float(r["pieces"])) for r in rows if r["pieces"]])
        code = main(["rank", str(source), "--ruleset", "wjpc-2025", "--event", "individual",
                     "--time-limit", str(math.ceil(limit / 60)), "--pieces", str(pieces),
                     "--format", "json"])
        captured = capsys.readouterr()
        assert code == 0, captured.err
        ours = {line["entry"]: line["rank"] for line in json.loads(captured.out)["ranking"]}
        published = {r["entrant"]: int(r["rank"]) for r in rows}
        assert ours == published, f"{year} {division} {round_id}"
    expected = {"wjpc-results.csv": 2, "usajpa-results.csv": 1}[filename]
    assert total_anomalies == expected
