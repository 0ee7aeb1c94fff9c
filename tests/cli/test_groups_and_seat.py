"""`puzzlecomp groups` and `puzzlecomp seat`: the planning commands."""

from __future__ import annotations

import csv
import io
import json

from puzzlecomp.cli.main import main

COUNTRIES = ["ESP", "CZE", "USA", "GBR", "FRA", "GER", "NOR"]


def entries_file(tmp_path, count: int, *, extra: str = "") -> str:
    lines = ["entry,name,country,seed_rank"]
    lines += [f"E{i:04d},P{i},{COUNTRIES[i % 7]},{i + 1}" for i in range(count)]
    path = tmp_path / "entries.csv"
    path.write_text("\n".join(lines) + "\n" + extra, encoding="utf-8")
    return str(path)


def test_groups_puts_every_entry_in_one_wjpc_group_and_reports_balance(tmp_path, capsys):
    """wjpc-2025.txt, Group Assignment for First Round: sizes and countries evenly spread."""
    assert main(["groups", entries_file(tmp_path, 600), "--ruleset", "wjpc-2025",
                 "--event", "individual", "--seed", "7"]) == 0
    out, err = capsys.readouterr()
    rows = list(csv.DictReader(io.StringIO(out)))
    assert len(rows) == 600
    assert {row["group"] for row in rows} == set("ABCDEF")
    balance = json.loads(err.removeprefix("balance: "))
    assert balance["max_size_difference"] == 0
    assert balance["max_country_spread"] <= 1


def test_groups_is_reproducible_from_its_seed(tmp_path, capsys):
    path = entries_file(tmp_path, 120)
    outputs = []
    for _ in range(2):
        main(["groups", path, "--ruleset", "wjpc-2025", "--event", "pairs", "--seed", "3",
              "--format", "json"])
        outputs.append(json.loads(capsys.readouterr().out)["groups"])
    assert outputs[0] == outputs[1]


def test_mixed_pairs_are_spread_as_one_flag_not_as_a_country(tmp_path, capsys):
    """wjpc-2025.txt, Mixed pairs / teams: they compete under the WJPF flag."""
    path = tmp_path / "pairs.csv"
    path.write_text("entry,country\n" + "".join(f"M{i},CZE/GER\n" for i in range(8)),
                    encoding="utf-8")
    main(["groups", str(path), "--ruleset", "wjpc-2025", "--event", "pairs",
          "--format", "json"])
    document = json.loads(capsys.readouterr().out)
    assert document["balance"]["sizes"] == {"A": 2, "B": 2, "C": 2, "D": 2}


def test_seat_shares_first_round_tables_two_by_two_in_seeding_order(tmp_path, capsys):
    """wjpc-2025.txt, Competition Area: in the first phases all competitors share tables."""
    assert main(["seat", entries_file(tmp_path, 10), "--ruleset", "wjpc-2025",
                 "--event", "individual"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [(r["table"], r["seat"], r["entry"]) for r in rows[:3]] == [
        ("1", "1", "E0000"), ("1", "2", "E0001"), ("2", "1", "E0002")
    ]


def test_seat_puts_the_top_8_of_each_previous_group_alone(tmp_path, capsys):
    """wjpc-2025.txt: the top 8 of each group sit at a single table in the next round."""
    path = tmp_path / "qualifiers.csv"
    lines = ["entry,name,country,group,rank,to_group,reason"]
    lines += [f"{g}{i},,ESP,{g},{i},S1,place" for g in "AB" for i in range(1, 21)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["seat", str(path), "--ruleset", "wjpc-2025", "--event", "individual",
                 "--round", "second", "--group", "S1"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    alone = [r["entry"] for r in rows if sum(o["table"] == r["table"] for o in rows) == 1]
    assert alone[:4] == ["A1", "B1", "A2", "B2"]
    assert len(alone) == 16
    assert max(int(r["table"]) for r in rows) == 16 + 12


def test_seat_refuses_a_hall_that_is_too_small(tmp_path, capsys):
    code = main(["seat", entries_file(tmp_path, 30), "--ruleset", "wjpc-2025",
                 "--event", "individual", "--rows", "4,4", "--guest-tables", "0"])
    assert code == 2
    assert "needs 15 tables" in capsys.readouterr().err


def test_a_bad_entries_row_is_named(tmp_path, capsys):
    path = entries_file(tmp_path, 3, extra="E0001,Dup,ESP,x\n")
    assert main(["groups", path, "--ruleset", "wjpc-2025", "--event", "individual"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "row 5, entry E0001, field seed_rank: 'x' is not a whole number" in err
    assert "row 5, entry E0001, field entry: entry E0001 appears twice" in err
