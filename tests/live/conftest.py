"""Fixtures of the live tests: a championship with results, and the ASGI app on its own loop.

The app runs on an event loop in a thread, as under uvicorn, while the test writes results in
its own thread; the live app reads the database from its own threads, so these tests use a
transactional database (committed rows are visible to every connection).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import queue
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.utils import timezone

from puzzlecomp.championships.models import Round, RoundState
from puzzlecomp.championships.services.rounds import round_state_set
from puzzlecomp.live.reads import reads_wait
from puzzlecomp.live.snapshot import snapshot_cache_clear
from tests.live.entries import enter, finish
from tests.support import published_championship, round_of

TIMEOUT = 5.0


@pytest.fixture(autouse=True)
def _fresh_snapshots():
    # Test databases reuse ids and notice numbers; a snapshot built by another test is stale.
    snapshot_cache_clear()


@pytest.fixture
def live_round(transactional_db) -> Round:
    """WJPC 2025 individual first round of a published championship, running, two results."""
    rnd = round_of(published_championship("Live Test", venue="Hall"))
    round_state_set(round=rnd, state=RoundState.RUNNING,
                    starts_at=timezone.now() - dt.timedelta(minutes=10))
    finish(rnd, enter(rnd, 1, "Ana Novak", "CZ", table=1), 3000)
    finish(rnd, enter(rnd, 2, "Ben Berg", "NO", table=2), 2900)
    enter(rnd, 3, "Carla Garcia", "ES", table=3, consent=False)
    return rnd


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


def _scope(path: str, headers: dict[str, str], method: str = "GET") -> dict[str, Any]:
    return {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
            "method": method, "scheme": "http", "path": path, "raw_path": path.encode(),
            "query_string": b"", "root_path": "", "server": ("testserver", 80),
            "client": ("127.0.0.1", 5000),
            "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()]}


class Stream:
    """An open server-sent event stream: read events one by one, then leave."""

    def __init__(self, app: AsgiApp, path: str) -> None:
        self.app = app
        self.status: int | None = None
        self.headers: dict[str, str] = {}
        self._chunks: queue.Queue[bytes] = queue.Queue()
        self._buffer = ""
        self._gone = threading.Event()
        self._left: asyncio.Event | None = None
        started = threading.Event()

        async def run() -> None:
            self._left = asyncio.Event()

            async def receive() -> dict[str, Any]:
                assert self._left is not None
                await self._left.wait()
                return {"type": "http.disconnect"}

            async def send(message: dict[str, Any]) -> None:
                if message["type"] == "http.response.start":
                    self.status = message["status"]
                    self.headers = {k.decode(): v.decode() for k, v in message["headers"]}
                    started.set()
                elif message.get("body"):
                    self._chunks.put(message["body"])

            try:
                await app.application(_scope(path, {}), receive, send)
            finally:
                started.set()
                self._gone.set()

        self._future = asyncio.run_coroutine_threadsafe(run(), app.loop)
        assert started.wait(TIMEOUT), "no response"

    def next_event(self, timeout: float = TIMEOUT) -> dict[str, str]:
        """The next event as its fields (event, id, data); comments skipped."""
        while "\n\n" not in self._buffer:
            self._buffer += self._chunks.get(timeout=timeout).decode()
        block, self._buffer = self._buffer.split("\n\n", 1)
        fields: dict[str, str] = {}
        for line in block.split("\n"):
            if line and not line.startswith(":"):
                name, _, value = line.partition(": ")
                fields[name] = value
        return fields

    def leave(self) -> None:
        """Disconnect as a browser closing the page does; the app must end the response."""
        left = self._left
        assert left is not None
        self.app.loop.call_soon_threadsafe(left.set)
        self._future.result(TIMEOUT)

    @property
    def ended(self) -> bool:
        return self._gone.is_set()


class AsgiApp:
    """The whole ASGI application (puzzlecomp.web.asgi) on an event loop in a thread."""

    def __init__(self) -> None:
        from puzzlecomp.web.asgi import application

        self.application = application
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.streams: list[Stream] = []

    def run(self, coroutine: Any, timeout: float = TIMEOUT) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    async def request(self, path: str, headers: dict[str, str] | None = None,
                      method: str = "GET") -> Response:
        sent: list[dict[str, Any]] = []

        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        await self.application(_scope(path, headers or {}, method), receive, send)
        start = sent[0]
        return Response(start["status"],
                        {k.decode(): v.decode() for k, v in start["headers"]},
                        b"".join(m.get("body", b"") for m in sent[1:]))

    def get(self, path: str, **headers: str) -> Response:
        return self.run(self.request(path, {k.replace("_", "-"): v for k, v in headers.items()}))

    def stream(self, path: str) -> Stream:
        stream = Stream(self, path)
        self.streams.append(stream)
        return stream

    def close(self) -> None:
        for stream in self.streams:
            if not stream.ended:
                stream.leave()

        async def cancel_all() -> None:
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        self.run(cancel_all())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(TIMEOUT)
        self.loop.close()
        # A cancelled request's read may still hold the in-memory database's table lock.
        reads_wait(TIMEOUT)


@pytest.fixture
def live_app(transactional_db) -> Iterator[AsgiApp]:
    # Taking the database first means the app (and its pump's reads) stops before the
    # database is flushed at teardown, not while it is.
    app = AsgiApp()
    yield app
    app.close()
