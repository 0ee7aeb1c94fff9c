"""Where production and venue mode write a server error's traceback.

With DEBUG off, Django sends a 500's traceback only to ADMINS by email, and writes nothing
when there are none: an error left no trace. Here django.request's errors (each 500 with its
traceback) and the app's own warnings go to stderr, and in venue mode also to `errors.log` in
the data directory (owner-only: a traceback can show a person's data), kept to 4 files of 1 MB
on a laptop's small disk.
"""

from __future__ import annotations

import os
from io import TextIOWrapper
from logging.handlers import RotatingFileHandler
from pathlib import Path
from typing import Any

ERROR_LOG_FILE = "errors.log"
ERROR_LOG_BYTES = 1024 * 1024
ERROR_LOG_KEPT = 3


class OwnerOnlyFileHandler(RotatingFileHandler):
    """RotatingFileHandler whose files (the current one and each new one) are mode 600."""

    def _open(self) -> TextIOWrapper:
        descriptor = os.open(self.baseFilename, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        os.chmod(self.baseFilename, 0o600)
        return open(descriptor, "a", encoding=self.encoding, errors=self.errors)


def error_logging(data_dir: Path | None = None) -> dict[str, Any]:
    """The LOGGING setting: 500s with their tracebacks, and warnings of puzzlecomp's own
    modules (a Redis gone away), to stderr and, given a data directory, its error log."""
    handlers: dict[str, dict[str, Any]] = {
        "stderr": {"class": "logging.StreamHandler", "formatter": "plain"}}
    if data_dir is not None:
        handlers["file"] = {"class": "puzzlecomp.web.error_log.OwnerOnlyFileHandler",
                            "filename": str(data_dir / ERROR_LOG_FILE),
                            "maxBytes": ERROR_LOG_BYTES, "backupCount": ERROR_LOG_KEPT,
                            "encoding": "utf-8", "delay": True, "formatter": "plain"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
        "handlers": handlers,
        "loggers": {
            # Propagates too: Django's own mail to ADMINS still goes where they are set.
            "django.request": {"handlers": list(handlers), "level": "ERROR"},
            "puzzlecomp": {"handlers": list(handlers), "level": "WARNING"},
        },
    }
