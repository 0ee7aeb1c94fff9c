"""Django (as WSGI) behind the ASGI server, each request run whole on one of a fixed pool of
threads, with one hand-over each way between the event loop and that thread.

a2wsgi's bridge hands over every part of a request: the thread waits for the event loop to
give it the body, then to take the headers, each chunk and the end. Each wait needs the loop
to get the interpreter's lock (the GIL) from the request threads busy with other records, and
in a burst of judges' records those waits, and the loop's work for them, were a third of a
record's cost (docs/performance.md). Here the loop reads the whole body before the thread
starts, within the limits of web/body_limits.py, and the thread gives back the whole response
when it ends.

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
from django.core.handlers.wsgi import WSGIHandler

from puzzlecomp.web.body_limits import (
    BODY_SECONDS,
    DEVICE_PATH,
    FORM_BYTES,
    IN_MEMORY_BYTES,
    TOO_LARGE,
    TOO_MANY,
    TOO_SLOW,
    body_maximum,
    client_address,
    declared_length,
    has_body,
    held,
    refuse,
    signed_in,
    upload_session,
)

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
        if not has_body(scope):
            body: BinaryIO | None = await _body(receive, maximum=0)
            if body is not None:
                await self._answer(scope, body, send)
            return
        session = upload_session(scope)
        # The session store may be the database: looked up on a request thread.
        maximum = body_maximum(scope, signed_in=session is not None and await (
            asyncio.get_running_loop().run_in_executor(self.executor, signed_in, session)))
        declared = declared_length(scope)
        if declared is not None and declared > maximum:
            await refuse(send, TOO_LARGE)
            return
        # A chunked body may grow to its path's maximum.
        large = (maximum if declared is None else declared) > FORM_BYTES
        device = scope["path"].startswith(DEVICE_PATH)
        if not held.take(large=large, device=device):
            await refuse(send, TOO_MANY)
            return
        try:
            await self._read_and_answer(scope, receive, send, maximum, device=device)
        finally:
            held.give_back(large=large, device=device)

    async def _read_and_answer(self, scope: dict[str, Any], receive: Receive, send: Send,
                               maximum: int, *, device: bool) -> None:
        """Read the body within its limits (counted against its client's cap while it
        arrives), then answer."""
        client = client_address(scope)
        if not held.arrives(client, device=device):
            await refuse(send, TOO_MANY)
            return
        try:
            async with asyncio.timeout(BODY_SECONDS):
                body = await _body(receive, maximum=maximum)
        except TimeoutError:
            await refuse(send, TOO_SLOW)
            return
        except BodyTooLarge:
            await refuse(send, TOO_LARGE)
            return
        finally:
            held.arrived(client, device=device)
        if body is not None:
            await self._answer(scope, body, send)

    async def _answer(self, scope: dict[str, Any], body: BinaryIO, send: Send) -> None:
        """Run the request on a thread and send its whole response."""
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


class BodyTooLarge(Exception):
    """The body passed its path's maximum while it was read."""


async def _body(receive: Receive, *, maximum: int) -> BinaryIO | None:
    """The request's body, read on the event loop (beyond IN_MEMORY_BYTES it spills to a
    file); None when the client disconnected first. BodyTooLarge past `maximum` bytes."""
    # Closed by the caller once the request thread has read it.
    body = tempfile.SpooledTemporaryFile(max_size=IN_MEMORY_BYTES)  # noqa: SIM115
    size = 0
    try:
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                body.close()
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > maximum:
                raise BodyTooLarge
            body.write(chunk)
            if not message.get("more_body", False):
                break
    except BaseException:
        body.close()
        raise
    body.seek(0)
    return body  # type: ignore[return-value]
