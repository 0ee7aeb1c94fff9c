"""The notice stream: hello with the current number, then every numbered notice, heartbeats,
and a clean end when the spectator leaves."""

from __future__ import annotations

import datetime as dt
import json
import time

import pytest
from django.utils import timezone

from puzzlecomp.championships.models import Championship, Notice, Round, RoundState
from puzzlecomp.live import broker, pump, sse
from tests.live.entries import enter, finish, live_seq


def events_path(championship: Championship) -> str:
    return f"/live/{championship.slug}/events"


def test_time_is_the_servers_clock_in_epoch_milliseconds(live_app):
    before = time.time() * 1000
    response = live_app.get("/live/time")
    assert response.status == 200
    assert response.headers["cache-control"] == "no-store"
    assert before - 1 <= response.json()["now"] <= time.time() * 1000 + 1


def test_a_stream_says_hello_with_the_current_number_then_sends_each_new_notice(live_app,
                                                                                 live_round):
    championship = live_round.event.championship
    stream = live_app.stream(events_path(championship))
    assert stream.status == 200
    assert stream.headers["content-type"].startswith("text/event-stream")
    assert stream.headers["cache-control"] == "no-cache"
    assert stream.headers["x-accel-buffering"] == "no"
    hello = stream.next_event()
    seq = live_seq(championship)
    assert hello["retry"] == "2000"
    assert (hello["event"], hello["id"]) == ("hello", str(seq))
    assert json.loads(hello["data"]) == {"championship": championship.slug, "seq": seq}

    finish(live_round, enter(live_round, 7, "Dan Smith", "US", table=7), 3300)

    notice = stream.next_event()
    assert (notice["event"], notice["id"]) == ("notice", str(seq + 1))
    assert json.loads(notice["data"]) == {
        "championship": championship.slug, "seq": seq + 1, "round": live_round.pk,
        "kind": "result"}


def test_a_spectator_leaving_ends_the_response_and_the_subscription(live_app, live_round):
    championship = live_round.event.championship
    stream = live_app.stream(events_path(championship))
    stream.next_event()
    assert broker.subscriber_count(championship.slug) == 1
    stream.leave()
    assert stream.ended
    assert broker.subscriber_count(championship.slug) == 0


def test_a_quiet_stream_pings_so_the_browser_can_tell_it_is_alive(live_app, live_round,
                                                                    monkeypatch):
    monkeypatch.setattr(sse, "HEARTBEAT_SECONDS", 0.05)
    stream = live_app.stream(events_path(live_round.event.championship))
    assert stream.next_event()["event"] == "hello"
    ping = stream.next_event()
    assert ping["event"] == "ping"
    assert "id" not in ping
    assert json.loads(ping["data"])["now"] > 0


def test_unknown_and_unpublished_championships_have_no_stream(live_app, live_round):
    assert live_app.get("/live/no-such-championship/events").status == 404
    championship = live_round.event.championship
    Championship.objects.filter(pk=championship.pk).update(published=False)
    assert live_app.get(events_path(championship)).status == 404
    assert broker.subscriber_count() == 0


def test_a_notice_made_by_another_process_arrives_through_the_pump_within_two_seconds(
        live_app, live_round):
    """Another uvicorn worker (or the command line) numbers a notice in the shared database;
    nothing is published in this process, so only the pump can deliver it."""
    championship = live_round.event.championship
    stream = live_app.stream(events_path(championship))
    seq = int(stream.next_event()["id"])
    # What `announce` does in the other process, without its in-process publish.
    Championship.objects.filter(pk=championship.pk).update(live_seq=seq + 1)
    Notice.objects.create(championship=championship, seq=seq + 1, round=live_round,
                          kind="state")
    started = time.monotonic()
    notice = stream.next_event(timeout=2.0)
    assert time.monotonic() - started < 2.0
    assert (notice["event"], notice["id"]) == ("notice", str(seq + 1))
    assert json.loads(notice["data"])["kind"] == "state"


def test_a_notice_delivered_in_process_and_by_the_pump_reaches_a_spectator_once(
        live_app, live_round, monkeypatch):
    monkeypatch.setattr(pump, "POLL_SECONDS", 0.05)
    monkeypatch.setattr(sse, "HEARTBEAT_SECONDS", 0.2)
    championship = live_round.event.championship
    stream = live_app.stream(events_path(championship))
    seq = int(stream.next_event()["id"])
    finish(live_round, enter(live_round, 8, "Eva Rossi", "IT"), 3400)
    finish(live_round, enter(live_round, 9, "Filip Meyer", "DE"), 3500)
    notices: list[str] = []
    pings_after = 0
    # Until several pump polls after the second notice have passed.
    while pings_after < 3:
        event = stream.next_event()
        if event["event"] == "notice":
            notices.append(event["id"])
        elif len(notices) == 2:
            pings_after += 1
    assert notices == [str(seq + 1), str(seq + 2)]


def test_writes_are_refused(live_app, live_round):
    response = live_app.run(live_app.request("/live/time", method="POST"))
    assert response.status == 405
    assert response.headers["allow"] == "GET, HEAD"


@pytest.mark.parametrize("path", [
    "/live/", "/live/x/rounds/abc/snapshot", "/live/x/other",
    "/live/x/rounds/123456789012345678901234567890/snapshot"])
def test_unknown_live_addresses_are_not_found(live_app, path):
    assert live_app.get(path).status == 404


def test_a_head_request_of_a_stream_answers_without_opening_one(live_app, live_round):
    response = live_app.run(live_app.request(
        events_path(live_round.event.championship), method="HEAD"))
    assert (response.status, response.body) == (200, b"")
    assert response.headers["content-type"] == "text/event-stream"
    assert broker.subscriber_count() == 0


def test_at_the_limit_the_pump_moves_the_round_to_counting_and_says_so(live_app, live_round,
                                                                       monkeypatch):
    """wjpc-2025.txt: the individual first round lasts 90 minutes; no reader is needed for
    every screen to see the round counting at the limit."""
    monkeypatch.setattr(pump, "POLL_SECONDS", 0.05)
    championship = live_round.event.championship
    stream = live_app.stream(events_path(championship))
    seq = int(stream.next_event()["id"])
    Round.objects.filter(pk=live_round.pk).update(
        starts_at=timezone.now() - dt.timedelta(minutes=90, seconds=1))
    notice = stream.next_event()
    assert json.loads(notice["data"]) == {"championship": championship.slug, "seq": seq + 1,
                                          "round": live_round.pk, "kind": "state"}
    assert Round.objects.get(pk=live_round.pk).state == RoundState.COUNTING
