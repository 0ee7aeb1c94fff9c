"""A round's results as CSV, XLSX and PDF: the engine's ranking with tables, recorded times and
qualification, and text cells that a spreadsheet never runs as formulas."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from puzzlecomp.championships.models import Entry, Result, Role, Round, RoundState, Seat
from puzzlecomp.championships.selectors.lists import Table
from puzzlecomp.championships.services.exporting import guard_formula, table_csv, table_xlsx
from puzzlecomp.championships.services.qualifiers import qualifier_withdraw, qualifiers_confirm
from puzzlecomp.championships.services.results import result_record
from puzzlecomp.championships.services.rounds import round_state_set
from puzzlecomp.championships.services.seating import seating_assign
from puzzlecomp.rules.results import Status
from tests.web.test_groups import add_entries, first_round

HEADER = ["rank", "official_rank", "entry", "name", "country", "group", "table", "status", "time",
          "penalty_seconds", "final_time", "pieces", "qualified", "to_group", "reason"]


def export_url(rnd: Round, fmt: str) -> str:
    return reverse("control:rounds:export", args=[rnd.event.championship.slug, rnd.pk, fmt])


@pytest.fixture
def ranked(championship) -> Round:
    """Groups A (3 entries) and B (2), seated, with a finish, a finish with 2 pieces missing, a
    count and a disqualification; entry 5's name starts like a formula."""
    rnd = first_round(championship)
    a = add_entries(rnd.event, {"CZ": 3})
    b = add_entries(rnd.event, {"NO": 2})
    Entry.objects.filter(pk__in=[e.pk for e in a]).update(group="A")
    Entry.objects.filter(pk__in=[e.pk for e in b]).update(group="B")
    Entry.objects.filter(pk=b[1].pk).update(name="=HYPERLINK(\"http://x\",\"Win\")")
    seating_assign(round=rnd, groups=["A", "B"])
    result_record(round=rnd, entry=a[0], status=Status.FINISHED, time_seconds=3000)
    result_record(round=rnd, entry=a[1], status=Status.FINISHED, time_seconds=2995, missing=2)
    result_record(round=rnd, entry=a[2], status=Status.UNFINISHED, pieces=420)
    result_record(round=rnd, entry=b[0], status=Status.DSQ)
    result_record(round=rnd, entry=b[1], status=Status.FINISHED, time_seconds=4000)
    return rnd


@pytest.fixture
def judge(championship, client_as):
    return client_as(championship, Role.JUDGE)


def csv_rows(response) -> list[list[str]]:
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))


def xlsx_rows(response) -> list[list]:
    assert response.status_code == 200
    workbook = load_workbook(io.BytesIO(response.content))
    return [list(row) for row in workbook.active.iter_rows(values_only=True)]


def test_the_csv_has_every_column_group_by_group_in_the_engines_order(judge, ranked):
    """wjpc-2025.txt: each group is ranked on its own; each missing piece costs 5 seconds."""
    response = judge.get(export_url(ranked, "csv"))
    assert response["Content-Disposition"] == (
        f'attachment; filename="{ranked.event.championship.slug}-individual-first-results.csv"')
    rows = csv_rows(response)
    assert rows[0] == HEADER
    by_entry = {row[2]: dict(zip(HEADER, row, strict=True)) for row in rows[1:]}
    assert [row[5] for row in rows[1:]] == ["A", "A", "A", "B", "B"]
    assert [row[0] for row in rows[1:]] == ["1", "2", "3", "1", ""]
    assert [row[2] for row in rows[1:]] == ["1", "2", "3", "5", "4"]
    fastest, missing, counted, dsq = (by_entry[str(n)] for n in (1, 2, 3, 4))
    assert (fastest["time"], fastest["final_time"], fastest["penalty_seconds"]) == (
        "0:50:00", "0:50:00", "0")
    # 5 seconds per missing piece: 49:55 becomes 50:05, behind 50:00.
    assert (missing["time"], missing["penalty_seconds"], missing["final_time"],
            missing["rank"]) == ("0:49:55", "10", "0:50:05", "2")
    assert (counted["status"], counted["pieces"], counted["time"]) == ("unfinished", "420", "")
    assert (dsq["status"], dsq["rank"]) == ("dsq", "")
    tables = dict(Seat.objects.filter(round=ranked).values_list("entry__number", "table"))
    assert [row[6] for row in rows[1:]] == [str(tables[int(row[2])]) for row in rows[1:]]
    # Before confirmation the engine's forecast: everyone ranked in groups of 85 goes on.
    assert (fastest["qualified"], fastest["to_group"], fastest["reason"]) == (
        "forecast", "S1", "place")
    assert dsq["qualified"] == ""


