"""The same suite runs on SQLite (default) and on PostgreSQL (TEST_DATABASE_URL, set by .ci/run)."""

from __future__ import annotations

import os
import threading
import time

import pytest
from django.contrib.auth.models import Group
from django.db import connection

from puzzlecomp.settings.base import database_from_env


def test_sqlite_runs_in_wal_mode_with_immediate_transactions(monkeypatch, tmp_path):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    database = database_from_env(tmp_path / "db.sqlite3")
    assert database["ENGINE"] == "django.db.backends.sqlite3"
    assert database["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert "journal_mode=WAL" in database["OPTIONS"]["init_command"]


def test_database_url_selects_postgresql(monkeypatch, tmp_path):
    monkeypatch.setenv("DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/puzzlecomp")
    assert database_from_env(tmp_path / "x")["ENGINE"] == "django.db.backends.postgresql"


@pytest.mark.django_db
def test_the_suite_runs_on_postgresql_when_asked():
    if not os.environ.get("TEST_DATABASE_URL"):
        pytest.skip("PostgreSQL run: set TEST_DATABASE_URL (.ci/run does)")
    assert connection.vendor == "postgresql"


@pytest.mark.django_db(transaction=True)
def test_a_write_on_the_in_memory_database_waits_for_a_read_in_another_thread():
    """The live servers' threads share the in-memory test database, which reports a table read
    elsewhere as locked at once; tests/conftest.py makes the write wait, as on the file."""
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's shared cache only")
    Group.objects.bulk_create([Group(name=f"group {number}") for number in range(3)])
    reading, read = threading.Event(), threading.Event()

    def read_slowly() -> None:
        from django.db import connection as own

        try:
            with own.cursor() as cursor:
                cursor.execute("SELECT name FROM auth_group")
                cursor.fetchone()  # the statement stays open on the rows left
                reading.set()
                time.sleep(0.2)
                cursor.fetchall()
                read.set()
        finally:
            own.close()

    reader = threading.Thread(target=read_slowly)
    reader.start()
    assert reading.wait(5)
    Group.objects.filter(name="group 0").update(name="renamed")
    assert read.is_set()
    reader.join(5)
    assert Group.objects.filter(name="renamed").exists()
