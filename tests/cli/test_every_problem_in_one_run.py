"""Every problem of a results document or folder in one run (README: every error names its
place; docs/formats.md: "reported in one run"), not in passes: its settings, its events and
rounds, each round's rows and the subcategory tiebreakers (issue 23, item 9, second referee).
The championship file's are in tests/cli/test_interchange_cli.py, the history file's in
tests/cli/test_seed_and_archive_inputs.py."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from puzzlecomp.cli.main import main

WJPC_FOLDER = Path(__file__).parent / "fixtures" / "championship" / "wjpc-2025"


def run(capsys, *args: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_results_document_tells_its_settings_events_rounds_and_rows_in_one_run(
        tmp_path, capsys):
    """australia-state-national.txt (a state competition's final, the organiser's limit of 60
    minutes here): a setting given twice, an event and a round the ruleset does not have, a
    finish past the limit, an entry twice and a time that is no time (in the same round as
    the finish past the limit) are six lines of one run; exit 2, nothing out."""
    rows = [{"entry": "v", "region": "VIC", "time": "70:00"},
            {"entry": "n", "region": "NSW", "time": "41:00"},
            {"entry": "n", "region": "NSW", "time": "42:00"},
            {"entry": "w", "region": "WA", "time": "forty"}]
    path = tmp_path / "state.json"
    path.write_text(
        '{"format": "puzzlecomp-results", "version": 1, "ruleset": "australia-state", '
        '"settings": {"host_region": "NSW", "host_region": "VIC"}, '
        f'"events": {{"individual": {{"rounds": {{"final": {json.dumps(rows)}, "heat": []}}}}, '
        '"relay": {"rounds": {"final": []}}}}', encoding="utf-8")
    for command in ("standings", "awards"):
        code, out, err = run(capsys, command, path, "--event", "individual", "--time-limit",
                             "60", "--pieces", "500")
        assert (code, out) == (2, "")
        lines = err.splitlines()
        assert len(lines) == 6, err
        assert lines[0] == (f"{path} settings, field host_region: setting host_region is given "
                            "twice, as 'NSW' and as 'VIC'; give it once")
        assert any(line.startswith(f"{path} events.relay.rounds.final, field event: ")
                   for line in lines)
        assert any(line.startswith(f"{path} events.individual.rounds.heat, field round: ")
                   for line in lines)
        assert any(line.startswith(f"{path} events.individual.rounds.final, row 1, entry v, "
                                   "field time: ") for line in lines)
        assert any(line.startswith(f"{path} events.individual.rounds.final, row 3, entry n, "
                                   "field entry: entry n appears twice") for line in lines)
        assert any(line.startswith(f"{path} events.individual.rounds.final, row 4, entry w, "
                                   "field time: ") for line in lines)


def test_a_stray_tiebreaker_file_is_told_with_the_settings_and_the_other_tiebreakers_rows(
        tmp_path, capsys):
    """wjpc-2025.txt, Subcategories (*): "a tiebreaker will be held between the top 5 finishers
    in the final round before they are eliminated", in the final's 75 minutes (our default,
    docs/standings-and-awards.md): an unknown --setting, a senior-b tiebreaker finish past
    75:00 and a debutant tiebreaker naming an entrant never called are three lines of one run."""
    folder = tmp_path / "championship"
    shutil.copytree(WJPC_FOLDER, folder)
    base = folder / "individual"
    (base / "tiebreaker-debutant.csv").write_text("entry,time\nB6,40:00\nZ9,45:00\n",
                                                  encoding="utf-8")
    (base / "tiebreaker-senior-b.csv").write_text("entry,time\nB4,80:00\n", encoding="utf-8")
    refusals = []
    for command in ("standings", "awards"):
        code, out, err = run(capsys, command, folder, "--ruleset", "wjpc-2025", "--event",
                             "individual", "--setting", "nonesuch=1")
        assert (code, out) == (2, "")
        refusals.append(err)
    assert refusals[0] == refusals[1]
    lines = refusals[0].splitlines()
    assert len(lines) == 3, refusals[0]
    assert lines[0].startswith("--setting, field nonesuch: wjpc-2025 has no setting 'nonesuch'")
    assert lines[1].startswith(f"{base / 'tiebreaker-senior-b.csv'}, row 2, entry B4, "
                               "field time: ")
    assert lines[2] == (f"{base / 'tiebreaker-debutant.csv'}, row 3, entry Z9, field entry: "
                        "entry Z9 is not one of the entrants called to the debutant tiebreaker")
