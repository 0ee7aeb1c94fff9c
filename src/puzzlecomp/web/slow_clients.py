"""uvicorn's HTTP protocol with a deadline on the request head, against slow clients.

uvicorn closes a connection idle between requests (keep-alive timeout) but waits for ever on a
request whose headers arrive a byte at a time, so a thousand such connections hold the server's
file descriptors and normal requests fail. Here a connection whose request head is not complete
within HEAD_SECONDS of its first byte (or of the connection opening) is closed.
"""

from __future__ import annotations

import asyncio
import os

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

HEAD_SECONDS = float(os.environ.get("PUZZLECOMP_HEADER_TIMEOUT", "10"))


class HeadDeadlineProtocol(HttpToolsProtocol):
    """HttpToolsProtocol that closes connections whose request head is too slow."""

    _head_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._head_deadline is None:
            self._arm()

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._head_deadline = self.loop.call_later(HEAD_SECONDS, self._head_too_slow)

    def _disarm(self) -> None:
        if self._head_deadline is not None:
            self._head_deadline.cancel()
            self._head_deadline = None

    def _head_too_slow(self) -> None:
        self._head_deadline = None
        if not self.transport.is_closing():
            self.transport.close()
