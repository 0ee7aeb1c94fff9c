"""The ASGI application that `puzzlecomp serve` runs: /live/ to the live app, the rest to Django."""

import os
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "puzzlecomp.settings.dev")

django_application = get_asgi_application()

# Imported once Django is set up: the live app reads the models.
from puzzlecomp.live.sse import Receive, Scope, Send, live_app  # noqa: E402


async def application(scope: Scope, receive: Receive, send: Send) -> None:
    if scope["type"] == "http" and scope["path"].startswith("/live/"):
        await live_app(scope, receive, send)
    elif scope["type"] == "lifespan":
        await _lifespan(receive, send)
    else:
        await django_application(scope, receive, send)


async def _lifespan(receive: Receive, send: Send) -> None:
    """Nothing to set up or tear down: the live pump starts with the first stream."""
    while True:
        message: Any = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return
