"""The pump's one-second poll only reads: it opens no transaction, so on SQLite it never
holds the writer's turn that the judges' records queue for (issue 11, the judges' tail); its
one write (a round past its limit moves to counting) queues with them."""

from __future__ import annotations

import datetime as dt

from django.db import connection
from django.utils import timezone

from puzzlecomp.championships.models import RoundState
from puzzlecomp.championships.services import sqlite_writer
from puzzlecomp.live import pump
from tests.live.entries import enter, finish


def test_a_poll_while_no_round_is_past_its_limit_reads_outside_any_transaction(live_round):
    championship = live_round.event.championship
    statements: list[tuple[str, bool]] = []

    def note(execute, sql, params, many, context):
        statements.append((sql.lstrip().split(None, 1)[0].upper(), connection.in_atomic_block))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(note):
        seen, _ = pump.poll(None, {championship.slug})
    finish(live_round, enter(live_round, 4, "Dana Dahl", "NO", table=4), 3100)
    with connection.execute_wrapper(note):
        _, notices = pump.poll(seen, {championship.slug})
    assert [n["seq"] for n in notices] == [seen[championship.pk] + 1]
    assert {kind for kind, _ in statements} == {"SELECT"}
    assert not any(in_transaction for _, in_transaction in statements)


def test_the_poll_that_moves_a_round_past_its_limit_writes_in_the_writers_turn(live_round):
    """Outside the turn, SQLite's busy handler would keep the pump (and every notice) asleep
    while the judges' records of the round's last seconds pass it by."""
    live_round.starts_at = timezone.now() - dt.timedelta(days=1)
    live_round.save(update_fields=["starts_at"])
    writes: list[tuple[str, bool]] = []

    def note(execute, sql, params, many, context):
        if sql.lstrip().split(None, 1)[0].upper() in ("INSERT", "UPDATE", "DELETE"):
            writes.append((sql[:60], sqlite_writer._threads.locked()))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(note):
        pump.poll(None, set())
    live_round.refresh_from_db()
    assert live_round.state == RoundState.COUNTING
    assert writes
    if connection.vendor == "sqlite":
        assert [sql for sql, in_turn in writes if not in_turn] == []
