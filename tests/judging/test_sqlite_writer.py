"""On SQLite, judges' writes take turns on a lock file beside the database, so writers of
several app processes queue and wake at once instead of sleeping in SQLite's busy handler."""

from __future__ import annotations

import fcntl
import multiprocessing
import os

import pytest
from django.db import connection

from puzzlecomp.championships.services import sqlite_writer
from puzzlecomp.championships.services.sqlite_writer import one_sqlite_writer
from tests.judging.support import elapsed, write

pytestmark = pytest.mark.skipif(connection.vendor != "sqlite",
                                reason="the lock file serves SQLite (PostgreSQL queues writers)")


def _try_lock(path: str, answer) -> None:
    try:
        descriptor = os.open(path, os.O_RDWR)
    except OSError as error:
        answer.send(f"no lock file: {error}")
        return
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        answer.send("held")
    else:
        answer.send("free")
    finally:
        os.close(descriptor)


def other_process_finds(path: str) -> str:
    ours, theirs = multiprocessing.get_context("fork").Pipe()
    process = multiprocessing.get_context("fork").Process(target=_try_lock, args=(path, theirs))
    process.start()
    process.join(10)
    assert ours.poll(10), "the other process did not answer"
    return ours.recv()


@pytest.fixture
def sqlite_file(tmp_path, monkeypatch) -> str:
    database = str(tmp_path / "puzzlecomp.sqlite3")
    monkeypatch.setitem(connection.settings_dict, "NAME", database)
    return database


def test_a_writer_holds_the_lock_file_for_other_processes_until_its_block_ends(sqlite_file):
    with one_sqlite_writer():
        assert other_process_finds(f"{sqlite_file}.writer-lock") == "held"
    assert other_process_finds(f"{sqlite_file}.writer-lock") == "free"


def test_an_in_memory_database_has_no_lock_file(monkeypatch):
    """Only one process can open it: the threads' lock is enough."""
    monkeypatch.setitem(connection.settings_dict, "NAME", ":memory:")
    files = dict(sqlite_writer._files)
    with one_sqlite_writer():
        assert sqlite_writer._threads.locked()
    assert sqlite_writer._files == files


@pytest.mark.django_db(transaction=True)
def test_every_statement_a_judges_record_writes_runs_in_the_writers_turn(phone, live_round):
    """A write outside the turn (here once: the device's seen-time) waits in SQLite's busy
    handler, which sleeps up to 100 ms at a time while the queued writers pass it by."""
    writes: list[tuple[str, bool]] = []

    def note(execute, sql, params, many, context):
        if sql.lstrip().split(None, 1)[0].upper() in ("INSERT", "UPDATE", "DELETE", "REPLACE"):
            writes.append((sql[:60], sqlite_writer._threads.locked()))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(note):
        response = write(phone, live_round, 1, "tap", time_seconds=elapsed(live_round))
    assert response.status_code == 200, response.content
    assert writes
    assert [sql for sql, in_turn in writes if not in_turn] == []
