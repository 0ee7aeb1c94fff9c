"""The `puzzlecomp advance` contract: exactly the qualifiers, CSV or JSON, and clear refusals."""

from __future__ import annotations

import json

import pytest

from puzzlecomp.cli.main import main

HEADER = "entry,name,country,group,status,time,pieces\n"


def advance(tmp_path, capsys, text: str, *options: str) -> tuple[int, str, str]:
    source = tmp_path / "results.csv"
    source.write_text(text, encoding="utf-8")
    code = main(["advance", str(source), *options])
    out, err = capsys.readouterr()
    return code, out, err


def wjpc(*extra: str) -> tuple[str, ...]:
    return ("--ruleset", "wjpc-2025", "--event", "individual", "--round", "first", *extra)


def group_of(group: str, size: int, country: str = "CZE") -> str:
    return "".join(
        f"{group}{p:03d},Name {p},{country},{group},finished,{1000 + p},\n"
        for p in range(1, size + 1)
    )


def test_advance_writes_exactly_the_qualifiers_with_their_next_group_and_reason(tmp_path, capsys):
    """wjpc-2025.txt, Individual First Round and Play-off; docs/qualification.md, Output."""
    text = HEADER + group_of("A", 86) + "N1,Nora,NOR,B,unfinished,,300\n" + group_of("B", 85)
    code, out, err = advance(tmp_path, capsys, text, *wjpc())
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "entry,name,country,group,rank,to_group,reason"
    assert len(lines) == 1 + 85 + 85 + 1
    assert lines[1] == "A001,Name 1,CZE,A,1,S1,place"
    assert "A086,Name 86,CZE,A,86,S1,place" not in lines
    assert lines[-1] == "N1,Nora,NOR,B,86,S1,playoff"


def test_advance_writes_json_naming_the_round_left_and_the_round_entered(tmp_path, capsys):
    """docs/qualification.md, Output: the JSON document."""
    code, out, _ = advance(tmp_path, capsys, HEADER + group_of("A", 2), *wjpc("--format", "json"))
    document = json.loads(out)
    assert code == 0
    assert {k: document[k] for k in ("ruleset", "event", "round", "to_round")} == {
        "ruleset": "wjpc-2025",
        "event": "individual",
        "round": "first",
        "to_round": "second",
    }
    assert document["qualifiers"][0] == {
        "entry": "A001",
        "name": "Name 1",
        "country": "CZE",
        "group": "A",
        "rank": 1,
        "to_group": "S1",
        "reason": "place",
        "tie_settled_by": "",
    }


def test_advance_applies_the_czech_quotas_from_the_residence_column(tmp_path, capsys):
    """czech-championship.txt, Qualification: 50 Czech residents and 5 foreigners per group."""
    rows = "".join(
        f"E{p},,{'SVK' if p <= 7 else 'CZE'},A,finished,{1000 + p},\n" for p in range(1, 70)
    )
    options = (
        "--ruleset",
        "czech-championship",
        "--event",
        "individual",
        "--round",
        "qualification",
    )
    code, out, _ = advance(tmp_path, capsys, HEADER + rows, *options)
    reasons = [line.rsplit(",", 1)[1] for line in out.splitlines()[1:]]
    assert code == 0
    assert (reasons.count("foreign"), reasons.count("national")) == (5, 50)


def test_advance_says_in_the_reason_column_when_and_how_a_tie_at_a_maximum_was_settled(
    tmp_path, capsys
):
    """czech-championship.txt: "a maximum of 5 foreign competitors"; of two foreigners tied
    on 0:16:50 for the 5th place, the one who assembled faster (fewer penalties) goes."""
    rows = "".join(f"F{p},,SVK,A,finished,{1000 + p},,\n" for p in range(1, 5))
    rows += "F5,,SVK,A,finished,1010,,\nF6,,SVK,A,finished,1000,,1\n"
    code, out, err = advance(
        tmp_path, capsys, "entry,name,country,group,status,time,pieces,missing\n" + rows,
        "--ruleset", "czech-championship", "--event", "individual", "--round", "qualification",
    )
    assert (code, err) == (0, "")
    assert out.splitlines()[1:] == [
        *(f"F{p},,SVK,A,{p},,foreign" for p in range(1, 5)),
        "F6,,SVK,A,5,,foreign; tie at the maximum settled by the time before penalties",
    ]


def test_advance_refuses_the_last_round_of_an_event(tmp_path, capsys):
    """wjpc-2025.txt, Individual Final: nobody advances from the final."""
    options = ("--ruleset", "wjpc-2025", "--event", "individual", "--round", "final")
    code, out, err = advance(tmp_path, capsys, HEADER + group_of("", 3), *options)
    assert (code, out) == (2, "")
    assert err == "error: round final is the last round of the event\n"


def test_advance_reports_every_bad_row_on_its_own_line_and_writes_nothing(tmp_path, capsys):
    """docs/formats.md: bad input exits 2 with one line per problem, nothing on stdout."""
    text = HEADER + "E1,,CZE,A,finished,soon,\nE2,,CZE,A,finished,9:99:99,\nE3,,CZE,A,late,,\n"
    code, out, err = advance(tmp_path, capsys, text, *wjpc())
    assert (code, out) == (2, "")
    assert len(err.splitlines()) == 3
    assert all("row" in line for line in err.splitlines())


def test_advance_refuses_a_group_the_ruleset_does_not_send_anywhere(tmp_path, capsys):
    """wjpc-2025.toml, to_group: groups A-F only."""
    code, out, err = advance(tmp_path, capsys, HEADER + group_of("Z", 2), *wjpc())
    assert (code, out) == (2, "")
    # Every row is named, with its entry and field (README: every error names its place).
    assert [line.split(": ", 1)[0].split(", ", 1)[1] for line in err.splitlines()] == [
        "row 2, entry Z001, field group", "row 3, entry Z002, field group"]
    assert "group 'Z' is not a group of round first (A, B, C, D, E, F), so it has no group in " \
        "round second" in err


def test_advance_names_every_bad_row_and_a_missing_group_column_in_one_run(tmp_path, capsys):
    """wjpc-2025.txt, Individual First Round: groups A-F. A file without a group column is
    told so for each row, with the other problems of the file in the same run."""
    text = "entry,name,country,time\nE1,,CZE,1000\nE2,,CZE,soon\n"
    code, out, err = advance(tmp_path, capsys, text, *wjpc())
    assert (code, out) == (2, "")
    lines = err.splitlines()
    assert len(lines) == 2
    assert "row 2, entry E1, field group: no group given: round first is played in groups" \
        in lines[0]
    assert "row 3, entry E2, field time" in lines[1]


def test_advance_needs_the_round(tmp_path, capsys):
    """`advance` has no default round: the organiser names the round being left."""
    with pytest.raises(SystemExit) as exc:
        advance(tmp_path, capsys, HEADER, "--ruleset", "wjpc-2025", "--event", "individual")
    assert exc.value.code == 2
