"""Review of the request-body limits (web/body_limits.py), findings 1, 2, 5 and 6.

1. Slow anonymous form bodies filled the one pool of 256 bodies, so the judges' records got
   503: the device API now has a pool of its own, and one client address may send at most
   PUZZLECOMP_BODIES_PER_CLIENT bodies at once.
2. Any `sessionid` cookie, even a made-up one, unlocked the 50 MB upload limit: now only a
   session that exists and is signed in does.
5. Bodies sent to /live/ were read without limit: now refused at once.
6. A file at the documented 50 MB maximum was refused (the limit counted the whole multipart
   body), and the refusals had no Content-Length.
"""

from __future__ import annotations

import asyncio

import pytest

from puzzlecomp.rules.limits import MAX_CHAMPIONSHIP_FILE_BYTES
from puzzlecomp.web import asgi, body_limits, request_threads
from tests.web.test_body_limits import Client, form_headers, request
from tests.web.test_request_threads import CSRF, http_scope


def from_address(path: str, headers: list[tuple[bytes, bytes]], address: str) -> dict:
    scope = http_scope("POST", path, headers)
    scope["client"] = (address, 40000)
    return scope


def cookie_headers(length: int, session: str) -> list[tuple[bytes, bytes]]:
    return [(b"content-type", b"multipart/form-data; boundary=x"),
            (b"content-length", str(length).encode()),
            (b"cookie", b"csrftoken=" + CSRF + b"; sessionid=" + session.encode())]


def test_slow_form_bodies_filling_their_pool_leave_the_judges_records_room(monkeypatch):
    monkeypatch.setattr(body_limits, "BODIES_AT_ONCE", 3)
    monkeypatch.setattr(request_threads, "BODY_SECONDS", 0.5)

    async def attack() -> tuple[list[int | None], Client, Client]:
        slow = [Client([b"a=", None]) for _ in range(3)]
        tasks = [asyncio.create_task(asgi.application(
            from_address("/accounts/login/", form_headers(1000), f"198.51.100.{n}"),
            c.receive, c.send)) for n, c in enumerate(slow)]
        await asyncio.sleep(0.1)
        form, record = Client([b"a=b"]), Client([b"{}"])
        await request(form, "/accounts/login/", form_headers(3))
        await request(record, "/api/v1/device/results", [(b"content-length", b"2")])
        await asyncio.gather(*tasks)
        return [c.status for c in slow], form, record

    slow, form, record = asyncio.run(attack())
    assert slow == [408, 408, 408]
    assert form.status == 503
    # The record's body was read and reached the API (which wants a device token).
    assert record.asked == 1
    assert record.status == 401
    assert (body_limits.held.all, body_limits.held.device) == (0, 0)


def test_one_client_address_sends_at_most_its_cap_of_bodies_at_once(monkeypatch):
    monkeypatch.setattr(body_limits, "BODIES_PER_CLIENT", 2)
    monkeypatch.setattr(request_threads, "BODY_SECONDS", 0.5)

    async def attack() -> tuple[list[int | None], list[int | None], Client]:
        mine = [Client([b"a=", None]) for _ in range(3)]
        tasks = [asyncio.create_task(asgi.application(
            from_address("/accounts/login/", form_headers(1000), "198.51.100.7"),
            c.receive, c.send)) for c in mine]
        # The judges' records have their own count per address (a hall's judges may share
        # their address with whoever sends slow forms), capped the same.
        records = [Client([b"{", None]) for _ in range(3)]
        tasks += [asyncio.create_task(asgi.application(
            from_address("/api/v1/device/results", [(b"content-length", b"50")],
                         "198.51.100.7"), r.receive, r.send)) for r in records]
        await asyncio.sleep(0.1)
        at_once = [c.status for c in [*mine, *records]]
        other = Client([b"language=", None])
        tasks.append(asyncio.create_task(asgi.application(
            from_address("/i18n/setlang/", form_headers(100), "198.51.100.8"),
            other.receive, other.send)))
        await asyncio.gather(*tasks)
        return at_once, [c.status for c in [*mine, *records]], other

    at_once, finally_, other = asyncio.run(attack())
    assert at_once == [None, None, 503] * 2
    assert finally_ == [408, 408, 503] * 2
    # Another address was not held back (its body was waited for until the deadline).
    assert other.status == 408
    assert body_limits.held.arriving == {}


def test_a_made_up_session_cookie_gets_the_form_maximum_on_the_upload_paths(session_key):
    two_mb = 2 * 1024 * 1024
    made_up = Client([b"x", None])
    asyncio.run(request(made_up, "/control/import/", cookie_headers(two_mb, "junk")))
    assert made_up.status == 413
    assert made_up.asked == 0
    assert body_limits.held.large == 0


def test_a_signed_in_session_gets_the_upload_maximum(session_key, monkeypatch):
    monkeypatch.setattr(request_threads, "BODY_SECONDS", 0.3)
    upload = Client([b"x", None])
    asyncio.run(request(upload, "/control/import/", cookie_headers(2 * 1024 * 1024,
                                                                   session_key)))
    # Its body was waited for (408 at the deadline), not refused for its size.
    assert upload.status == 408
    assert upload.asked >= 1


def test_a_file_at_the_documented_maximum_fits_with_its_multipart_form(session_key):
    with_form = MAX_CHAMPIONSHIP_FILE_BYTES + 64 * 1024
    scope = http_scope("POST", "/control/import/", cookie_headers(with_form, session_key))
    assert body_limits.body_maximum(scope, signed_in=True) >= with_form
    over = Client([b"x"])
    asyncio.run(request(over, "/control/import/",
                        cookie_headers(body_limits.UPLOAD_BYTES + 1, session_key)))
    assert over.status == 413


@pytest.mark.parametrize(("method", "status"), [("POST", 405), ("GET", 413)])
def test_a_body_sent_to_the_live_app_is_refused_at_once(method, status):
    live = Client([b"x" * 1024] * 10)
    scope = http_scope(method, "/live/time", [(b"transfer-encoding", b"chunked")])
    asyncio.run(asgi.application(scope, live.receive, live.send))
    assert live.status == status
    assert live.closes()
    assert live.asked == 0


def test_every_refusal_says_its_length_for_http_1_0_clients():
    refused = Client([b""])
    asyncio.run(request(refused, "/registration/", form_headers(2 * 1024**3)))
    headers = dict(refused.sent[0]["headers"])
    assert refused.status == 413
    assert int(headers[b"content-length"]) == len(refused.sent[1]["body"])
