"""Every command that needs the database works on a fresh install: it brings the database up
to date first (as `puzzlecomp serve` does), never a "no such table" traceback (issue 24, 9)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SAMPLE_ROWS = (
    "year,division,round,rank,entrant,country,completed,time_seconds,pieces,puzzle_pieces,"
    "time_limit_seconds,people\n"
    "2019,solo,final,1,E1,Czech Republic,True,2795.0,,500,7200,P1\n"
    "2019,solo,final,2,E2,Poland,True,3145.0,,500,7200,P2\n"
)


def puzzlecomp(data_dir: Path, *argv: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items()
           if key not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE")}
    env["PUZZLECOMP_DATA_DIR"] = str(data_dir)
    return subprocess.run([sys.executable, "-m", "puzzlecomp", *argv], capture_output=True,
                          text=True, env=env, input=stdin, timeout=300, check=False)


def test_export_on_a_fresh_data_dir_migrates_and_names_the_missing_championship(tmp_path):
    done = puzzlecomp(tmp_path / "fresh", "championship", "export", "nowhere")
    assert done.returncode == 2
    assert done.stderr == "error: no championship 'nowhere'\n"
    assert (tmp_path / "fresh" / "puzzlecomp.sqlite3").exists()


def test_archive_import_then_export_then_import_again_on_a_fresh_data_dir(tmp_path):
    data = tmp_path / "fresh"
    results = tmp_path / "wjpc-results.csv"
    results.write_text(SAMPLE_ROWS, encoding="utf-8")
    archived = puzzlecomp(data, "archive", "import", str(results), "--ruleset", "wjpc-2025")
    assert "Traceback" not in archived.stderr
    assert archived.returncode == 0, archived.stderr
    exported = puzzlecomp(data, "championship", "export", "wjpc-2019")
    assert exported.returncode == 0, exported.stderr
    document = json.loads(exported.stdout)
    other = tmp_path / "other"
    imported = puzzlecomp(other, "championship", "import", "-", "--slug", "copy-2019",
                          stdin=json.dumps(document))
    assert imported.returncode == 0, imported.stderr
    assert "copy-2019" in imported.stdout


@pytest.mark.parametrize("where", ["data dir under a file", "database file is a folder"])
def test_a_database_that_cannot_be_opened_is_one_line_naming_what_to_run(tmp_path, where):
    if where == "data dir under a file":
        (tmp_path / "a-file").write_text("", encoding="utf-8")
        data = tmp_path / "a-file" / "data"
    else:
        data = tmp_path / "data"
        (data / "puzzlecomp.sqlite3").mkdir(parents=True)
    done = puzzlecomp(data, "championship", "export", "x")
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert done.stderr.startswith("error: ")
    assert "puzzlecomp serve --no-serve" in done.stderr


@pytest.mark.parametrize("command", [("championship", "export", "x"),
                                     ("championship", "import", "-"),
                                     ("archive", "import", "sample", "--ruleset", "wjpc-2025"),
                                     ("archive", "add", "x")])
def test_every_database_command_goes_through_the_migrating_setup(command, monkeypatch):
    """A command added later that uses the database must call `database_setup`, not bare
    Django: checked by what each command's function calls first."""
    from puzzlecomp.cli import championship
    from puzzlecomp.cli.main import build_parser

    calls: list[str] = []

    class Stop(Exception):
        pass

    def fake_setup() -> None:
        calls.append("database_setup")
        raise Stop

    monkeypatch.setattr(championship, "database_setup", fake_setup)
    args = build_parser().parse_args(list(command))
    with pytest.raises(Stop):
        args.run(args)
    assert calls == ["database_setup"]
