"""Fixtures shared by every test: rulesets, rounds and the published-results folder."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings

from puzzlecomp.rules.loading import load_ruleset
from puzzlecomp.rules.results import Entry, Result
from puzzlecomp.rules.rounds import RoundRules, resolve_round

SHARED_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"

# CI (HYPOTHESIS_PROFILE=ci, set by .ci/run) tries five times the default number of examples.
hypothesis_settings.register_profile("ci", max_examples=500, deadline=None, print_blob=True)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def examples(count: int) -> int:
    """A test's own number of examples, multiplied the same way under the CI profile."""
    return count * 5 if os.environ.get("HYPOTHESIS_PROFILE") == "ci" else count


def round_of(
    ruleset_id: str, event: str, round_id: str | None = None, **overrides: int
) -> RoundRules:
    """The rules of a bundled round, with --time-limit / --pieces style overrides."""
    return resolve_round(load_ruleset(ruleset_id), event, round_id, **overrides)


def entry(entry_id: str, **fields: object) -> Entry:
    return Entry(id=entry_id, **fields)  # type: ignore[arg-type]


def results(*pairs: tuple[str, Result]) -> list[tuple[Entry, Result]]:
    return [(Entry(id=entry_id), result) for entry_id, result in pairs]


@pytest.fixture
def shared_data() -> Path:
    """The folder of real published results; tests using it skip when it is absent."""
    if not (SHARED_DATA / "wjpc-results.csv").exists():
        pytest.skip(f"published results not found at {SHARED_DATA}")
    return SHARED_DATA


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Browser tests last: Playwright's session keeps an event loop running in the main thread
    (and sets DJANGO_ALLOW_ASYNC_UNSAFE), which other tests must never run beside."""
    browser = [item for item in items if "/tests/browser/" in str(item.path)]
    if browser:
        items[:] = [item for item in items if item not in browser] + browser


@pytest.fixture(autouse=True)
def _fresh_snapshots() -> None:
    """Test databases reuse ids and notice numbers: no snapshot (nor the rounds a second look
    compares with) may outlive its test."""
    from puzzlecomp.championships.selectors.plausibility import reference_rounds_forget
    from puzzlecomp.live.snapshot import snapshot_cache_clear

    snapshot_cache_clear()
    reference_rounds_forget()


@pytest.fixture(autouse=True)
def _default_language() -> Iterator[None]:
    """A request in another language (LocaleMiddleware) leaves it active in the thread: every
    test starts and ends in the site's default language."""
    from django.utils import translation

    yield
    translation.deactivate()


@pytest.fixture(autouse=True, scope="session")
def _shared_memory_database_waits() -> None:
    """On the in-memory test database, a statement meeting another thread's table lock waits
    for it, as one on the real SQLite file waits (its `timeout`).

    Threads share that database through SQLite's shared cache, which reports a table another
    connection is reading or writing as locked at once, whatever the timeout; a live-server
    thread reading the championship while the test records a result then failed the test.
    """
    from django.db import connection
    from django.db.backends.signals import connection_created

    if connection.vendor != "sqlite" or not connection.is_in_memory_db():
        return
    connection_created.connect(_locked_table_waits, dispatch_uid="locked-table-waits")
    if connection.connection is not None:
        _locked_table_waits(connection=connection)


LOCKED_TABLE_WAIT_S = 10.0
# What SQLite says of a lock held by another connection of its shared cache ("database is
# locked", the file's own lock, is waited for by the connection's timeout).
SHARED_CACHE_LOCKED = re.compile(r"database (table|schema) is locked")


def _locked_table_waits(connection, **_: object) -> None:
    if connection.vendor == "sqlite" and _locked_table_retry not in connection.execute_wrappers:
        connection.execute_wrappers.append(_locked_table_retry)


def _locked_table_retry(execute, sql, params, many, context):
    """Run the statement again while SQLite says its table is locked by another connection
    (a statement refused that way changed nothing, so running it again is safe)."""
    from django.db import OperationalError

    deadline = time.monotonic() + LOCKED_TABLE_WAIT_S
    while True:
        try:
            return execute(sql, params, many, context)
        except OperationalError as error:
            if not SHARED_CACHE_LOCKED.match(str(error)) or time.monotonic() > deadline:
                raise
            time.sleep(0.002)
