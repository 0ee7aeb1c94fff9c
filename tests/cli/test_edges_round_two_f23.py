"""Issue 23, third referee: a structural problem of a results folder or document hides no other
problem (item 9; docs/formats.md "Errors"), every reader of a championship file checks its
settings the same way (item 7) and writes the same line for an engine violation (item 9), a
history row that contradicts itself is refused as the engine refuses the record (item 3), and a
JSON row's bad value is one clear line (item 9)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from puzzlecomp.cli.main import main

WJPC_FOLDER = Path(__file__).parent / "fixtures" / "championship" / "wjpc-2025"
HEADER = ("year,division,round,rank,entrant,country,completed,time_seconds,pieces,puzzle_pieces,"
          "time_limit_seconds,people\n")


def run(capsys, *args: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def first_round_csv(folder: Path) -> Path:
    return next(p for p in sorted((folder / "individual").glob("*.csv")))


def test_a_stray_file_a_nested_folder_and_a_file_not_utf8_are_told_with_the_rows_problems(
        tmp_path, capsys):
    """Item 9 (docs/formats.md, Errors: every problem in one run, exit 2): in a folder of
    EVENT/ROUND.csv, a stray file at the top, a file in a nested folder, a round file that is
    not UTF-8, an event folder the ruleset does not have and a bad time in a round are five
    lines of one run of `standings` and of `awards` (wjpc-2025.txt, the individual event)."""
    folder = tmp_path / "wjpc"
    shutil.copytree(WJPC_FOLDER, folder)
    (folder / "stray.csv").write_text("entry,time\n1,10:00\n", encoding="utf-8")
    (folder / "individual" / "old").mkdir()
    (folder / "individual" / "old" / "first.csv").write_text("entry,time\n", encoding="utf-8")
    (folder / "individual" / "second-copy.csv").write_bytes(b"entry,time\n\xff\xfe,1\n")
    (folder / "relay").mkdir()
    (folder / "relay" / "final.csv").write_text("entry,time\n", encoding="utf-8")
    round_file = first_round_csv(folder)
    lines = round_file.read_text(encoding="utf-8").splitlines()
    header = lines[0].split(",")
    cells = lines[1].split(",")
    cells[header.index("time")] = "forty"
    lines[1] = ",".join(cells)
    round_file.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for command in ("standings", "awards"):
        code, out, err = run(capsys, command, folder, "--ruleset", "wjpc-2025", "--event",
                             "individual")
        assert (code, out) == (2, ""), err
        found = err.splitlines()
        assert f"{folder / 'stray.csv'}: expected EVENT/ROUND.csv in the folder" in found
        assert (f"{folder / 'individual' / 'old' / 'first.csv'}: expected EVENT/ROUND.csv in "
                "the folder") in found
        assert any(line.startswith(f"{folder / 'individual' / 'second-copy.csv'}: cannot read")
                   for line in found), err
        assert any(line.startswith(f"{folder / 'relay' / 'final.csv'}, field event: ")
                   for line in found), err
        assert any(line.startswith(f"{round_file}, row 2, ") and ", field time: " in line
                   for line in found), err


def results_document(tmp_path: Path, rows: list[object]) -> Path:
    path = tmp_path / "results.json"
    path.write_text(json.dumps({
        "format": "puzzlecomp-results", "version": 1, "ruleset": "australia-state",
        "settings": {"host_region": "NSW"},
        "events": {"individual": {"rounds": {"final": rows}}}}), encoding="utf-8")
    return path


def test_a_row_that_is_no_object_is_told_with_the_other_rows_problems(tmp_path, capsys):
    """Item 9: a JSON row that is not an object no longer stops the reading; the other rows'
    problems (a time that is no time) come in the same run (australia-state-national.txt, a
    state final of 60 minutes here)."""
    path = results_document(tmp_path, [
        {"entry": "n", "region": "NSW", "time": "41:00"},
        "w",
        {"entry": "v", "region": "VIC", "time": "forty"}])
    code, out, err = run(capsys, "standings", path, "--event", "individual", "--time-limit",
                         "60", "--pieces", "500")
    assert (code, out) == (2, "")
    where = f"{path} events.individual.rounds.final"
    assert err.splitlines()[0] == f'{where}, row 2: a result row must be an object, not "w"'
    assert any(line.startswith(f"{where}, row 3, entry v, field time: ")
               for line in err.splitlines()), err
    assert len(err.splitlines()) == 2, err


def test_a_value_that_is_no_cell_is_one_line_shown_as_json(tmp_path, capsys):
    """Item 9: a time given as a list is one line (not a second "no status, time or count
    given"); an entry given as an object is shown as JSON, not as Python writes it."""
    path = results_document(tmp_path, [
        {"entry": "n", "region": "NSW", "time": [1]},
        {"entry": {"x": 1}, "region": "VIC", "time": "41:00"},
        {"entry": "w", "region": "WA", "time": "42:00"}])
    code, out, err = run(capsys, "standings", path, "--event", "individual", "--time-limit",
                         "60", "--pieces", "500")
    assert (code, out) == (2, "")
    where = f"{path} events.individual.rounds.final"
    assert err.splitlines() == [
        f"{where}, row 1, entry n, field time: expected text, a number or true/false, not [1]",
        f'{where}, row 2, field entry: expected text, a number or true/false, not {{"x": 1}}',
    ]


@pytest.fixture
def state_file(tmp_path, capsys) -> dict:
    """The exported file of a state championship (australia-state-national.txt) with
    entries, settings to be written by each test."""
    import datetime as dt

    from django.utils import timezone

    from puzzlecomp.championships.services.setup import championship_create
    from tests.web.test_groups import add_entries

    championship = championship_create(ruleset_id="australia-state", name="NSW 2027",
                                       starts_at=timezone.now() + dt.timedelta(days=30))
    add_entries(championship.events.get(code="individual"), {"AU": 3})
    code, out, err = run(capsys, "championship", "export", championship.slug)
    assert (code, err) == (0, "")
    data = json.loads(out)
    # The organiser's limit and puzzle (the rulebook leaves them to the state): 90 minutes, 500.
    for event in data["events"]:
        for rnd in event["rounds"]:
            rnd["time_limit_minutes"] = 90
            for puzzle in rnd["puzzles"]:
                puzzle["pieces"] = 500
    return data


def written(tmp_path: Path, data: dict, settings_text: str) -> Path:
    """The file with its settings object written as given (a key twice is kept twice)."""
    data = {**data, "championship": {**data["championship"], "settings": "@settings@"}}
    path = tmp_path / "state.json"
    path.write_text(json.dumps(data).replace('"@settings@"', settings_text), encoding="utf-8")
    return path


@pytest.mark.django_db
@pytest.mark.parametrize(("settings_text", "expected"), [
    ('{"host_region": "NSW", "HOST_REGION": "VIC"}',
     ["championship.settings.HOST_REGION: setting host_region is given twice, as 'NSW' and as "
      "'VIC' (HOST_REGION); give it once"]),
    ('{"host_region": "XXX", "foo": 1}',
     ["championship.settings.host_region: setting host_region takes ",
      "championship.settings.foo: australia-state has no setting 'foo'; known: "]),
])
def test_championship_results_checks_the_files_settings_as_the_import_does(
        tmp_path, capsys, state_file, settings_text, expected):
    """Item 7 (australia-state-national.txt: the host state decides the state titles): a
    setting given twice in another letter case, an unknown value and an unknown setting are
    refused by `championship results` with the same lines as `championship import`, exit 2."""
    from puzzlecomp.championships.models import Championship

    path = written(tmp_path, state_file, settings_text)
    code, out, err = run(capsys, "championship", "results", path, "--event", "individual",
                         "--round", "final")
    assert (code, out) == (2, "")
    lines = [line.removeprefix(f"error: {path}: ") for line in err.splitlines()]
    assert len(lines) == len(expected), err
    for line, start in zip(lines, expected, strict=True):
        assert line.startswith(start), (line, start)
    code, out, err = run(capsys, "championship", "import", path, "--slug", "state-copy")
    assert (code, out) == (2, "")
    imported = [line.removeprefix(f"error: {path}: ") for line in err.splitlines()]
    assert imported == lines
    assert not Championship.objects.filter(slug="state-copy").exists()


@pytest.mark.django_db
def test_import_and_results_write_the_same_line_for_an_engine_refusal(
        tmp_path, capsys, state_file):
    """Item 9: the import's line for a result the engine refuses names the file, the JSON path,
    the entry and the field, as `championship results` does (one formatter): a finished result
    with a pieces count (docs/rulesets.md, Contradictory records)."""
    numbers = sorted(e["number"] for e in state_file["entries"] if e["event"] == "individual")
    base = {"event": "individual", "round": "final", "status": "finished", "missing": 0,
            "puzzles": [], "checked": True, "recorded_at": "2027-03-14T09:00:00Z"}
    state_file["results"] = [{**base, "entry": numbers[0], "time_seconds": 2000, "pieces": 3},
                             {**base, "entry": numbers[1], "time_seconds": 2100}]
    path = written(tmp_path, state_file, '{"host_region": "NSW"}')
    code, out, results_err = run(capsys, "championship", "results", path, "--event",
                                 "individual", "--round", "final")
    assert (code, out) == (2, "")
    assert results_err.splitlines() == [
        f"error: {path}: results[0].pieces: entry {numbers[0]}, field pieces: a finished "
        "result has a time, not a pieces count"]
    code, out, import_err = run(capsys, "championship", "import", path, "--slug", "state-copy")
    assert (code, out) == (2, "")
    assert import_err == results_err


def history(tmp_path: Path, rows: str) -> Path:
    path = tmp_path / "history.csv"
    path.write_text(HEADER + rows, encoding="utf-8")
    return path


CONTRADICTORY = (
    "2023,solo,A,1,E1,Spain,True,3000.0,200,500,5400,Pa\n"
    "2023,solo,A,2,E2,Spain,False,3100.0,,500,5400,Pb\n"
    "2023,solo,A,3,E3,Spain,False,,300.0,500,5400,Pc\n"
    "2023,solo,A,4,E4,Spain,False,,,500,5400,Pd\n")
CONTRADICTIONS = [
    "row 2, entry E1, field pieces: a finished result has a time, not a pieces count "
    "(completed is True; result.finished_with_count)",
    "row 3, entry E2, field time_seconds: a result that is not finished has no finish time; "
    "choose finished or remove the time (completed is False; result.unfinished_with_time)",
]


def located(err: str, source: Path) -> list[str]:
    return [line.split(f"{source}, ", 1)[1] for line in err.splitlines() if str(source) in line]


@pytest.mark.django_db
def test_archive_import_refuses_a_row_that_contradicts_itself_and_stores_nothing(
        tmp_path, capsys):
    """Item 3 (wjpc-2025.txt, Recording Time and Unfinished Puzzles: a finish is a time, a
    count is made of an unfinished puzzle only): a finisher with a pieces count and an
    unfinished entry with a time are refused with the engine's codes (rules/contradictions.py),
    naming file, row, entry and field, not stored with one fact dropped. A blank count on an
    unfinished row stays allowed (published pages give no count of nobody)."""
    from puzzlecomp.championships.models import Championship

    path = history(tmp_path, CONTRADICTORY)
    code, out, err = run(capsys, "archive", "import", path, "--ruleset", "wjpc-2025")
    assert (code, out) == (2, "")
    assert located(err, path) == CONTRADICTIONS
    assert not Championship.objects.exists()


def test_seed_refuses_the_same_contradictory_rows_with_the_same_lines(tmp_path, capsys):
    """Item 3: `seed` reads the history as the archive does: the same two lines, exit 2."""
    path = history(tmp_path, CONTRADICTORY)
    entries = tmp_path / "entries.csv"
    entries.write_text("entry,person\n1,Pa\n", encoding="utf-8")
    code, out, err = run(capsys, "seed", entries, "--history", path, "--event", "individual")
    assert (code, out) == (2, "")
    assert located(err, path) == CONTRADICTIONS


def test_seed_warns_of_the_member_counts_the_archive_warns_of(tmp_path, capsys):
    """Issue 23, item 8 (docs/seeding.md: the history is read as the archive reads it):
    wjpc-2025.txt, pairs of 2 and teams of 3 or 4; a pair listed with 3 members and a team with
    2 are warned by `seed` with the lines of `archive import`, and the seeding still runs."""
    path = history(tmp_path, (
        "2023,duo,A,1,E1,Spain,True,3000.0,,500,4500,P1;P2;P3\n"
        "2023,duo,A,2,E2,Spain,True,3100.0,,500,4500,P4;P5\n"
        "2023,group,A,1,E3,Spain,True,3100.0,,1000,10800,P6;P7\n"))
    entries = tmp_path / "entries.csv"
    entries.write_text("entry,person\n1,P1;P2\n", encoding="utf-8")
    code, out, err = run(capsys, "seed", entries, "--history", path, "--event", "pairs")
    assert code == 0
    assert out.startswith("entry,person,seed_rank,rating\n")
    assert err.splitlines() == [
        f"warning: {path}, row 2, entry E1, field people: pairs takes 2 members, this entry "
        "lists 3",
        f"warning: {path}, row 4, entry E3, field people: teams takes 3 to 4 members, this "
        "entry lists 2"]


def test_a_missing_history_column_is_one_line_and_every_other_check_still_runs(
        tmp_path, capsys):
    """Issue 23, item 8 (docs/seeding.md, the history's columns): without a people column the
    entries file's problems and the history's row checks still come in the same run
    (wjpc-2025.txt, Individual First Round: 90 minutes); without a year column the file says
    so once, not on every row."""
    entries = tmp_path / "entries.csv"
    entries.write_text("entry,person\n1,Pa;Pa\n", encoding="utf-8")
    no_people = tmp_path / "no-people.csv"
    no_people.write_text(HEADER.replace(",people", "") + (
        "2023,solo,A,1,E1,Spain,True,6000.0,,500,5400\n"
        "2023,solo,A,2,E2,Spain,True,3000.0,,500,5400\n"), encoding="utf-8")
    code, out, err = run(capsys, "seed", entries, "--history", no_people, "--event",
                         "individual")
    assert (code, out) == (2, "")
    assert any(line.startswith(f"{entries}, row 2, entry 1, field person: ")
               for line in err.splitlines()), err
    assert located(err, no_people) == [
        "row 1, field people: the header has no people column: without the members' person "
        "ids nobody can be rated or archived (docs/seeding.md)",
        "row 2, entry E1, field time_seconds: finish 1:40:00 is past the published limit of "
        "1:30:00"]
    no_year = tmp_path / "no-year.csv"
    no_year.write_text(HEADER.replace("year,", "", 1) + (
        "solo,A,1,E1,Spain,True,3000.0,,500,5400,Pa\n"
        "solo,A,2,E2,Spain,True,fast,,500,5400,Pb\n"
        "solo,A,3,E3,Spain,True,3200.0,,500,5400,Pc\n"), encoding="utf-8")
    entries.write_text("entry,person\n1,Pa\n", encoding="utf-8")
    code, out, err = run(capsys, "seed", entries, "--history", no_year, "--event", "individual")
    assert (code, out) == (2, "")
    assert located(err, no_year) == [
        "row 1, field year: the header has no year column",
        "row 3, entry E2, field time_seconds: 'fast' is not a number of zero or more"]


def test_a_tiebreaker_files_own_problems_hide_no_other_tiebreakers_check(tmp_path, capsys):
    """Issue 23, item 9 (wjpc-2025.txt, Subcategories (*): the tiebreaker is "between the top
    5 finishers in the final round before they are eliminated"): a tiebreaker file for a
    subcategory the event lacks and a time that is no time in the senior-b tiebreaker do not
    hide that the debutant tiebreaker names an entrant never called: three lines, one run."""
    folder = tmp_path / "championship"
    shutil.copytree(WJPC_FOLDER, folder)
    base = folder / "individual"
    (base / "tiebreaker-nope.csv").write_text("entry,time\nB6,40:00\n", encoding="utf-8")
    (base / "tiebreaker-senior-b.csv").write_text("entry,time\nB4,forty\n", encoding="utf-8")
    (base / "tiebreaker-debutant.csv").write_text("entry,time\nB6,40:00\nZ9,45:00\n",
                                                  encoding="utf-8")
    for command in ("standings", "awards"):
        code, out, err = run(capsys, command, folder, "--ruleset", "wjpc-2025", "--event",
                             "individual")
        assert (code, out) == (2, "")
        lines = err.splitlines()
        assert len(lines) == 3, err
        assert any(line.startswith(f"{base / 'tiebreaker-nope.csv'}, field round: ")
                   for line in lines), err
        assert any(line.startswith(f"{base / 'tiebreaker-senior-b.csv'}, row 2, entry B4, "
                                   "field time: ") for line in lines), err
        assert (f"{base / 'tiebreaker-debutant.csv'}, row 3, entry Z9, field entry: entry Z9 "
                "is not one of the entrants called to the debutant tiebreaker") in lines


def test_with_the_final_not_given_a_tiebreaker_is_refused_beside_a_bad_row(tmp_path, capsys):
    """Issue 23, item 9 (wjpc-2025.txt, Subcategories (*): the tiebreaker follows the final):
    with no final results, a tiebreaker file is refused as "the final round is not final yet"
    in the same run as a time that is no time in the first round."""
    folder = tmp_path / "championship"
    shutil.copytree(WJPC_FOLDER, folder)
    base = folder / "individual"
    (base / "final.csv").unlink()
    first = base / "first.csv"
    lines = first.read_text(encoding="utf-8").splitlines()
    header = lines[0].split(",")
    cells = lines[1].split(",")
    cells[header.index("time")] = "forty"
    lines[1] = ",".join(cells)
    first.write_text("\n".join(lines) + "\n", encoding="utf-8")
    (base / "tiebreaker-debutant.csv").write_text("entry,time\nB6,40:00\n", encoding="utf-8")
    code, out, err = run(capsys, "standings", folder, "--ruleset", "wjpc-2025", "--event",
                         "individual")
    assert (code, out) == (2, "")
    found = err.splitlines()
    assert any(line.startswith(f"{first}, row 2, ") and ", field time: " in line
               for line in found), err
    assert any(line.startswith(f"{base / 'tiebreaker-debutant.csv'}") and
               "the final round is not final yet" in line for line in found), err
