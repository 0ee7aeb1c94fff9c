"""The ASGI application that `puzzlecomp serve` runs: /live/ to the live app, the rest to Django.

Django's pages and API run as WSGI on a fixed pool of request threads (a2wsgi), not through
Django's ASGI handler. That handler gives each request a thread of its own, so a new database
connection, and hops between the event loop and a thread for every middleware: in a burst of
100 judges' records each hop queues behind all the other requests, and no answer leaves
before the last record is stored. Here one thread runs a whole request, keeping its database
connection, so a process holds at most PUZZLECOMP_REQUEST_THREADS connections (PostgreSQL's
limit holds with several workers). Only the live app, with its thousands of open streams,
runs on the event loop.
"""

import os
from typing import Any

from a2wsgi import WSGIMiddleware
from django.core.wsgi import get_wsgi_application

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


async def _lifespan(receive: Receive, send: Send) -> None:
    """Nothing to set up or tear down: the live pump starts with the first stream."""
    while True:
        message: Any = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return
