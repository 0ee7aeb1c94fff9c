"""Issue 22, finding 4: request bodies are bounded in size and time before the request threads
read them (web/body_limits.py). Before, `_body` read every body whole: an anonymous 2 GB POST
was spooled to disk before the 403, and slow bodies were held for ever."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from puzzlecomp.web import asgi, body_limits, request_threads
from tests.web.test_request_threads import CSRF, http_scope, threads_started

Message = dict[str, Any]


class Client:
    """One request's side of the ASGI conversation: the body parts it will send when asked
    (a part of None never comes), and what the application sent back."""

    def __init__(self, parts: list[bytes | None]) -> None:
        self.parts = parts
        self.asked = 0
        self.sent: list[Message] = []

    async def receive(self) -> Message:
        self.asked += 1
        if not self.parts:
            await asyncio.Event().wait()
        part = self.parts.pop(0)
        if part is None:
            await asyncio.Event().wait()
        return {"type": "http.request", "body": part, "more_body": bool(self.parts)}

    async def send(self, message: Message) -> None:
        self.sent.append(message)

    @property
    def status(self) -> int | None:
        return self.sent[0]["status"] if self.sent else None

    def closes(self) -> bool:
        return (b"connection", b"close") in self.sent[0]["headers"]


def form_headers(length: int | None, *, session: str | None = None,
                 ) -> list[tuple[bytes, bytes]]:
    cookie = b"csrftoken=" + CSRF + (b"; sessionid=" + session.encode() if session else b"")
    size = ([(b"content-length", str(length).encode())] if length is not None
            else [(b"transfer-encoding", b"chunked")])
    return [(b"content-type", b"application/x-www-form-urlencoded"), *size, (b"cookie", cookie)]


async def request(client: Client, path: str, headers: list[tuple[bytes, bytes]]) -> None:
    await asgi.application(http_scope("POST", path, headers), client.receive, client.send)


def run(client: Client, path: str, headers: list[tuple[bytes, bytes]]) -> Client:
    asyncio.run(request(client, path, headers))
    return client


def test_a_2_gb_post_is_refused_from_its_content_length_before_a_byte_is_read():
    client = Client([b"x" * 1024])
    with threads_started() as started:
        run(client, "/registration/", form_headers(2 * 1024**3))
    assert client.status == 413
    assert client.closes()
    assert client.asked == 0
    assert started == []


def test_a_chunked_body_is_refused_once_it_passes_the_maximum_and_nothing_more_is_read():
    chunk = b"x" * (256 * 1024)
    client = Client([chunk] * 100)
    with threads_started() as started:
        run(client, "/registration/", form_headers(None))
    assert client.status == 413
    assert client.closes()
    assert client.asked == body_limits.FORM_BYTES // len(chunk) + 1
    assert started == []


@pytest.mark.parametrize(("path", "maximum"), [
    ("/api/v1/device/results", body_limits.DEVICE_BYTES),
    ("/control/import/", body_limits.FORM_BYTES),
    # Issue 29, review finding 4: anyone checks a results package of 1-2 MB.
    ("/verify/", body_limits.UPLOAD_BYTES),
    ("/verify/other", body_limits.FORM_BYTES),
])
def test_each_path_has_its_maximum_and_uploads_need_a_session(path, maximum):
    assert_maximum(path, maximum, session=None)


@pytest.mark.parametrize(("path", "maximum"), [
    ("/accounts/login/", body_limits.FORM_BYTES),
    ("/control/import/", body_limits.UPLOAD_BYTES),
    ("/control/spring-open/data/import/", body_limits.UPLOAD_BYTES),
    ("/control/spring-open/data/import/confirm/", body_limits.FORM_BYTES),
])
def test_a_signed_in_session_gets_the_upload_maximum_on_the_upload_paths_only(path, maximum,
                                                                              session_key):
    assert_maximum(path, maximum, session=session_key)


def assert_maximum(path: str, maximum: int, *, session: str | None) -> None:
    under, over = Client([b""]), Client([b""])
    run(over, path, form_headers(maximum + 1, session=session))
    assert over.status == 413
    assert body_limits.body_maximum(http_scope("POST", path, form_headers(
        0, session=session)), signed_in=session is not None) == maximum
    # At the maximum the body is read (and the view answers, whatever it says).
    run(under, path, form_headers(maximum, session=session))
    assert under.asked >= 1


def test_a_body_slower_than_the_deadline_gets_408_and_the_connection_closes(monkeypatch):
    monkeypatch.setattr(request_threads, "BODY_SECONDS", 0.2)
    client = Client([b"language=", None])
    with threads_started() as started:
        run(client, "/i18n/setlang/", form_headers(100))
    assert client.status == 408
    assert client.closes()
    assert started == []
    assert body_limits.held.all == 0


def test_bodies_held_at_once_are_capped_and_the_rest_refused_at_once(monkeypatch):
    monkeypatch.setattr(body_limits, "BODIES_AT_ONCE", 3)
    monkeypatch.setattr(request_threads, "BODY_SECONDS", 0.5)

    async def attack() -> list[Client]:
        slow = [Client([b"a=", None]) for _ in range(5)]
        tasks = [asyncio.create_task(request(c, "/i18n/setlang/", form_headers(100)))
                 for c in slow]
        await asyncio.sleep(0.1)
        refused_at_once = [c.status for c in slow]
        await asyncio.gather(*tasks)
        assert refused_at_once == [None, None, None, 503, 503]
        return slow

    clients = asyncio.run(attack())
    assert [c.status for c in clients] == [408, 408, 408, 503, 503]
    assert all(c.closes() for c in clients)
    assert body_limits.held.all == 0


def test_only_a_few_bodies_larger_than_a_form_are_held_at_once(monkeypatch, session_key):
    monkeypatch.setattr(request_threads, "BODY_SECONDS", 0.5)
    size = body_limits.FORM_BYTES + 1

    async def attack() -> list[int]:
        uploads = [Client([b"x", None]) for _ in range(body_limits.LARGE_AT_ONCE + 2)]
        await asyncio.gather(*(request(c, "/control/import/",
                                       form_headers(size, session=session_key))
                               for c in uploads))
        # Sorted: the session lookups end in any order.
        return sorted(c.status or 0 for c in uploads)

    assert asyncio.run(attack()) == [408] * body_limits.LARGE_AT_ONCE + [503, 503]
    assert (body_limits.held.all, body_limits.held.large) == (0, 0)


def test_a_body_within_its_limits_still_reaches_django():
    form = b"language=cs&next=/results/&csrfmiddlewaretoken=" + CSRF
    client = run(Client([form[:10], form[10:]]), "/i18n/setlang/", form_headers(len(form)))
    assert client.status == 302
    assert body_limits.held.all == 0
