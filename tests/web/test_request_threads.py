"""Django's pages and API on the worker's request threads (web/request_threads.py): the whole
request reaches Django and the whole answer comes back, and the judges' phones are served on a
thread of their own (issue 11: the judges' tail)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.core.signals import request_started

from puzzlecomp.web import asgi, request_threads

# Django's CSRF check: the same secret in the cookie and the form.
CSRF = b"k" * 32


def http_scope(method: str, path: str, headers: list[tuple[bytes, bytes]]) -> dict[str, Any]:
    return {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
            "method": method, "scheme": "http", "path": path, "raw_path": path.encode(),
            "root_path": "", "query_string": b"", "headers": [(b"host", b"testserver"),
                                                              *headers],
            "client": ("127.0.0.1", 50000), "server": ("testserver", 80)}


def call(path: str, body: bytes = b"", *, method: str = "POST", chunks: int = 1,
         disconnect: bool = False, headers: list[tuple[bytes, bytes]] | None = None,
         ) -> list[dict[str, Any]]:
    """What the ASGI application sends for one request whose body arrives in `chunks` parts
    (or is cut off by a disconnect after the first)."""
    size = -(-len(body) // chunks) if body else 0
    parts = [body[i:i + size] for i in range(0, len(body), size)] if body else [b""]
    messages: list[dict[str, Any]] = [
        {"type": "http.request", "body": part, "more_body": n < len(parts) - 1}
        for n, part in enumerate(parts)]
    if disconnect:
        messages = [{**messages[0], "more_body": True}, {"type": "http.disconnect"}]
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return messages.pop(0)

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    form = [(b"content-type", b"application/x-www-form-urlencoded"),
            (b"content-length", str(len(body)).encode()),
            (b"cookie", b"csrftoken=" + CSRF)]
    scope = http_scope(method, path, headers if headers is not None else form)
    asyncio.run(asgi.application(scope, receive, send))
    return sent


def header(start: dict[str, Any], name: bytes) -> list[bytes]:
    return [value for key, value in start["headers"] if key == name]


def test_a_form_posted_in_parts_reaches_django_and_its_answer_comes_back_whole():
    sent = call("/i18n/setlang/", b"language=cs&next=/results/&csrfmiddlewaretoken=" + CSRF,
                chunks=3)
    start, body = sent
    assert start["type"] == "http.response.start"
    assert start["status"] == 302
    assert header(start, b"location") == [b"/results/"]
    assert any(cookie.startswith(b"django_language=cs") for cookie in
               header(start, b"set-cookie"))
    assert body == {"type": "http.response.body", "body": b""}


def test_a_body_larger_than_the_memory_limit_is_read_from_its_spilled_file(monkeypatch):
    monkeypatch.setattr(request_threads, "IN_MEMORY_BYTES", 64)
    padding = b"x" * 5_000
    form = b"language=nb&next=/&csrfmiddlewaretoken=" + CSRF + b"&padding=" + padding
    sent = call("/i18n/setlang/", form, chunks=7)
    assert sent[0]["status"] == 302
    assert any(cookie.startswith(b"django_language=nb") for cookie in
               header(sent[0], b"set-cookie"))


@contextmanager
def threads_started() -> Iterator[list[str]]:
    """The names of the threads Django started a request on, within the block."""
    started: list[str] = []

    def seen(**_: Any) -> None:
        started.append(threading.current_thread().name)

    request_started.connect(seen)
    try:
        yield started
    finally:
        request_started.disconnect(seen)


def test_a_client_that_leaves_before_its_body_is_sent_gets_nothing_and_runs_nothing():
    with threads_started() as started:
        sent = call("/i18n/setlang/", b"language=cs&next=/", disconnect=True)
    assert sent == []
    assert started == []


@pytest.mark.parametrize(("path", "thread"), [
    ("/api/v1/device/me", "judges"),
    ("/api/v1/championships", "request"),
])
def test_the_judges_phones_have_a_request_thread_of_their_own(path, thread):
    with threads_started() as started:
        call(path, method="GET", headers=[])
    assert len(started) == 1
    assert started[0].startswith(f"{thread}_")
