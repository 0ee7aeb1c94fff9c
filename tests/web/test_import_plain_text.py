"""Review findings 2 and 4 (values): every text cell of the people/entries import and of the
archive's results is one line of plain text (rules/limits.py), refused in the dry run naming
row and field, so a NUL never reaches PostgreSQL ("text fields cannot contain NUL"); a number
past its bound is named by its bound, however it is written (1e30)."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from puzzlecomp.championships.models import Championship, Entry, Person, Role
from puzzlecomp.championships.services.importing import import_check
from puzzlecomp.cli.main import main

HEADER = "entry,position,first_name,last_name,nationality,years_resident,birth_date,email\n"
MESSAGE = "holds a line break, a tab or another control character"


def dry_run(championship, client_as, body: str) -> str:
    client = client_as(championship, Role.ORGANISER)
    event = championship.events.get(code="individual")
    response = client.post(f"/control/{championship.slug}/data/import/", {
        "event": event.pk,
        "file": SimpleUploadedFile("people.csv", (HEADER + body).encode(), "text/csv")})
    assert response.status_code == 200
    confirm = client.post(f"/control/{championship.slug}/data/import/confirm/")
    assert confirm.status_code == 302, "nothing waits to be confirmed"
    return response.content.decode()


@pytest.mark.parametrize(("row", "field"), [
    (",1,A\x00,B,GER,,,\n", "first_name"),
    (",1,A,B\x01,GER,,,\n", "last_name"),
    (",1,A,B,GER\x00,,,\n", "nationality"),
    (",1,A,B,GER,,,a\tb@example.com\n", "email"),
    ("T1\x00,1,A,B,GER,,,\n", "entry"),
    (',1,"A\nB",B,GER,,,\n', "first_name"),
])
def test_a_control_character_in_any_cell_is_refused_in_the_dry_run(championship, client_as,
                                                                    row, field):
    page = dry_run(championship, client_as, row)
    assert f"row 2, field {field}: {MESSAGE}" in page
    assert "\x00" not in page
    assert not Entry.objects.exists()
    assert not Person.objects.exists()


def test_years_resident_past_its_bound_names_the_bound_however_written(championship):
    event = championship.events.get(code="individual")
    rows = [(2, {"entry": "T1", "first_name": "A", "last_name": "B", "nationality": "GER",
                 "years_resident": years}) for years in ("1e30", "151", "inf", "1.5e2", "x")]
    codes = [[(p.code, p.message) for p in import_check(event=event, rows=[row]).problems]
             for row in rows]
    assert codes == [
        [("import.too_large", "'1e30' is more than 150")],
        [("import.too_large", "'151' is more than 150")],
        [("import.too_large", "'inf' is more than 150")],
        [("import.not_a_number", "'1.5e2' is not a whole number")],
        [("import.not_a_number", "'x' is not a whole number")],
    ]


ARCHIVE = ("year,division,round,rank,entrant,country,completed,time_seconds,pieces,"
           "puzzle_pieces,time_limit_seconds,people\n")


@pytest.mark.django_db
@pytest.mark.parametrize(("row", "field"), [
    ("2031,solo,final,1,EZ\x00 2,Czech Republic,True,2795,,500,7200,PZ 9\n", "entrant"),
    ("2031,solo,final,1,EZ 2,Czech Republic,True,2795,,500,7200,PZ\x00 9\n", "people"),
    ("2031,solo,final,1,EZ 2,Czech\x00 Republic,True,2795,,500,7200,PZ 9\n", "country"),
    ("2031,solo,fi\tnal,1,EZ 2,Czech Republic,True,2795,,500,7200,PZ 9\n", "round"),
])
def test_archive_import_refuses_a_control_character_naming_row_and_field(tmp_path, capsys,
                                                                        row, field):
    path = tmp_path / "old-results.csv"
    path.write_text(ARCHIVE + row, encoding="utf-8")
    code = main(["archive", "import", str(path), "--ruleset", "wjpc-2025"])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    assert f"row 2, field {field}: {MESSAGE}" in err
    assert "\x00" not in err
    assert not Championship.objects.exists()
