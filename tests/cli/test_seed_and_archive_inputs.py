"""`seed` and `archive import` check what they read (docs/seeding.md, docs/archive.md): members
of pairs and teams (wjpc-2025.txt, Teams: "a minimum of 3 people and a maximum of 4"; Pairs: two
people), blank members, a person twice, a history without people, and what the engine would
refuse in an archived round (wjpc-2025.txt, General Rules: the maximum time of each round)."""

from __future__ import annotations

import pytest

from puzzlecomp.championships.services.archive import archive_import
from puzzlecomp.cli.main import main
from puzzlecomp.formats.history_csv import read_history
from puzzlecomp.formats.results_csv import InputError

HEADER = ("year,division,round,rank,entrant,country,completed,time_seconds,pieces,puzzle_pieces,"
          "time_limit_seconds,people\n")
HISTORY = HEADER + "2024,solo,A,1,E1,Spain,True,3000.0,,500,5400,Pfast\n"


def seed(tmp_path, capsys, entries: str, history: str = HISTORY,
         event: str = "pairs") -> tuple[int, str, str]:
    (tmp_path / "entries.csv").write_text(entries, encoding="utf-8")
    (tmp_path / "history.csv").write_text(history, encoding="utf-8")
    code = main(["seed", str(tmp_path / "entries.csv"), "--history",
                 str(tmp_path / "history.csv"), "--event", event])
    out, err = capsys.readouterr()
    return code, out, err


def test_seed_refuses_every_bad_member_list_naming_row_entry_and_field(tmp_path, capsys):
    """wjpc-2025.txt: a pair is two people; nobody pairs with themselves; no blank member."""
    entries = "entry,person\n1,Pa;Pb\n2,Pa\n3,Pc;Pc\n4,Pd;;Pe\n5,Pf;Pg;Ph\n"
    code, out, err = seed(tmp_path, capsys, entries)
    assert (code, out) == (2, "")
    assert [line.split(": ", 1)[0].split(", ", 1)[1] for line in err.splitlines()] == [
        "row 3, entry 2, field person", "row 4, entry 3, field person",
        "row 5, entry 4, field person", "row 6, entry 5, field person"]
    assert "pairs takes 2 members, this entry lists 1" in err
    assert "person Pc is listed twice in this entry" in err
    assert "a member is blank: 'Pd;;Pe'" in err


def test_teams_take_3_to_4_members(tmp_path, capsys):
    code, _, err = seed(tmp_path, capsys, "entry,person\n1,Pa;Pb\n2,Pa;Pb;Pc\n", event="teams")
    assert code == 2
    assert err.strip().endswith("row 2, entry 1, field person: teams takes 3 to 4 members, "
                                "this entry lists 2")


def test_a_history_without_a_people_column_is_refused_not_read_as_no_ratings(tmp_path, capsys):
    history = HEADER.replace(",people", "") + "2024,solo,A,1,E1,Spain,True,3000.0,,500,5400\n"
    code, out, err = seed(tmp_path, capsys, "entry,person\n1,Pa\n", history, event="individual")
    assert (code, out) == (2, "")
    assert "history.csv, row 1, field people: the header has no people column" in err


def test_a_history_row_with_a_blank_member_is_refused(tmp_path, capsys):
    history = HEADER + "2024,duo,A,1,D1,Spain,True,3000.0,,500,5400,Pa;\n"
    code, _, err = seed(tmp_path, capsys, "entry,person\n1,Pa;Pb\n", history)
    assert code == 2
    assert "history.csv, row 2, entry D1, field people: a member is blank: 'Pa;'" in err


@pytest.mark.django_db
def test_the_archive_refuses_what_the_engine_would_refuse_naming_row_and_field():
    """wjpc-2025.txt, Individual First Round: 90 minutes; a finish past a round's published
    limit, or more pieces than its one puzzle has, would not rank in the archived round."""
    text = HEADER + (
        "2023,solo,A,1,E1,Spain,True,5500.0,,500,5400,Pa\n"
        "2023,solo,A,2,E2,Spain,False,,650.0,500,5400,Pb\n"
        "2023,solo,A,3,E3,Spain,False,,400.0,500,5400,Pc\n")
    with pytest.raises(InputError) as refused:
        archive_import(rows=read_history(text, source="h.csv"), source="h.csv",
                       ruleset_id="wjpc-2025", slug_prefix="old", title="Old")
    assert [str(p) for p in refused.value.problems] == [
        "h.csv, row 2, entry E1, field time_seconds: finish 1:31:40 is past the published "
        "limit of 1:30:00",
        "h.csv, row 3, entry E2, field pieces: 650 pieces placed is more than the puzzle's 500 "
        "pieces"]


