"""A birth date no entrant could have is refused with a line naming row and field, and nothing
is imported (issue 30: no mistyped fact reaches an age category)."""

from __future__ import annotations

import datetime as dt

from puzzlecomp.championships.models import Entry, Person
from puzzlecomp.rules.birth_dates import birth_date_plausible
from tests.web.test_import_export import dry_run, organiser, upload

__all__ = ["organiser"]  # fixture


def test_a_birth_date_is_plausible_from_110_years_before_the_start_until_the_day_before():
    start = dt.date(2025, 9, 26)
    assert birth_date_plausible(dt.date(1915, 1, 1), competition_start=start)
    assert birth_date_plausible(dt.date(2025, 9, 25), competition_start=start)
    assert not birth_date_plausible(dt.date(1914, 12, 31), competition_start=start)
    assert not birth_date_plausible(dt.date(2025, 9, 26), competition_start=start)


def test_an_implausible_birth_date_names_row_and_field_and_imports_nothing(championship,
                                                                           organiser):
    start = championship.starts_at.date()
    rows = ("first_name,last_name,email,nationality,birth_date,consent_publish\n"
            "Ann,Lee,ann@example.org,ESP,1980-05-01,yes\n"
            "Bob,Kim,bob@example.org,ESP,1850-01-01,yes\n"
            f"Cy,Ng,cy@example.org,ESP,{start.year + 1}-01-01,yes\n")
    page = dry_run(organiser, championship, "individual", upload("people.csv", rows.encode()))
    assert ("row 3, field birth_date: '1850-01-01' is not a plausible birth date for a "
            f"championship starting on {start.isoformat()}") in page
    assert f"row 4, field birth_date: '{start.year + 1}-01-01' is not a plausible" in page
    assert "2 problems: nothing was imported" in page
    assert not Entry.objects.exists()
    assert not Person.objects.exists()
