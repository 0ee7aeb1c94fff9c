"""Notices between processes through Redis pub/sub (REDIS_URL), faster than the pump's second.

Runs a throwaway redis-server; skipped where the binary is absent.
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator

import pytest
import redis

from puzzlecomp.live import pump
from puzzlecomp.live.relay import CHANNEL, relay_close
from tests.live.entries import enter, finish


@pytest.fixture
def redis_url(settings) -> Iterator[str]:
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("needs redis-server (apt-get install redis-server)")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                               "--appendonly", "no"], stdout=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{port}/0"
    client = redis.Redis.from_url(url)
    deadline = time.monotonic() + 10
    while True:
        try:
            client.ping()
            break
        except redis.ConnectionError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)
    settings.REDIS_URL = url
    yield url
    client.close()
    relay_close()
    server.terminate()
    server.wait(10)


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
    while publisher.publish(CHANNEL, json.dumps(notice)) == 0:
        assert time.monotonic() < deadline, "the live app never subscribed"
        time.sleep(0.02)
    publisher.close()
    event = stream.next_event(timeout=2.0)
    assert (event["event"], event["id"]) == ("notice", str(seq + 1))


def test_a_result_written_here_is_published_for_the_other_processes(redis_url, live_round):
    listener = redis.Redis.from_url(redis_url)
    subscription = listener.pubsub()
    subscription.subscribe(CHANNEL)
    assert subscription.get_message(timeout=2)["type"] == "subscribe"
    finish(live_round, enter(live_round, 6, "Filip Meyer", "DE"), 3100)
    message = subscription.get_message(timeout=2)
    subscription.close()
    listener.close()
    notice = json.loads(message["data"])
    assert (notice["championship"], notice["round"], notice["kind"]) == (
        live_round.event.championship.slug, live_round.pk, "result")
