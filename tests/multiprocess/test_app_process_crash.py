"""An app process killed in the middle of a round and started again loses nothing."""

from __future__ import annotations

import datetime as dt
import functools
import threading
import time
from dataclasses import dataclass

import httpx

from tests.multiprocess.clients import post_result, tap
from tests.multiprocess.conftest import Cluster, wait_for

JUDGES = 4
ENTRIES = 120


@dataclass
class Sent:
    body: dict
    token: str
    acknowledged: bool = False


def test_killing_an_app_process_mid_round_keeps_every_acknowledged_result_and_the_clock(
        cluster: Cluster) -> None:
    live = cluster.seed(entries=ENTRIES)
    a, b = cluster.apps
    outbox = [Sent(tap(live.round_id, n, 600 + n), live.token_for(n))
              for n in range(1, ENTRIES + 1)]
    acknowledged = threading.Semaphore(0)

    def judge(mine: list[Sent]) -> None:
        with httpx.Client() as http:
            for sent in mine:
                try:
                    answer = post_result(http, a.url, sent.token, sent.body)
                except httpx.HTTPError:
                    continue
                assert answer.status_code == 200, answer.text
                sent.acknowledged = True
                acknowledged.release()

    judges = [threading.Thread(target=judge, args=(outbox[i::JUDGES],)) for i in range(JUDGES)]
    for thread in judges:
        thread.start()
    try:
        for _ in range(15):
            assert acknowledged.acquire(timeout=30), "the judges' records are not acknowledged"
        a.kill()
    finally:
        for thread in judges:
            thread.join(60)
    before_restart = [s for s in outbox if s.acknowledged]
    assert 15 <= len(before_restart) < ENTRIES
    a.start()

    # The phones' outboxes send what was never acknowledged again, with the same client ids.
    with httpx.Client() as http:
        for sent in outbox:
            if not sent.acknowledged:
                answer = post_result(http, a.url, sent.token, sent.body)
                assert answer.status_code == 200, answer.text
                sent.acknowledged = True

        changes = cluster.changes_per_client_id(live.round_id)
        assert changes == {s.body["client_id"]: 1 for s in outbox}
        stored = cluster.stored_times(live.round_id)
        assert stored == {s.body["entry"]: s.body["values"]["time_seconds"] for s in outbox}

        def snapshot_complete(app_url: str) -> bool:
            snapshot = http.get(f"{app_url}/live/{live.slug}/rounds/{live.round_id}/snapshot")
            times = {x["entry"]: x["time_seconds"] for x in snapshot.json()["lines"]}
            return times == stored

        for app in (a, b):
            wait_for(functools.partial(snapshot_complete, app.url), timeout=10,
                     what=f"every result in process {app.name}'s snapshot")

        clock = http.get(f"{a.url}/api/v1/championships/{live.slug}/rounds/{live.round_id}"
                         "/clock").json()
        server_ms = http.get(f"{a.url}/live/time").json()["now"]
    started = dt.datetime.fromisoformat(live.starts_at)
    # The API gives the stored start to the millisecond.
    assert abs((dt.datetime.fromisoformat(clock["started_at"]) - started).total_seconds()) < 0.001
    assert clock["state"] == "running"
    elapsed = (dt.datetime.fromisoformat(clock["server_now"]) - started).total_seconds()
    assert abs(elapsed - (time.time() - started.timestamp())) < 1.0
    assert abs(server_ms / 1000 - time.time()) < 1.0