@pytest.mark.django_db
def test_archive_import_warns_of_a_team_with_too_few_members_and_keeps_it(tmp_path, capsys):
    """A published record lists the members whose names were published: warned, imported."""
    path = tmp_path / "old-results.csv"
    path.write_text(HEADER + "2023,group,final,1,T1,Spain,True,9000.0,,1000,10800,Pa;Pb\n",
                    encoding="utf-8")
    code = main(["archive", "import", str(path), "--ruleset", "wjpc-2025"])
    out, err = capsys.readouterr()
    assert code == 0
    assert "archived 1 results" in out
    # The row's puzzle_pieces (1000) disagree with the rules' 1000 + 1000: warned too.
    assert (f"warning: {path}, row 2, entry T1, field people: teams takes 3 to 4 members, this "
            "entry lists 2") in err.splitlines()


# A history file holding several problems of every kind: a row that does not parse (a time that
# is no number), a finish past its round's published limit, more pieces than the one puzzle has,
# an entrant twice in one round, a division the ruleset has no event for, an entrant with other
# people in another round.
BAD_HISTORY = HEADER + (
    "2023,solo,A,1,E1,Spain,True,5500.0,,500,5400,Pa\n"
    "2023,solo,A,2,E2,Spain,True,fast,,500,5400,Pb\n"
    "2023,solo,A,3,E3,Spain,False,,650.0,500,5400,Pc\n"
    "2023,solo,A,4,E3,Spain,False,,400.0,500,5400,Pc\n"
    "2023,relay,A,1,R1,Spain,True,3000.0,,500,5400,Pd\n"
    "2023,solo,S1,1,E4,Spain,True,3000.0,,500,4500,Pe\n"
    "2023,solo,A,5,E4,Spain,True,3100.0,,500,5400,Pf\n")
BAD_HISTORY_PROBLEMS = [
    "row 2, entry E1, field time_seconds: finish 1:31:40 is past the published limit of 1:30:00",
    "row 3, entry E2, field time_seconds: ",
    "row 4, entry E3, field pieces: 650 pieces placed is more than the puzzle's 500 pieces",
    "row 5, entry E3, field round: entrant E3 is already in this round (A, row 4)",
    "row 6, entry R1, field division: ",
    "row 8, entry E4, field people: entrant E4 has other people in another round",
]


def located(err: str, source: str) -> list[str]:
    """The problem lines of stderr, each without its leading 'error: SOURCE, '."""
    return [line.split(f"{source}, ", 1)[1] for line in err.splitlines() if source in line]


def test_seed_runs_the_archives_row_checks_on_its_history_with_the_same_messages(
        tmp_path, capsys):
    """Issue 23, item 8 (second referee): `seed` refuses what `archive import` refuses in a
    history row (wjpc-2025.txt, Individual First Round: "a maximum time of 90 minutes"; a 500
    piece puzzle), every problem of the file in one run, exit 2, nothing written."""
    code, out, err = seed(tmp_path, capsys, "entry,person\n1,Pa\n", BAD_HISTORY,
                          event="individual")
    assert (code, out) == (2, "")
    lines = located(err, "history.csv")
    assert len(lines) == len(BAD_HISTORY_PROBLEMS), err
    for line, expected in zip(lines, BAD_HISTORY_PROBLEMS, strict=True):
        assert line.startswith(expected), (line, expected)


@pytest.mark.django_db
def test_archive_import_tells_every_problem_of_the_history_in_one_run_as_seed_does(
        tmp_path, capsys):
    """Issue 23, item 9: a history file's parse problems and the archive's row checks come in
    one run, the same lines `seed` writes; nothing is archived."""
    from puzzlecomp.championships.models import Championship

    path = tmp_path / "history.csv"
    path.write_text(BAD_HISTORY, encoding="utf-8")
    code = main(["archive", "import", str(path), "--ruleset", "wjpc-2025"])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    archive_lines = located(err, "history.csv")
    for line, expected in zip(archive_lines, BAD_HISTORY_PROBLEMS, strict=True):
        assert line.startswith(expected), (line, expected)
    assert not Championship.objects.exists()
    _, _, seed_err = seed(tmp_path, capsys, "entry,person\n1,Pa\n", BAD_HISTORY,
                          event="individual")
    assert located(seed_err, "history.csv") == archive_lines


def test_seed_tells_the_entries_and_the_historys_problems_in_one_run(tmp_path, capsys):
    """Issue 23, item 9: the entries file and the history file each with a problem: both are
    told in one run."""
    code, _, err = seed(tmp_path, capsys, "entry,person\n1,Pa;Pa\n", BAD_HISTORY, event="pairs")
    assert code == 2
    assert located(err, "entries.csv") == ["row 2, entry 1, field person: person Pa is listed "
                                           "twice in this entry"]
    assert len(located(err, "history.csv")) == len(BAD_HISTORY_PROBLEMS)
