"""One organiser's laptop in the hall (`puzzlecomp serve --venue`): DEBUG off, a secret key of its
own kept in the data directory, the hosts and SITE_URL that `serve` found for this machine;
the database and the error log readable by their owner only, as the key.

Plain HTTP on the hall's network unless `serve --tls-cert --tls-key` gives a certificate
(PUZZLECOMP_VENUE_TLS=1): then the cookies are Secure too.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from puzzlecomp.settings.base import *  # noqa: F403
from puzzlecomp.settings.base import DATA_DIR, DATABASES
from puzzlecomp.web.error_log import error_logging

SECRET_KEY_FILE = "secret-key"


def secret_key(data_dir: Path) -> str:
    """The key in `data_dir`, made once (readable by its owner only) and reused after."""
    path = data_dir / SECRET_KEY_FILE
    if not path.exists():
        data_dir.mkdir(parents=True, exist_ok=True)
        try:
            # O_EXCL: two processes starting together keep the first one's key.
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(descriptor, "w", encoding="ascii") as file:
                file.write(secrets.token_urlsafe(64))
    if path.stat().st_mode & 0o077:
        path.chmod(0o600)
    return path.read_text(encoding="ascii").strip()


def owner_only_database(database: dict[str, object]) -> None:
    """Make the SQLite file (empty: SQLite fills it) readable by its owner only, and its WAL and
    shared-memory files if they are there already; SQLite gives the ones it creates the
    database file's mode. Birth dates and emails are in it: no other local account may read
    it."""
    if database["ENGINE"] != "django.db.backends.sqlite3":
        return
    path = Path(str(database["NAME"]))
    path.parent.mkdir(parents=True, exist_ok=True)
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
    for file in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        if file.exists() and file.stat().st_mode & 0o077:
            file.chmod(0o600)


DEBUG = False
SECRET_KEY = secret_key(DATA_DIR)
if os.environ.get("PUZZLECOMP_VENUE_TLS") == "1":
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
owner_only_database(DATABASES["default"])
# Each 500 with its traceback to stderr and to errors.log in the data directory.
LOGGING = error_logging(DATA_DIR)
