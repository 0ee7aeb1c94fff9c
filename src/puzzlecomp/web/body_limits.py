"""Limits on a request's body, applied on the event loop before and while it is read.

The request threads get a body only once the loop has read all of it (web/request_threads.py),
so without limits an anonymous client could make a worker spool any size to disk, or hold
memory and a connection for ever by sending slowly. Here, per worker:

- a maximum per path (`body_maximum`): the two upload forms take a championship file's 50 MB,
  and only from a client that sends a session cookie (an anonymous upload is refused by the
  view anyway); the judges' device API 64 KB (a record is a few hundred bytes); every other
  form 1 MB (Django allows 1,000 fields). A larger Content-Length is refused (413) before a
  byte is read; a chunked body when it passes the maximum;
- a deadline for the whole body (`PUZZLECOMP_BODY_TIMEOUT`, 60 s: a 50 MB file over a hall's
  network at 1 MB/s) after which the client gets 408;
- at most `PUZZLECOMP_BODIES_AT_ONCE` (256) bodies held at once, from their first byte until
  their answer is sent, of which at most LARGE_AT_ONCE larger than a form: further clients get
  503 at once. A body keeps at most IN_MEMORY_BYTES in memory and spills the rest to a file.

Each refusal closes the connection. Requests without a body (GET) are not counted.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import parse_cookie

from puzzlecomp.rules.limits import MAX_CHAMPIONSHIP_FILE_BYTES

Send = Callable[[dict[str, Any]], Any]

BODY_SECONDS = float(os.environ.get("PUZZLECOMP_BODY_TIMEOUT", "60"))
BODIES_AT_ONCE = int(os.environ.get("PUZZLECOMP_BODIES_AT_ONCE", "256"))
LARGE_AT_ONCE = 4
UPLOAD_BYTES = MAX_CHAMPIONSHIP_FILE_BYTES
FORM_BYTES = 1024 * 1024
DEVICE_BYTES = 64 * 1024
IN_MEMORY_BYTES = 64 * 1024
DEVICE_PATH = "/api/v1/device/"
# The championship file (control/rounds/championship_file.py) and a round's entries
# (control/data/views.import_upload).
UPLOAD_PATHS = re.compile(r"^/control/(?:import/|[^/]+/data/import/)$")

TOO_LARGE = 413
TOO_SLOW = 408
TOO_MANY = 503


def body_maximum(scope: dict[str, Any]) -> int:
    """The most bytes a request to this path may send."""
    path = scope["path"]
    if path.startswith(DEVICE_PATH):
        return DEVICE_BYTES
    if UPLOAD_PATHS.match(path) and _has_session(scope):
        return UPLOAD_BYTES
    return FORM_BYTES


def declared_length(scope: dict[str, Any]) -> int | None:
    """The body's length as Content-Length declares it; None for a chunked body (or a
    Content-Length that is not a number, which the server has already refused)."""
    for name, value in scope["headers"]:
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


def has_body(scope: dict[str, Any]) -> bool:
    declared = declared_length(scope)
    if declared is not None:
        return declared > 0
    return any(name == b"transfer-encoding" for name, _value in scope["headers"])


def _has_session(scope: dict[str, Any]) -> bool:
    for name, value in scope["headers"]:
        if name == b"cookie" and settings.SESSION_COOKIE_NAME in parse_cookie(
                value.decode("latin1")):
            return True
    return False


class BodiesHeld:
    """How many bodies this worker holds, all and larger than a form (the event loop's
    own count: only its thread touches it)."""

    def __init__(self) -> None:
        self.all = 0
        self.large = 0

    def take(self, *, large: bool) -> bool:
        """Count one more body, if the caps allow it."""
        if self.all >= BODIES_AT_ONCE or (large and self.large >= LARGE_AT_ONCE):
            return False
        self.all += 1
        self.large += large
        return True

    def give_back(self, *, large: bool) -> None:
        self.all -= 1
        if large:
            self.large -= 1


held = BodiesHeld()

_REASONS = {TOO_LARGE: b"Request body too large.\n", TOO_SLOW: b"Request body too slow.\n",
            TOO_MANY: b"Too many requests at once; try again.\n"}


async def refuse(send: Send, status: int) -> None:
    """Answer `status` with a line of text and close the connection (whatever of the body
    is still coming is never read)."""
    headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"connection", b"close")]
    if status == TOO_MANY:
        headers.append((b"retry-after", b"5"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": _REASONS[status]})
