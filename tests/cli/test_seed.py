"""`puzzlecomp seed`: entries seeded by their members' past results."""

from __future__ import annotations

import csv
import io

from puzzlecomp.cli.main import main

HEADER = ("year,division,round,rank,entrant,country,completed,time_seconds,pieces,puzzle_pieces,"
          "time_limit_seconds,people\n")
HISTORY = HEADER + """2024,solo,A,1,E1,Spain,True,3000.0,,500,5400,Pfast
2024,solo,A,2,E2,Spain,True,4000.0,,500,5400,Pslow
2024,solo,A,3,E3,Spain,False,,250.0,500,5400,Plast
2024,duo,A,1,D1,Spain,True,2000.0,,1000,7200,Pslow;Plast
"""


def write(tmp_path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def seed(tmp_path, entries: str, history: str = HISTORY, event: str = "individual") -> list[str]:
    return ["seed", write(tmp_path, "entries.csv", entries), "--history",
            write(tmp_path, "history.csv", history), "--event", event]


def test_seed_lists_entries_best_first_and_those_without_history_last(tmp_path, capsys):
    entries = "entry,person,name\n10,Pnew,Ann\n11,Plast,Bo\n12,Pfast,Cy\n13,Pslow,Di\n"
    assert main(seed(tmp_path, entries)) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [(r["entry"], r["person"], r["seed_rank"]) for r in rows] == [
        ("12", "Pfast", "1"), ("13", "Pslow", "2"), ("11", "Plast", "3"), ("10", "Pnew", "")
    ]
    assert float(rows[0]["rating"]) > float(rows[1]["rating"]) > float(rows[2]["rating"])
    assert rows[3]["rating"] == ""


def test_seed_rates_pairs_from_the_pairs_event_only(tmp_path, capsys):
    assert main(seed(tmp_path, "entry,person\n1,Pslow;Plast\n2,Pfast;Pnew\n", event="pairs")) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [(r["entry"], r["seed_rank"]) for r in rows] == [("1", "1"), ("2", "")]


def test_a_bad_history_row_exits_2_naming_file_row_and_field(tmp_path, capsys):
    history = HISTORY.replace("True,4000.0", "maybe,4000.0").replace("2024,duo", "2024,trio")
    assert main(seed(tmp_path, "entry,person\n1,Pfast\n", history)) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "history.csv, row 3, entry E2, field completed: 'maybe' is not True or False" in err
    assert "history.csv, row 5, entry D1, field division: 'trio' is not a division" in err


def test_an_unfinished_row_without_a_time_limit_is_refused(tmp_path, capsys):
    history = HISTORY.replace("250.0,500,5400", "250.0,500,")
    assert main(seed(tmp_path, "entry,person\n1,Pfast\n", history)) == 2
    assert "row 4, entry E3, field time_limit_seconds: the time_limit_seconds is blank" in (
        capsys.readouterr().err)


def test_entries_without_a_person_column_exit_2(tmp_path, capsys):
    assert main(seed(tmp_path, "entry,name\n1,Ann\n")) == 2
    assert "entries.csv, row 1, field person: the header has no person column" in (
        capsys.readouterr().err)


def test_a_repeated_entry_exits_2_naming_its_row(tmp_path, capsys):
    assert main(seed(tmp_path, "entry,person\n1,Pfast\n1,Pslow\n")) == 2
    assert "entries.csv, row 3, entry 1, field entry: entry 1 appears twice" in (
        capsys.readouterr().err)


def test_an_unknown_event_exits_2(tmp_path, capsys):
    assert main(seed(tmp_path, "entry,person\n1,Pfast\n", event="relay")) == 2
    assert "--event 'relay'" in capsys.readouterr().err


def test_seat_orders_a_first_round_by_history_before_typed_seed_ranks(tmp_path, capsys):
    """wjpc-2025.txt, Competition Area: the initial phase is seated by previous results."""
    entries = ("entry,person,seed_rank\n1,Pnew,1\n2,Pslow,2\n3,Pfast,3\n4,Punknown,\n")
    assert main(["seat", write(tmp_path, "entries.csv", entries), "--history",
                 write(tmp_path, "history.csv", HISTORY), "--ruleset", "wjpc-2025",
                 "--event", "individual"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [r["entry"] for r in rows] == ["3", "2", "1", "4"]


def test_groups_writes_the_seed_rank_the_history_gives(tmp_path, capsys):
    entries = "entry,person,country,seed_rank\n1,Pnew,ESP,1\n2,Pslow,ESP,\n3,Pfast,CZE,\n"
    assert main(["groups", write(tmp_path, "entries.csv", entries), "--history",
                 write(tmp_path, "history.csv", HISTORY), "--ruleset", "wjpc-2025",
                 "--event", "individual"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert {r["entry"]: r["seed_rank"] for r in rows} == {"3": "1", "2": "2", "1": "3"}


def test_seed_before_a_year_reads_only_the_editions_before_it(tmp_path, capsys):
    # The 2025 row would make Plast the fastest; seeding 2025 must not read 2025's own results.
    history = HISTORY + ("2025,solo,A,1,E9,Spain,True,1000.0,,500,5400,Plast\n"
                         "2025,solo,A,2,E1,Spain,True,5000.0,,500,5400,Pfast\n")
    entries = "entry,person\n1,Pfast\n2,Plast\n"
    assert main([*seed(tmp_path, entries, history), "--before", "2025"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [(r["entry"], r["seed_rank"]) for r in rows] == [("1", "1"), ("2", "2")]
    assert main(seed(tmp_path, entries, history)) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [(r["entry"], r["seed_rank"]) for r in rows] == [("2", "1"), ("1", "2")]


# A 500-piece first round (the file says 1000, as ../shared/data does): Pg;Ph placed 450 of its
# 500 pieces, nearly done, not 45 %.
PAIRS_SIZES = HEADER + """2024,duo,A,1,D1,Spain,True,1200.0,,1000,5400,Pa;Pb
2024,duo,A,2,D2,Spain,True,1300.0,,1000,5400,Pe;Pf
2024,duo,A,3,D5,Spain,False,,450.0,1000,5400,Pg;Ph
2024,duo,final,1,D3,Spain,True,3000.0,,1000,7200,Pc;Pd
2024,duo,final,2,D4,Spain,True,3100.0,,1000,7200,Pe;Pf
"""


def test_seed_rates_by_the_rules_puzzle_sizes_not_the_files(tmp_path, capsys):
    """wjpc-2025.txt, Pairs First Round: 500 pieces, Final Pairs 1000 (archive review finding
    5): the seed reads the sizes as the archive stores them (formats/archive_sizes.py)."""
    from puzzlecomp.cli.seed import ratings_from_file
    from puzzlecomp.formats.archive_sizes import rules_sized
    from puzzlecomp.formats.history_csv import past_results, read_history
    from puzzlecomp.planning.rating import rate_people
    from puzzlecomp.rules.loading import load_ruleset
    path = write(tmp_path, "history.csv", PAIRS_SIZES)
    rows = read_history(PAIRS_SIZES, source=path)
    sized = rules_sized(rows, source=path, ruleset=load_ruleset("wjpc-2025"))
    assert [r.puzzle_pieces for r in sized] == [500, 500, 500, 1000, 1000]
    ratings = ratings_from_file(path, "pairs")
    assert ratings == rate_people(past_results(sized, event="pairs"))
    assert ratings != rate_people(past_results(rows, event="pairs"))
