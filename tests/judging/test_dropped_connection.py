"""Issue 22, finding 8: a PostgreSQL connection dropped between two records (a restart, a
pooler, a network cut) costs the next record nothing: the connection's health check
(CONN_HEALTH_CHECKS) runs before the judges' plain SQL too (championships/plain_sql.py), which
took the dead connection as it was and answered 500. The records go through the server's own
path (web/asgi.py, on the judges' request thread, with Django's request signals: the test
client leaves out the one that arms the health check). PostgreSQL only (.ci/run runs the
judging tests there)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator

import psycopg
import pytest
from django.db import connection, connections

from puzzlecomp.web import asgi
from tests.web.test_request_threads import call

pytestmark = pytest.mark.django_db(transaction=True)


def drop_other_connections() -> int:
    """End the server processes behind every other connection to the test database (the
    judges' thread's among them), as a PostgreSQL restart would; how many."""
    settings = connection.settings_dict
    with psycopg.connect(host=settings["HOST"], port=settings["PORT"] or 5432,
                         user=settings["USER"], password=settings["PASSWORD"],
                         dbname=connection.settings_dict["NAME"], autocommit=True) as admin:
        return len(admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = "
            "current_database() AND pid NOT IN (pg_backend_pid(), %s)",
            [connection.connection.info.backend_pid]).fetchall())


def record(token: str, round_id: int, entry: int, seconds: int) -> int:
    """A judge's tap through the ASGI application; its status."""
    body = json.dumps({"client_id": str(uuid.uuid4()), "round_id": round_id, "entry": entry,
                       "base_version": 0, "action": "tap", "puzzle": None,
                       "values": {"time_seconds": seconds}}).encode()
    sent = call("/api/v1/device/results", body, headers=[
        (b"authorization", f"Bearer {token}".encode()),
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())])
    return int(sent[0]["status"])


@pytest.fixture
def judges_thread_closes() -> Iterator[None]:
    """The judges' thread's connection is closed after the test (the test database is
    dropped at the end, and may have no other users then)."""
    yield
    asgi.judges_application.executor.submit(connections.close_all).result()


def test_a_dropped_connection_costs_the_next_record_nothing(paired, live_round,
                                                           judges_thread_closes):
    if connection.vendor != "postgresql":
        pytest.skip("only PostgreSQL's connections can be dropped under the app")
    connection.ensure_connection()
    token = paired[1]
    assert record(token, live_round.pk, 1, 540) == 200
    assert drop_other_connections() >= 1
    assert record(token, live_round.pk, 3, 600) == 200
