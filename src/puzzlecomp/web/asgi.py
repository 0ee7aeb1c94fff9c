"""The ASGI application that `puzzlecomp serve` runs: /live/ to the live app, the rest to Django.

Django's pages and API run as WSGI on a fixed pool of request threads (web/request_threads.py),
not through Django's ASGI handler. That handler gives each request a thread of its own, so a
new database connection, and hops between the event loop and a thread for every middleware:
in a burst of 100 judges' records each hop queues behind all the other requests, and no answer
leaves before the last record is stored. Here one thread runs a whole request, keeping its
database connection, so a process holds at most PUZZLECOMP_REQUEST_THREADS connections
(PostgreSQL's limit holds with several workers). Only the live app, with its thousands of open
streams, runs on the event loop.

A worker is made ready before it takes its first request (`worker_ready`, at the ASGI
lifespan's startup): otherwise the first request imports every view (700 ms with the PDF and
spreadsheet libraries) while the judges' records queue behind it, and full garbage
collections walk the whole heap of Django and its libraries while holding SQLite's write turn.
"""

import gc
import os
import sys
from typing import Any

import django
from django.conf import settings
from django.urls import get_resolver
from django.utils import translation

from puzzlecomp.rules.loading import load_ruleset, ruleset_ids

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "puzzlecomp.settings.dev")

# Few: the work is Python under one lock (the GIL) and SQLite writes one at a time; enough
# that a slow page (a PDF export) does not hold up the others.
DEFAULT_REQUEST_THREADS = 4
REQUEST_THREADS = max(1, int(os.environ.get("PUZZLECOMP_REQUEST_THREADS",
                                            DEFAULT_REQUEST_THREADS)))
# The judges' phones (the device API) have a thread of their own: no page holds up a record,
# and a burst of records does not split into threads that take turns on the GIL (a record's
# statements each give the GIL up, and each waits for it back behind the other records).
JUDGES_PATH = "/api/v1/device/"
JUDGES_THREADS = 1
# How long a thread holds the GIL while another waits for it (Python's default: 5 ms). A thread
# holding SQLite's writer turn or PostgreSQL's row lock on the notice number gives the GIL up
# at each statement; the shorter wait to get it back shortens the turn the others queue for.
SWITCH_INTERVAL_S = 0.0005

django.setup(set_prefix=False)
# Imported once Django is set up: the live app reads the models.
from puzzlecomp.live.sse import Receive, Scope, Send, live_app  # noqa: E402
from puzzlecomp.web.body_limits import NOT_ALLOWED, TOO_LARGE, has_body, refuse  # noqa: E402
from puzzlecomp.web.live_security import secured  # noqa: E402
from puzzlecomp.web.request_threads import DjangoOnThreads  # noqa: E402

django_application = DjangoOnThreads(REQUEST_THREADS)
judges_application = DjangoOnThreads(JUDGES_THREADS, name="judges",
                                     django=django_application.django)

# Django's SecurityMiddleware does not see /live/: the same HTTPS settings, applied here.
live = secured(live_app)


async def application(scope: Scope, receive: Receive, send: Send) -> None:
    if scope["type"] == "http" and scope["path"].startswith("/live/"):
        if has_body(scope):
            # The live app takes no body and would leave it unread, for ever: refused at once.
            await refuse(send, TOO_LARGE if scope["method"] in ("GET", "HEAD") else NOT_ALLOWED)
        else:
            await live(scope, receive, send)
    elif scope["type"] == "lifespan":
        await _lifespan(receive, send)
    elif scope["type"] == "http" and scope["path"].startswith(JUDGES_PATH):
        await judges_application(scope, receive, send)  # type: ignore[arg-type]
    else:
        await django_application(scope, receive, send)  # type: ignore[arg-type]


def worker_ready() -> None:
    """Load what the first requests would load (every URL's views, every language's
    catalog, every ruleset), then move the objects that live as long as the process out of
    the garbage collector's reach, so a full collection walks only what requests made since;
    and shorten the GIL's switch interval (SWITCH_INTERVAL_S)."""
    get_resolver().url_patterns  # noqa: B018 (imports every view and the API)
    for code, _name in settings.LANGUAGES:
        translation.activate(code)
    translation.deactivate()
    for ruleset_id in ruleset_ids():
        load_ruleset(ruleset_id)
    gc.collect()
    gc.freeze()
    sys.setswitchinterval(SWITCH_INTERVAL_S)


async def _lifespan(receive: Receive, send: Send) -> None:
    """The worker is made ready before it serves; the live pump starts with the first
    stream."""
    while True:
        message: Any = await receive()
        if message["type"] == "lifespan.startup":
            worker_ready()
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return
