"""A notice made in one app process reaches the spectators of another through Redis pub/sub."""

from __future__ import annotations

import time

import httpx

from tests.multiprocess.clients import Spectator, post_result, tap
from tests.multiprocess.conftest import Cluster, wait_for


def test_a_result_recorded_on_one_process_reaches_a_spectator_of_another_within_2_s(
        cluster: Cluster) -> None:
    live = cluster.seed(entries=10)
    a, b = cluster.apps
    spectator = Spectator(b.url, live.slug).start()
    try:
        with httpx.Client() as http:
            token = live.token_for(7)
            assert http.get(f"{a.url}/api/v1/device/me",
                            headers={"Authorization": f"Bearer {token}"}).status_code == 200
            sent = time.monotonic()
            answer = post_result(http, a.url, token, tap(live.round_id, 7, 1500))
            assert answer.status_code == 200, answer.text
            seq = cluster.query("SELECT live_seq FROM championships_championship WHERE slug=%s",
                                live.slug)[0][0]
            arrived = wait_for(lambda: spectator.first_arrival(seq), timeout=5,
                               what=f"notice {seq} on process B")
            assert arrived - sent < 2.0
            snapshot = http.get(f"{b.url}/live/{live.slug}/rounds/{live.round_id}/snapshot")
            assert snapshot.status_code == 200
            line = next(x for x in snapshot.json()["lines"] if x["entry"] == 7)
            assert (snapshot.json()["seq"], line["status"], line["time_seconds"]) == (
                seq, "finished", 1500)
    finally:
        spectator.stop()
