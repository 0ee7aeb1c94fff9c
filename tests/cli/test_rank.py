"""The `puzzlecomp rank` contract: columns, groups, JSON, and bad input named by row and field."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from puzzlecomp.cli.main import main

HEADER = "entry,name,country,group,status,time,pieces,missing,missing_contiguous\n"


def rank(tmp_path, capsys, text: str, *options: str) -> tuple[int, str, str]:
    source = tmp_path / "results.csv"
    source.write_text(text, encoding="utf-8")
    args = ["rank", str(source), "--ruleset", "wjpc-2025", "--event", "individual", *options]
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_rank_writes_the_documented_columns_in_rank_order(tmp_path, capsys):
    code, out, err = rank(tmp_path, capsys, HEADER + (
        "E2,Bea,CZE,A,finished,1:00:05,,1,\n"
        "E1,Ann,ESP,A,finished,59:30,,,\n"
        "E3,Cid,USA,A,unfinished,,420,,\n"
        "E4,Dan,FRA,A,dsq,,,,\n"
    ))
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "rank,entry,name,country,group,status,final_time,penalty_seconds,pieces,official_rank",
        "1,E1,Ann,ESP,A,finished,0:59:30,0,,",
        "2,E2,Bea,CZE,A,finished,1:00:10,5,,",
        "3,E3,Cid,USA,A,unfinished,,0,420,",
        ",E4,Dan,FRA,A,dsq,,0,,",
    ]


def test_each_group_is_ranked_on_its_own(tmp_path, capsys):
    _, out, _ = rank(tmp_path, capsys, HEADER + (
        "A1,,,A,finished,3000,,,\nB1,,,B,finished,2000,,,\nA2,,,A,finished,2500,,,\n"
    ))
    assert [line.split(",")[:2] + [line.split(",")[4]] for line in out.splitlines()[1:]] == [
        ["1", "A2", "A"], ["2", "A1", "A"], ["1", "B1", "B"]
    ]


def test_json_gives_the_same_ranking(tmp_path, capsys):
    _, out, _ = rank(tmp_path, capsys, HEADER + "E1,Ann,ESP,A,finished,3000,,,\n",
                     "--format", "json")
    document = json.loads(out)
    assert document["ruleset"] == "wjpc-2025"
    assert document["round"] == "first"
    assert document["ranking"][0]["final_time"] == "0:50:00"
    assert document["ranking"][0]["final_time_seconds"] == 3000


def test_unknown_columns_are_ignored_and_blank_status_follows_the_record(tmp_path, capsys):
    code, out, _ = rank(tmp_path, capsys, "notes,entry,time,pieces\nhi,E1,3000,\n,E2,,300\n")
    assert code == 0
    assert [line.split(",")[5] for line in out.splitlines()[1:]] == ["finished", "unfinished"]


@pytest.mark.parametrize(("row", "expected"), [
    ("E1,,,A,late,3000,,,", "row 2, entry E1, field status: unknown status 'late'"),
    ("E1,,,A,finished,1:30:01,,,", "row 2, entry E1, field time: finish 1:30:01 is past"),
    ("E1,,,A,unfinished,,501,,", "row 2, entry E1, field pieces: pieces 501 is more than"),
    ("E1,,,A,unfinished,,-3,,", "row 2, entry E1, field pieces: pieces must not be negative"),
    ("E1,,,A,finished,,,,", "row 2, entry E1, field time: a finished result needs its time"),
    ("E1,,,A,finished,soon,,,", "row 2, entry E1, field time: 'soon' is not a time"),
])
def test_bad_input_names_the_row_entry_and_field_and_writes_nothing(tmp_path, capsys, row,
                                                                     expected):
    code, out, err = rank(tmp_path, capsys, HEADER + "E0,,,A,finished,100,,,\n" + row + "\n")
    assert code != 0
    assert out == ""
    assert expected.replace("row 2", "row 3") in err


def test_a_duplicate_entry_is_reported_at_its_repeat(tmp_path, capsys):
    code, out, err = rank(tmp_path, capsys, HEADER + "E1,,,A,finished,100,,,\n"
                          "E1,,,A,finished,200,,,\n")
    assert (code, out) == (2, "")
    assert "row 3, entry E1, field entry: entry E1 appears twice" in err


def test_every_problem_gets_its_own_line(tmp_path, capsys):
    _, _, err = rank(tmp_path, capsys, HEADER + "E1,,,A,late,,,,\nE2,,,A,finished,,,,\n")
    assert len(err.strip().splitlines()) == 2


@pytest.mark.parametrize(("options", "expected"), [
    (["--ruleset", "nope", "--event", "individual"], "unknown ruleset 'nope'"),
    (["--ruleset", "wjpc-2025", "--event", "solo"], "no event 'solo'"),
    (["--ruleset", "wjpc-2025", "--event", "individual", "--round", "x"], "no round 'x'"),
    (["--ruleset", "norway-nm-2025", "--event", "individual"], "--time-limit MINUTES"),
])
def test_unknown_ruleset_event_or_round_and_missing_limits_are_errors(tmp_path, capsys, options,
                                                                      expected):
    source = tmp_path / "r.csv"
    source.write_text(HEADER, encoding="utf-8")
    assert main(["rank", str(source), *options]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert expected in err


def test_a_missing_file_is_a_clear_error(tmp_path, capsys):
    code = main(["rank", str(tmp_path / "none.csv"), "--ruleset", "wjpc-2025",
                 "--event", "individual"])
    assert code == 2
    assert "none.csv: cannot read" in capsys.readouterr().err


def test_the_organiser_gives_norways_limit_and_size_on_the_command_line(tmp_path, capsys):
    source = tmp_path / "r.csv"
    source.write_text("entry,status,remaining,nationality\nE1,unfinished,120,NOR\n",
                      encoding="utf-8")
    assert main(["rank", str(source), "--ruleset", "norway-nm-2025", "--event", "individual",
                 "--time-limit", "90", "--pieces", "500"]) == 0
    assert capsys.readouterr().out.splitlines()[1] == "1,E1,,,,unfinished,,0,380,1"


def test_every_subcommand_has_help():
    for command in ("rank", "rulesets", "bench"):
        done = subprocess.run([sys.executable, "-m", "puzzlecomp", command, "--help"],
                              capture_output=True, text=True, check=False)
        assert done.returncode == 0
        assert "usage: puzzlecomp" in done.stdout


def test_member_columns_that_disagree_in_count_exit_2_naming_row_and_field(tmp_path, capsys):
    """docs/formats.md: a pair or team lists its members' facts separated by /, one per member;
    a column of one value applies to every member."""
    source = tmp_path / "teams.csv"
    source.write_text("entry,group,status,time,country,birth_year\n"
                      "T1,A,finished,2:00:00,CZE/GER,1980/1990/2000\n", encoding="utf-8")
    code = main(["rank", str(source), "--ruleset", "wjpc-2025", "--event", "teams"])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    assert err == (f"{source}, row 2, entry T1, field birth_year: 3 values separated by /, "
                   "but country lists 2 members\n")


def test_team_sizes_in_results_follow_the_ruleset(tmp_path, capsys):
    """wjpc-2025.txt, Teams: a minimum of 3 people and a maximum of 4; a row listing two is
    refused, a row with one value per column does not list its members and is not checked."""
    source = tmp_path / "teams.csv"
    source.write_text("entry,group,status,time,country,birth_year\n"
                      "T1,A,finished,2:00:00,CZE/GER,1980/1990\n"
                      "T2,A,finished,2:10:00,CZE,\n"
                      "T3,A,finished,2:20:00,CZE/CZE/GER,1980/1990/2000\n", encoding="utf-8")
    code = main(["rank", str(source), "--ruleset", "wjpc-2025", "--event", "teams"])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    assert err == (f"{source}, row 2, entry T1, field members: 2 members listed; Teams of "
                   "wjpc-2025 takes 3-4\n")


def test_person_facts_follow_the_values_the_ruleset_declares(tmp_path, capsys):
    """australia-state.toml, facts.region: a state or territory code in any letter case; any
    other region is refused naming the row, entry and field."""
    source = tmp_path / "state.csv"
    source.write_text("entry,region,time\nv,vic,40:00\nn,Sydney,41:00\n", encoding="utf-8")
    options = ["--ruleset", "australia-state", "--event", "individual", "--time-limit", "60",
               "--pieces", "500", "--setting", "host_region=VIC"]
    code = main(["rank", str(source), *options])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    assert err == (f"{source}, row 3, entry n, field region: region 'Sydney' is not one of ACT, "
                   "NSW, NT, QLD, SA, TAS, VIC, WA, JBT, CX, CC, NF\n")


@pytest.mark.parametrize(("event", "text", "problems"), [
    # One puzzle: time_2 with a value is refused, whether time is given or not.
    ("individual", "entry,group,time,time_2\nE1,A,1:00:00,1:20:00\nE2,A,,1:20:00\n",
     ["row 2, entry E1, field time_2: the round has 1 puzzle: time_2 holds '1:20:00'",
      "row 3, entry E2, field time_2: the round has 1 puzzle: time_2 holds '1:20:00'"]),
    # Teams: two puzzles; a blank time_3 column is ignored, a filled one refused.
    ("teams", "entry,group,status,time_1,time_2,time_3\nT1,A,,1:00:00,2:00:00,\n"
     "T2,A,,1:00:00,2:00:00,2:30:00\n",
     ["row 3, entry T2, field time_3: the round has 2 puzzles: time_3 holds '2:30:00'"]),
])
def test_a_puzzle_column_beyond_the_rounds_puzzles_is_refused_when_filled(
        tmp_path, capsys, event, text, problems):
    """wjpc-2025.txt: an individual round has one puzzle, the teams round two; a column for a
    puzzle the round does not have is refused when it holds a value and ignored when blank."""
    source = tmp_path / "results.csv"
    source.write_text(text, encoding="utf-8")
    code = main(["rank", str(source), "--ruleset", "wjpc-2025", "--event", event])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    assert err.splitlines() == [f"{source}, {line}" for line in problems]


def test_a_blank_puzzle_column_beyond_the_teams_puzzles_is_ignored(tmp_path, capsys):
    """wjpc-2025.txt, Teams: two puzzles; an empty time_3 column changes nothing."""
    source = tmp_path / "results.csv"
    source.write_text("entry,group,time_1,time_2,time_3\nT1,A,1:00:00,2:00:00,\n",
                      encoding="utf-8")
    code = main(["rank", str(source), "--ruleset", "wjpc-2025", "--event", "teams"])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    assert out.splitlines()[1].startswith("1,T1,")
