"""Issue 22, finding 8: `archive import` answers numbers past the domain's bounds
(rules/limits.py) with exit status 2 and one line per problem naming file, row and field, never
a traceback, and refuses a team of thousands and a puzzle of 10^9 pieces. The bounds come from
the rulebooks: WJPC 2025 "Teams" (three or four people) and the Czech blind and relay rules
(teams of four, 1,000 pieces at most in one puzzle, five hours at most)."""

from __future__ import annotations

import pytest

from puzzlecomp.championships.models import Championship, Person
from puzzlecomp.cli.main import main
from tests.web.test_archive import HEADER

GOOD = "2023,solo,A,1,E1,Spain,True,3000.0,,500,5400,P1\n"
TEAM_OF_5000 = ";".join(f"P{i}" for i in range(5_000))


@pytest.mark.django_db
@pytest.mark.parametrize(("row", "field"), [
    ("99999,solo,A,2,E2,Spain,True,3000.0,,500,5400,P2", "year"),
    ("1e30,solo,A,2,E2,Spain,True,3000.0,,500,5400,P2", "year"),
    ("2023,solo,A,99999999999999999999999,E2,Spain,True,3000.0,,500,5400,P2", "rank"),
    ("2023,solo,A,2,E2,Spain,True,1e30,,500,5400,P2", "time_seconds"),
    ("2023,solo,A,2,E2,Spain,True,1e400,,500,5400,P2", "time_seconds"),
    ("2023,solo,A,2,E2,Spain,False,,1e30,500,5400,P2", "pieces"),
    ("2023,solo,A,2,E2,Spain,True,3000.0,,1000000000,5400,P2", "puzzle_pieces"),
    ("2023,solo,A,2,E2,Spain,True,3000.0,,500,99999999999999,P2", "time_limit_seconds"),
    (f"2023,group,A,1,T1,Spain,True,3000.0,,1000,10800,{TEAM_OF_5000}", "people"),
])
def test_a_number_past_its_bound_exits_2_naming_file_row_and_field(tmp_path, capsys, row,
                                                                   field):
    path = tmp_path / "history.csv"
    path.write_text(HEADER + GOOD + row + "\n", encoding="utf-8")
    assert main(["archive", "import", str(path), "--ruleset", "wjpc-2025"]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert "Traceback" not in "\n".join(lines)
    assert [line for line in lines if "row 3, entry " in line and f"field {field}:" in line
            and str(path) in line], lines
    assert not Championship.objects.exists()
    assert not Person.objects.exists()


@pytest.mark.django_db
def test_every_bad_number_of_a_file_is_named_on_its_own_line(tmp_path, capsys):
    path = tmp_path / "history.csv"
    path.write_text(HEADER + GOOD + "2023,solo,A,2,E2,Spain,True,1e30,,1000000000,5400,P2\n",
                    encoding="utf-8")
    assert main(["archive", "import", str(path), "--ruleset", "wjpc-2025"]) == 2
    err = capsys.readouterr().err
    assert "row 3, entry E2, field time_seconds: 1e+30 is out of range (0 to 86400)" in err
    assert "row 3, entry E2, field puzzle_pieces: 1e+09 is out of range (1 to 100000)" in err


@pytest.mark.django_db
def test_a_title_of_two_lines_is_refused(tmp_path, capsys):
    path = tmp_path / "history.csv"
    path.write_text(HEADER + GOOD, encoding="utf-8")
    assert main(["archive", "import", str(path), "--ruleset", "wjpc-2025",
                 "--title", "WJPC\nfake"]) == 2
    assert "a name is one line" in capsys.readouterr().err
    assert not Championship.objects.exists()


@pytest.mark.django_db
def test_the_largest_real_values_are_inside_the_bounds(tmp_path, capsys):
    """A four-person team, a 1,000-piece puzzle and five hours (the Czech relay) import."""
    path = tmp_path / "history.csv"
    path.write_text(HEADER + "2023,group,A,1,T1,Spain,True,17999,,1000,18000,P1;P2;P3;P4\n",
                    encoding="utf-8")
    assert main(["archive", "import", str(path), "--ruleset", "wjpc-2025"]) == 0
