"""One judge's write at a time on SQLite, queued without sleeping, across threads and processes.

SQLite has one writer. A connection that finds the database locked waits in SQLite's busy
handler, which sleeps in growing steps (up to 100 ms): in a burst of judges' records the
waiting writers sleep while the database is free, and some time out. Writers queued here
instead wake the moment the previous one commits: threads of a process on a lock, processes
(several uvicorn workers on one SQLite file) on an exclusive flock of a file beside the
database. PostgreSQL queues writers itself, so nothing is taken there.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection

try:
    import fcntl
except ImportError:  # Windows: threads of one process only
    fcntl = None  # type: ignore[assignment]

_threads = threading.Lock()
# Path of the lock file -> its open descriptor, kept for the life of the process.
_files: dict[str, int] = {}


@contextmanager
def one_sqlite_writer() -> Iterator[None]:
    """Hold SQLite's write turn for the block (nothing inside an outer transaction, which
    already holds SQLite's lock, nor on other databases)."""
    if connection.vendor != "sqlite" or connection.in_atomic_block:
        yield
        return
    with _threads:
        descriptor = _lock_file(str(connection.settings_dict["NAME"]))
        if descriptor is None:
            yield
            return
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(descriptor, fcntl.LOCK_UN)


def _lock_file(database: str) -> int | None:
    """The descriptor of the database's lock file; None for an in-memory database (one
    process) or without flock."""
    if fcntl is None or database == ":memory:" or database.startswith("file:"):
        return None
    path = f"{database}.writer-lock"
    if path not in _files:
        _files[path] = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    return _files[path]
