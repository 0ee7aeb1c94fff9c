"""The judges' records read and write rows in plain SQL (championships/plain_sql.py, issue 11):
what it reads equals what the ORM reads, and what it writes the ORM reads back, on SQLite and
on PostgreSQL (CI runs this folder on both)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection, transaction
from django.db.models import Model

from puzzlecomp.championships.engine import round_pieces
from puzzlecomp.championships.models import Entry, Puzzle, Result, Round, Seat
from puzzlecomp.championships.plain_sql import (
    columns,
    execute,
    fetch,
    insert,
    quoted,
    table,
    update,
)
from puzzlecomp.championships.selectors.recording import record_target_get
from tests.judging.support import pair_device

pytestmark = pytest.mark.django_db(transaction=True)


def stored(instance: Model) -> dict[str, Any]:
    """Every stored field's value (model equality compares ids only)."""
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


@pytest.fixture
def result(live_round: Round) -> Result:
    entry = Seat.objects.filter(round=live_round).order_by("table", "seat").first().entry
    return Result.objects.create(
        round=live_round, entry=entry, status="finished", time_seconds=2345, missing=2,
        missing_contiguous=1, checked=False, note="Ještě jednou: «dílek»",
        puzzles=[{"pieces": 500, "time_seconds": 2345}],
        second_looks=[{"code": "same_time", "message": "", "params": {"tables": [3]}}])


@pytest.mark.parametrize("name", ["table", "group", "championships_result", 'odd"name'])
def test_names_are_quoted_as_the_database_quotes_them(name):
    assert quoted(name) == connection.ops.quote_name(name) or '"' in name
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT 1 AS {quoted(name)}")
        assert cursor.fetchone() == (1,)


def test_a_row_read_in_plain_sql_equals_the_one_the_orm_reads(result):
    sql = (f"SELECT {columns(Result, 'r')}, {columns(Seat, 's')}, {columns(Entry, 'n')}, "
           f"s.{quoted('table')} * 10 FROM {table(Result)} r "
           f"JOIN {table(Seat)} s ON s.round_id = r.round_id AND s.entry_id = r.entry_id "
           f"JOIN {table(Entry)} n ON n.id = r.entry_id WHERE r.id = %s")
    ((row, seat, entry, tens),) = fetch(sql, [result.pk], Result, Seat, Entry)
    assert stored(row) == stored(Result.objects.get(pk=result.pk))
    assert stored(seat) == stored(Seat.objects.get(round=result.round, entry=result.entry))
    assert stored(entry) == stored(Entry.objects.get(pk=result.entry_id))
    assert tens == seat.table * 10
    assert row._state.adding is False


def test_an_outer_join_that_finds_no_row_gives_none(result):
    sql = (f"SELECT {columns(Round, 'r')}, {columns(Seat, 's')} FROM {table(Round)} r "
           f"LEFT JOIN {table(Seat)} s ON s.round_id = r.id AND s.{quoted('table')} = 999 "
           "WHERE r.id = %s")
    ((rnd, seat),) = fetch(sql, [result.round_id], Round, Seat)
    assert stored(rnd) == stored(Round.objects.get(pk=result.round_id))
    assert seat is None


def test_an_inserted_row_reads_back_as_written_with_its_defaults(live_round):
    entry = Seat.objects.filter(round=live_round).order_by("table", "seat").last().entry
    with transaction.atomic():
        row = insert(Result(round=live_round, entry=entry, status="finished", time_seconds=61,
                            puzzles=[{"pieces": 1000}]))
    assert row.pk is not None
    assert row.recorded_at is not None
    again = Result.objects.get(pk=row.pk)
    assert stored(again) == stored(row)
    assert again.version == 1
    assert again.second_looks == []


def test_an_update_stores_every_field_and_moves_the_time_it_was_recorded(result):
    before = Result.objects.get(pk=result.pk).recorded_at
    result.status, result.time_seconds, result.note = "dnf", None, "gave up"
    result.second_looks = []
    with transaction.atomic():
        update(result)
    again = Result.objects.get(pk=result.pk)
    assert stored(again) == stored(result)
    assert again.recorded_at >= before


@pytest.mark.parametrize("sizes", [[], [1000], [1000, 1000], [500, 1000], [None, 0, 1000],
                                   [None, 0]])
def test_a_records_puzzle_size_is_the_one_the_round_page_uses(live_round, sizes):
    """The one size a round's puzzles share (or none, with several or none given), read in
    plain SQL for a judge's record as the ORM reads it for the round's rules."""
    live_round.puzzles.all().delete()
    Puzzle.objects.bulk_create(Puzzle(round=live_round, position=n, pieces=pieces)
                               for n, pieces in enumerate(sizes))
    device, _token = pair_device(live_round.event.championship, 1, 2)
    target = record_target_get(device, round_id=live_round.pk, entry_number=1)
    assert target is not None
    expected = {(): None, (1000,): 1000, (1000, 1000): 1000, (500, 1000): None,
                (None, 0, 1000): 1000, (None, 0): None}[tuple(sizes)]
    assert target.puzzle_size == round_pieces(Round.objects.get(pk=live_round.pk)) == expected


@pytest.mark.skipif(connection.vendor != "postgresql", reason="prepared statements: PostgreSQL")
def test_on_postgresql_the_judges_statements_are_prepared_after_a_few_uses(result):
    sql = f"SELECT {columns(Result, 'r')} FROM {table(Result)} r WHERE r.id = %s"
    for _ in range(6):
        fetch(sql, [result.pk], Result)
    prepared = execute("SELECT statement FROM pg_prepared_statements", [])
    assert any(statement.startswith(sql.split(" FROM")[0].replace("%s", "$1")[:40])
               for (statement,) in prepared)
