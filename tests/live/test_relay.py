"""Notices between processes through Redis pub/sub (REDIS_URL), faster than the pump's second.

Uses the machine's Redis (tests/services.py) under a prefix of the test's own; skipped
when it does not answer.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import pytest
import redis

from puzzlecomp.live import pump
from puzzlecomp.live.relay import relay_channel, relay_close
from tests.live.entries import enter, finish
from tests.services import keys_delete, machine_redis_url, run_prefix


@pytest.fixture
def redis_url(settings) -> Iterator[str]:
    url = machine_redis_url()
    settings.REDIS_URL = url
    settings.REDIS_PREFIX = run_prefix()
    yield url
    relay_close()
    keys_delete(url, settings.REDIS_PREFIX)


def test_a_notice_from_another_process_arrives_through_redis_before_the_pump_polls(
        redis_url, live_app, live_round, monkeypatch):
    """Nothing changes in the database, so only Redis can carry this one."""
    monkeypatch.setattr(pump, "POLL_SECONDS", 60.0)
    championship = live_round.event.championship
    stream = live_app.stream(f"/live/{championship.slug}/events")
    seq = int(stream.next_event()["id"])
    publisher = redis.Redis.from_url(redis_url)
    notice = {"championship": championship.slug, "seq": seq + 1, "round": live_round.pk,
              "kind": "result"}
    # The listener subscribes as the pump starts: publish until it is there.
    deadline = time.monotonic() + 5
    while publisher.publish(relay_channel(), json.dumps(notice)) == 0:
        assert time.monotonic() < deadline, "the live app never subscribed"
        time.sleep(0.02)
    publisher.close()
    event = stream.next_event(timeout=2.0)
    assert (event["event"], event["id"]) == ("notice", str(seq + 1))


def test_a_result_written_here_is_published_for_the_other_processes(redis_url, live_round):
    listener = redis.Redis.from_url(redis_url)
    subscription = listener.pubsub()
    subscription.subscribe(relay_channel())
    assert subscription.get_message(timeout=2)["type"] == "subscribe"
    finish(live_round, enter(live_round, 6, "Filip Meyer", "DE"), 3100)
    message = subscription.get_message(timeout=2)
    subscription.close()
    listener.close()
    notice = json.loads(message["data"])
    assert (notice["championship"], notice["round"], notice["kind"]) == (
        live_round.event.championship.slug, live_round.pk, "result")


def test_another_site_on_the_same_redis_does_not_reach_these_spectators(
        redis_url, live_app, live_round, monkeypatch, settings):
    """PUZZLECOMP_REDIS_PREFIX: two sites sharing one Redis each hear only their own channel."""
    monkeypatch.setattr(pump, "POLL_SECONDS", 60.0)
    championship = live_round.event.championship
    stream = live_app.stream(f"/live/{championship.slug}/events")
    seq = int(stream.next_event()["id"])
    publisher = redis.Redis.from_url(redis_url)
    prefix = settings.REDIS_PREFIX
    settings.REDIS_PREFIX = f"{prefix}-other"
    other_site = relay_channel()
    settings.REDIS_PREFIX = prefix
    ours = {"championship": championship.slug, "seq": seq + 2, "round": live_round.pk,
            "kind": "result"}
    theirs = {**ours, "seq": seq + 1}
    deadline = time.monotonic() + 5
    while publisher.publish(relay_channel(), json.dumps({**ours, "seq": seq})) == 0:
        assert time.monotonic() < deadline, "the live app never subscribed"
        time.sleep(0.02)
    assert publisher.publish(other_site, json.dumps(theirs)) == 0
    publisher.publish(relay_channel(), json.dumps(ours))
    publisher.close()
    event = stream.next_event(timeout=2.0)
    assert (event["event"], event["id"]) == ("notice", str(seq + 2))
