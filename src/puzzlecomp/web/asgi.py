"""The ASGI application that `puzzlecomp serve` runs: /live/ to the live app, the rest to Django.

Django's pages and API run as WSGI on a fixed pool of request threads (a2wsgi), not through
Django's ASGI handler. That handler gives each request a thread of its own, so a new database
connection, and hops between the event loop and a thread for every middleware: in a burst of
100 judges' records each hop queues behind all the other requests, and no answer leaves
before the last record is stored. Here one thread runs a whole request, keeping its database
connection, so a process holds at most PUZZLECOMP_REQUEST_THREADS connections (PostgreSQL's
limit holds with several workers). Only the live app, with its thousands of open streams,
runs on the event loop.

A worker is made ready before it takes its first request (`worker_ready`, at the ASGI
lifespan's startup): otherwise the first request imports every view (700 ms with the PDF and
spreadsheet libraries) while the judges' records queue behind it, and full garbage
collections walk the whole heap of Django and its libraries while holding SQLite's write turn.
"""

import gc
import os
from typing import Any

from a2wsgi import WSGIMiddleware
from django.conf import settings
from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver
from django.utils import translation

from puzzlecomp.rules.loading import load_ruleset, ruleset_ids

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "puzzlecomp.settings.dev")

# Few: the work is Python under one lock (the GIL) and SQLite writes one at a time; enough
# that a slow page (a PDF export) does not hold up a judge's record.
DEFAULT_REQUEST_THREADS = 4
REQUEST_THREADS = max(1, int(os.environ.get("PUZZLECOMP_REQUEST_THREADS",
                                            DEFAULT_REQUEST_THREADS)))

django_application = WSGIMiddleware(get_wsgi_application(), workers=REQUEST_THREADS)

# Imported once Django is set up: the live app reads the models.
from puzzlecomp.live.sse import Receive, Scope, Send, live_app  # noqa: E402
from puzzlecomp.web.live_security import secured  # noqa: E402

# Django's SecurityMiddleware does not see /live/: the same HTTPS settings, applied here.
live = secured(live_app)


async def application(scope: Scope, receive: Receive, send: Send) -> None:
    if scope["type"] == "http" and scope["path"].startswith("/live/"):
        await live(scope, receive, send)
    elif scope["type"] == "lifespan":
        await _lifespan(receive, send)
    else:
        await django_application(scope, receive, send)  # type: ignore[arg-type]


def worker_ready() -> None:
    """Load what the first requests would load (every URL's views, every language's
    catalog, every ruleset), then move the objects that live as long as the process out of
    the garbage collector's reach, so a full collection walks only what requests made since."""
    get_resolver().url_patterns  # noqa: B018 (imports every view and the API)
    for code, _name in settings.LANGUAGES:
        translation.activate(code)
    translation.deactivate()
    for ruleset_id in ruleset_ids():
        load_ruleset(ruleset_id)
    gc.collect()
    gc.freeze()


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
