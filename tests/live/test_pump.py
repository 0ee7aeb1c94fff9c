"""The pump's one-second poll only reads: it opens no transaction, so on SQLite it never
holds the writer's turn that the judges' records queue for (issue 11, the judges' tail)."""

from __future__ import annotations

from django.db import connection

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
