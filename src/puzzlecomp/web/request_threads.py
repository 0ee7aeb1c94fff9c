"""Django (as WSGI) behind the ASGI server, each request run whole on one of a fixed pool of
threads, with one hand-over each way between the event loop and that thread.

a2wsgi's bridge hands over every part of a request: the thread waits for the event loop to
give it the body, then to take the headers, each chunk and the end. Each wait needs the loop
to get the interpreter's lock (the GIL) from the request threads busy with other records, and
in a burst of judges' records those waits, and the loop's work for them, were a third of a
record's cost (docs/performance.md). Here the loop reads the whole body before the thread
starts, and the thread gives back the whole response when it ends.

Django's responses here are whole pages, downloads built in memory and static files; none
streams without end (the live streams are the live app's, on the event loop).
"""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, BinaryIO

from a2wsgi.wsgi import build_environ
from a2wsgi.wsgi_typing import Environ
from django.conf import settings
from django.core.handlers.wsgi import WSGIHandler

Receive = Callable[[], Any]
Send = Callable[[dict[str, Any]], Any]
# (status line, headers, body parts) of a WSGI response.
Response = tuple[str, list[tuple[str, str]], list[bytes]]


class DjangoOnThreads:
    """The ASGI application of Django's pages and API, on `threads` request threads."""

    def __init__(self, threads: int, *, name: str = "request",
                 django: WSGIHandler | None = None) -> None:
        self.django = django or WSGIHandler()
        self.executor = ThreadPoolExecutor(threads, thread_name_prefix=name)

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        body = await _body(receive)
        if body is None:
            return  # the client left before it sent the whole request
        try:
            environ = build_environ(scope, body)  # type: ignore[arg-type]
            loop = asyncio.get_running_loop()
            status, headers, parts = await loop.run_in_executor(self.executor, self._respond,
                                                                environ)
        finally:
            body.close()
        await send({"type": "http.response.start", "status": int(status.split(" ", 1)[0]),
                    # Django writes each Set-Cookie value after a space (Morsel.output).
                    "headers": [(name.lower().encode("latin1"), value.strip().encode("latin1"))
                                for name, value in headers]})
        await send({"type": "http.response.body", "body": b"".join(parts)})

    def _respond(self, environ: Environ) -> Response:
        """On a request thread: the whole response (closing it there sends Django's
        request_finished, whose handlers look after this thread's database connection)."""
        started: list[Any] = []
        parts: list[bytes] = []

        def start_response(status: str, headers: list[tuple[str, str]],
                           exc_info: Any = None) -> Callable[[bytes], None]:
            started[:] = [status, headers]
            return parts.append

        result: Iterable[bytes] = self.django(environ, start_response)  # type: ignore[arg-type]
        try:
            parts.extend(part for part in result if part)
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()
        return started[0], started[1], parts


async def _body(receive: Receive) -> BinaryIO | None:
    """The request's body, read on the event loop (large uploads spill to a file, as
    Django's own ASGI handler does); None when the client disconnected first."""
    # Closed by the caller once the request thread has read it.
    body = tempfile.SpooledTemporaryFile(  # noqa: SIM115
        max_size=settings.FILE_UPLOAD_MAX_MEMORY_SIZE)
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            body.close()
            return None
        body.write(message.get("body", b""))
        if not message.get("more_body", False):
            break
    body.seek(0)
    return body  # type: ignore[return-value]
