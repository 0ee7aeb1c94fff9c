"""Limits on a request's body, applied on the event loop before and while it is read.

The request threads get a body only once the loop has read all of it (web/request_threads.py),
so without limits an anonymous client could make a worker spool any size to disk, or hold
memory and a connection for ever by sending slowly. Here, per worker:

- a maximum per path (`body_maximum`): the two upload forms take a championship file's 50 MB
  plus MULTIPART_BYTES for the form around it, and only for a session that exists and is
  signed in (`signed_in`, read from the session store before the body; a made-up cookie gets
  the form maximum); the judges' device API 64 KB (a record is a few hundred bytes); every
  other form 1 MB (Django allows 1,000 fields). A larger Content-Length is refused (413)
  before a byte is read; a chunked body when it passes the maximum;
- a deadline for the whole body (`PUZZLECOMP_BODY_TIMEOUT`, 60 s: a 50 MB file over a hall's
  network at 1 MB/s) after which the client gets 408;
- at most `PUZZLECOMP_BODIES_AT_ONCE` (256) form and upload bodies held at once, from their
  first byte until their answer is sent, of which at most LARGE_AT_ONCE larger than a form;
  the judges' device API has a pool of its own (`PUZZLECOMP_DEVICE_BODIES_AT_ONCE`, 256), so
  anonymous forms never starve the judges' records; and at most
  `PUZZLECOMP_BODIES_PER_CLIENT` (8) bodies being received at once from one client address in
  each pool (only while they arrive: a hall's judges behind one address send each record at
  once; and slow forms from an address shared with the judges never hold up their records).
  Further clients get 503 at once. A body keeps at most IN_MEMORY_BYTES in memory and spills
  the rest to a file.

Each refusal closes the connection. Requests without a body (GET) are not counted.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.db import DatabaseError, close_old_connections
from django.http import parse_cookie

from puzzlecomp.rules.limits import MAX_CHAMPIONSHIP_FILE_BYTES

Send = Callable[[dict[str, Any]], Any]

BODY_SECONDS = float(os.environ.get("PUZZLECOMP_BODY_TIMEOUT", "60"))
BODIES_AT_ONCE = int(os.environ.get("PUZZLECOMP_BODIES_AT_ONCE", "256"))
DEVICE_BODIES_AT_ONCE = int(os.environ.get("PUZZLECOMP_DEVICE_BODIES_AT_ONCE", "256"))
BODIES_PER_CLIENT = int(os.environ.get("PUZZLECOMP_BODIES_PER_CLIENT", "8"))
LARGE_AT_ONCE = 4
# A file at the documented maximum comes inside a multipart form (boundaries, part headers,
# the CSRF token and the other fields): the view refuses a file over the maximum itself.
MULTIPART_BYTES = 1024 * 1024
UPLOAD_BYTES = MAX_CHAMPIONSHIP_FILE_BYTES + MULTIPART_BYTES
FORM_BYTES = 1024 * 1024
DEVICE_BYTES = 64 * 1024
IN_MEMORY_BYTES = 64 * 1024
DEVICE_PATH = "/api/v1/device/"
# The championship file (control/rounds/championship_file.py) and a round's entries
# (control/data/views.import_upload).
UPLOAD_PATHS = re.compile(r"^/control/(?:import/|[^/]+/data/import/)$")
# The public check of a results package (public/packages/views.verify).
PACKAGE_PATH = "/verify/"

TOO_LARGE = 413
TOO_SLOW = 408
TOO_MANY = 503
NOT_ALLOWED = 405


def body_maximum(scope: dict[str, Any], *, signed_in: bool = False) -> int:
    """The most bytes a request to this path may send (`signed_in`: its session is one of a
    signed-in user, see `upload_session`)."""
    path = scope["path"]
    if path.startswith(DEVICE_PATH):
        return DEVICE_BYTES
    if signed_in and UPLOAD_PATHS.match(path):
        return UPLOAD_BYTES
    if path == PACKAGE_PATH:
        # Anyone may check a results package (1-2 MB for a world championship): the file's
        # bounds, the per-client and large-body caps still holding (the view names the file
        # over the package's maximum).
        return UPLOAD_BYTES
    return FORM_BYTES


def upload_session(scope: dict[str, Any]) -> str | None:
    """The session cookie of a request to an upload path whose body may be larger than a
    form; None otherwise (no need to look the session up)."""
    if not UPLOAD_PATHS.match(scope["path"]):
        return None
    declared = declared_length(scope)
    if declared is not None and declared <= FORM_BYTES:
        return None
    for name, value in scope["headers"]:
        if name == b"cookie":
            key = parse_cookie(value.decode("latin1")).get(settings.SESSION_COOKIE_NAME)
            if key:
                return key
    return None


def signed_in(session_key: str) -> bool:
    """Whether the session exists (not expired) and has a signed-in user: on a request
    thread, as it may read the database (its connection looked after as a request's)."""
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    close_old_connections()
    try:
        return SESSION_KEY in store.load()
    except DatabaseError:
        return False
    finally:
        close_old_connections()


def client_address(scope: dict[str, Any]) -> str:
    """The client's address (uvicorn puts a trusted proxy's X-Forwarded-For here)."""
    client = scope.get("client")
    return str(client[0]) if client else ""


def declared_length(scope: Mapping[str, Any]) -> int | None:
    """The body's length as Content-Length declares it; None for a chunked body (or a
    Content-Length that is not a number, which the server has already refused)."""
    for name, value in scope["headers"]:
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


def has_body(scope: Mapping[str, Any]) -> bool:
    declared = declared_length(scope)
    if declared is not None:
        return declared > 0
    return any(name == b"transfer-encoding" for name, _value in scope["headers"])


class BodiesHeld:
    """How many bodies this worker holds: forms and uploads (`all`), of them larger than a
    form (`large`), the judges' records (`device`), and those still arriving per client
    address (`arriving`). The event loop's own count: only its thread touches it."""

    def __init__(self) -> None:
        self.all = 0
        self.large = 0
        self.device = 0
        self.arriving: dict[tuple[bool, str], int] = {}

    def take(self, *, large: bool, device: bool = False) -> bool:
        """Count one more body in its pool, if the caps allow it."""
        if device:
            if self.device >= DEVICE_BODIES_AT_ONCE:
                return False
            self.device += 1
            return True
        if self.all >= BODIES_AT_ONCE or (large and self.large >= LARGE_AT_ONCE):
            return False
        self.all += 1
        self.large += large
        return True

    def give_back(self, *, large: bool, device: bool = False) -> None:
        if device:
            self.device -= 1
            return
        self.all -= 1
        if large:
            self.large -= 1

    def arrives(self, client: str, *, device: bool = False) -> bool:
        """Count one more body arriving from `client` in its pool, if it has fewer than its
        cap there."""
        key = (device, client)
        if self.arriving.get(key, 0) >= BODIES_PER_CLIENT:
            return False
        self.arriving[key] = self.arriving.get(key, 0) + 1
        return True

    def arrived(self, client: str, *, device: bool = False) -> None:
        key = (device, client)
        left = self.arriving[key] - 1
        if left:
            self.arriving[key] = left
        else:
            del self.arriving[key]


held = BodiesHeld()

_REASONS = {TOO_LARGE: b"Request body too large.\n", TOO_SLOW: b"Request body too slow.\n",
            TOO_MANY: b"Too many requests at once; try again.\n",
            NOT_ALLOWED: b"Method not allowed.\n"}


async def refuse(send: Send, status: int) -> None:
    """Answer `status` with a line of text and close the connection (whatever of the body
    is still coming is never read). Content-Length, so an HTTP/1.0 client gets it whole."""
    reason = _REASONS[status]
    headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"connection", b"close"),
               (b"content-length", str(len(reason)).encode())]
    if status == TOO_MANY:
        headers.append((b"retry-after", b"5"))
    if status == NOT_ALLOWED:
        headers.append((b"allow", b"GET, HEAD"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": reason})
