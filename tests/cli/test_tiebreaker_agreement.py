"""One answer for a held subcategory tiebreaker (wjpc-2025.txt, Subcategories (*): "a tiebreaker
will be held between the top 5 finishers in the final round before they are eliminated"):
`standings --category` and `awards` give the tiebreaker's order, refuse the same bad tiebreaker
files with the same lines, and name file, row, entry and field of every problem in one run."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from puzzlecomp.cli.main import main

WJPC_FOLDER = Path(__file__).parent / "fixtures" / "championship" / "wjpc-2025"
WJPC = ["--ruleset", "wjpc-2025", "--event", "individual"]


def run(capsys, *args: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def folder(tmp_path) -> Path:
    copy = tmp_path / "championship"
    shutil.copytree(WJPC_FOLDER, copy)
    return copy


def tiebreaker(folder: Path, category: str, text: str) -> Path:
    path = folder / "individual" / f"tiebreaker-{category}.csv"
    path.write_text(text, encoding="utf-8")
    return path


def test_standings_of_a_subcategory_follow_its_held_tiebreaker_as_awards_do(folder, capsys):
    """The Debutant final has one finalist for three prizes: B3, A5 and B6, eliminated earlier,
    are called; the tiebreaker's order (B6, A5, B3) decides places 2-4 in both commands."""
    tiebreaker(folder, "debutant", "entry,time\nB6,40:00\nA5,45:00\nB3,50:00\n")
    code, out, err = run(capsys, "standings", folder, *WJPC, "--category", "debutant")
    assert (code, err) == (0, "")
    standings = [line.split(",")[:3] for line in out.splitlines()[1:]]
    assert standings == [["1", "3", "A2"], ["2", "10", "B6"], ["3", "8", "A5"], ["4", "6", "B3"]]
    code, out, err = run(capsys, "awards", folder, *WJPC, "--category", "debutant")
    assert (code, err) == (0, "")
    awards = [line.split(",")[1:3] for line in out.splitlines()[1:]]
    assert awards == [row[:1] + row[2:] for row in standings[:3]]


def test_both_commands_refuse_the_same_bad_tiebreaker_files_naming_every_place(folder, capsys):
    tiebreaker(folder, "senior-b", "entry,time\nB4,40:00\nA1,50:00\n")
    tiebreaker(folder, "debutant", "entry,time\nB6,40:00\nZ9,45:00\n")
    refusals = []
    for command in ("standings", "awards"):
        code, out, err = run(capsys, command, folder, *WJPC)
        assert (code, out) == (2, "")
        refusals.append(err)
    assert refusals[0] == refusals[1]
    base = folder / "individual"
    assert refusals[0].splitlines() == [
        f"{base / 'tiebreaker-debutant.csv'}, row 3, entry Z9, field entry: entry Z9 is not "
        "one of the entrants called to the debutant tiebreaker",
        f"{base / 'tiebreaker-senior-b.csv'}, row 3, entry A1, field entry: entry A1 is not "
        "one of the entrants called to the senior-b tiebreaker",
    ]


def test_a_tiebreaker_before_the_final_is_final_is_refused_with_its_file(folder, capsys):
    """No tiebreaker is called before the final is final (rules.prizes)."""
    (folder / "individual" / "final.csv").unlink()
    path = tiebreaker(folder, "junior-18", "entry,time\nB5,40:00\n")
    for command in ("standings", "awards"):
        code, out, err = run(capsys, command, folder, *WJPC)
        assert (code, out) == (2, "")
        assert err.splitlines()[-1] == (
            f"{path}, field category: the junior-18 subcategory of individual needs no "
            "tiebreaker: the final round is not final yet")