def test_text_that_starts_like_a_formula_is_kept_as_text(judge, ranked):
    """A name such as =HYPERLINK(...) must not run in the organiser's spreadsheet."""
    name = "=HYPERLINK(\"http://x\",\"Win\")"
    csv_names = [row[3] for row in csv_rows(judge.get(export_url(ranked, "csv")))]
    assert f"'{name}" in csv_names
    xlsx = xlsx_rows(judge.get(export_url(ranked, "xlsx")))
    cell = next(row[3] for row in xlsx if str(row[3]).endswith("Win\")"))
    assert cell == f"'{name}"
    workbook = load_workbook(io.BytesIO(judge.get(export_url(ranked, "xlsx")).content))
    assert all(c.data_type != "f" for row in workbook.active.iter_rows() for c in row)


@pytest.mark.parametrize(("text", "kept"), [
    ("=1+1", "'=1+1"), ("+420 123", "'+420 123"), ("-Team", "'-Team"), ("@SUM(A1)", "'@SUM(A1)"),
    ("\tTab", "'\tTab"), ("Ana Øye", "Ana Øye"), ("", ""), ("1-2", "1-2"),
])
def test_the_formula_guard_marks_only_text_a_spreadsheet_would_run(text, kept):
    assert guard_formula(text) == kept


def test_every_download_gains_the_guard_numbers_stay_numbers(championship):
    """The guard is in the shared CSV/XLSX writer, so every list download has it."""
    table = Table("t", ("name", "penalty"), [("=cmd|' /C calc'!A0", -5), ("Ana", 10)])
    text = table_csv(table).decode("utf-8-sig")
    assert text.splitlines() == ["name,penalty", "'=cmd|' /C calc'!A0,-5", "Ana,10"]
    sheet = load_workbook(io.BytesIO(table_xlsx(table))).active
    assert [c.value for c in sheet[2]] == ["'=cmd|' /C calc'!A0", -5]


def test_the_entry_list_download_is_guarded_too(championship, judge):
    event = championship.events.get(code="individual")
    entry = add_entries(event, {"CZ": 1})[0]
    Entry.objects.filter(pk=entry.pk).update(name="@evil")
    response = judge.get(reverse("control:data:entries", args=[championship.slug, event.code,
                                                                "csv"]))
    assert "'@evil" in response.content.decode("utf-8-sig")


def test_the_xlsx_has_the_same_columns_and_rows_as_the_csv(judge, ranked):
    csv_table = csv_rows(judge.get(export_url(ranked, "csv")))
    xlsx_table = xlsx_rows(judge.get(export_url(ranked, "xlsx")))
    assert xlsx_table[0] == HEADER
    as_text = [["" if v is None else str(v) for v in row] for row in xlsx_table]
    assert as_text == csv_table


def test_confirmed_and_withdrawn_qualifiers_show_in_the_files(judge, ranked):
    round_state_set(round=ranked, state=RoundState.PUBLISHED)
    qualifiers_confirm(round=ranked, knowingly=True)
    qualifier_withdraw(round=ranked, entry_number=1, lapse=True)
    rows = {row[2]: row for row in csv_rows(judge.get(export_url(ranked, "csv")))[1:]}
    assert rows["1"][12:] == ["withdrawn", "S1", "place"]
    assert rows["2"][12:] == ["yes", "S1", "place"]
    assert rows["4"][12:] == ["", "", ""]


def test_the_pdf_has_a_section_per_group_with_every_entry(judge, ranked):
    response = judge.get(export_url(ranked, "pdf"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    content = response.content
    assert content.startswith(b"%PDF")
    assert b"(Group A)" in content
    assert b"(Group B)" in content
    assert b"(Group C)" not in content


def test_the_last_round_exports_without_qualification(judge, ranked):
    final = Round.objects.get(event=ranked.event, code="final")
    rows = csv_rows(judge.get(export_url(final, "csv")))
    assert rows == [HEADER]


def test_an_unknown_format_is_not_found(judge, ranked):
    assert judge.get(export_url(ranked, "docx")).status_code == 404


def test_results_the_engine_cannot_rank_give_a_message_not_a_file(judge, ranked):
    Result.objects.filter(round=ranked, entry__number=1).update(time_seconds=None)
    response = judge.get(export_url(ranked, "csv"), follow=True)
    assert response["Content-Type"].startswith("text/html")
    assert "Entry 1: A finished result needs its time." in response.content.decode()


def test_competitors_cannot_download_round_results(championship, client_as, ranked):
    competitor = client_as(championship, Role.COMPETITOR)
    for fmt in ("csv", "xlsx", "pdf"):
        assert competitor.get(export_url(ranked, fmt)).status_code == 403


def test_the_rounds_page_links_every_download_and_organisers_see_more(championship, client_as,
                                                                       ranked):
    address = reverse("control:rounds:index", args=[championship.slug])
    page = client_as(championship, Role.JUDGE).get(address).content.decode()
    for fmt in ("csv", "xlsx", "pdf"):
        assert export_url(ranked, fmt) in page
    assert "qualifiers/" not in page
    assert "championship.json" not in page
    page = client_as(championship, Role.ORGANISER).get(address).content.decode()
    assert reverse("control:rounds:qualifiers", args=[championship.slug, ranked.pk]) in page
    assert reverse("control:rounds:championship_download", args=[championship.slug]) in page
