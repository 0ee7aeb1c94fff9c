"""The same suite runs on SQLite (default) and on PostgreSQL (TEST_DATABASE_URL, set by .ci/run)."""

from __future__ import annotations

import os

import pytest
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
