"""The import applies the public form's age rules, naming row, entry and field, and reads an
optional accompanied_by_adult column (yes/no)."""

from __future__ import annotations

from puzzlecomp.championships.models import Entry, EntryMember, Role
from tests.web.test_import_export import data_url, dry_run, upload


def _child(championship) -> str:
    """A birth date ten years before the championship starts."""
    start = championship.starts_at.date()
    return start.replace(year=start.year - 10).isoformat()


def test_czech_under_16_is_refused_unless_accompanied_by_an_adult(make_championship, client_as):
    """czech-championship.txt, Registration: under 16 only when accompanied by an adult."""
    czech = make_championship("czech-championship")
    client = client_as(czech, Role.ORGANISER)
    born = _child(czech)
    rows = ("first_name,last_name,email,nationality,birth_date,consent_publish\n"
            f"Kid,Ten,kid@example.org,CZE,{born},yes\n")
    page = dry_run(client, czech, "individual", upload("people.csv", rows.encode()))
    assert "row 2, field accompanied_by_adult: Kid Ten is 10 on" in page
    assert "under 16 only when accompanied by an adult" in page
    assert "1 problem: nothing was imported" in page
    assert not Entry.objects.exists()
    rows = ("first_name,last_name,email,nationality,birth_date,consent_publish,"
            "accompanied_by_adult\n"
            f"Kid,Ten,kid@example.org,CZE,{born},yes,ano\n")
    page = dry_run(client, czech, "individual", upload("people.csv", rows.encode()))
    assert "Ready to import 1 entry" in page
    client.post(data_url("import_confirm", czech))
    assert EntryMember.objects.get().accompanied_by_adult is True


def test_wjpc_individual_under_14_is_refused(make_championship, client_as):
    """wjpc-2025.txt, Registration: individuals from 14; younger only in a pair or team with an
    adult."""
    wjpc = make_championship("wjpc-2025")
    client = client_as(wjpc, Role.ORGANISER)
    rows = ("first_name,last_name,email,nationality,birth_date,consent_publish,"
            "accompanied_by_adult\n"
            f"Kid,Ten,kid@example.org,ESP,{_child(wjpc)},yes,yes\n"
            "Ann,Lee,ann@example.org,ESP,1980-05-01,yes,maybe\n")
    page = dry_run(client, wjpc, "individual", upload("people.csv", rows.encode()))
    assert "row 2, field birth_date: Kid Ten is 9 on 31 December" in page
    assert "alone only from 14" in page
    assert "row 3, field accompanied_by_adult: 'maybe' is not yes or no" in page
    assert not Entry.objects.exists()
