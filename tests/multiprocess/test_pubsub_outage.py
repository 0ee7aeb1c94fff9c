"""Spectators catch up after the pub/sub path (Redis) was down: the pump reads the notices."""

from __future__ import annotations

import time

import httpx

from tests.multiprocess.clients import Spectator, post_result, tap
from tests.multiprocess.conftest import Cluster, wait_for

PER_PROCESS = 3
CATCH_UP_SECONDS = 10.0


def test_every_spectator_reaches_the_latest_results_within_10_s_after_redis_returns(
        cluster: Cluster) -> None:
    live = cluster.seed(entries=12)
    spectators = [Spectator(app.url, live.slug).start()
                  for app in cluster.apps for _ in range(PER_PROCESS)]
    times: dict[int, int] = {}
    try:
        with httpx.Client() as http:
            cluster.redis.stop()
            try:
                for n in range(1, 7):
                    app = cluster.apps[n % 2]
                    answer = post_result(http, app.url, live.token_for(n),
                                         tap(live.round_id, n, 900 + n))
                    # Without Redis a judge's write still succeeds: it is in the database.
                    assert answer.status_code == 200, answer.text
                    times[n] = 900 + n
            finally:
                cluster.redis.start()
            returned = time.monotonic()
            answer = post_result(http, cluster.apps[0].url, live.token_for(7),
                                 tap(live.round_id, 7, 907))
            assert answer.status_code == 200, answer.text
            times[7] = 907
            latest = cluster.query("SELECT live_seq FROM championships_championship "
                                   "WHERE slug=%s", live.slug)[0][0]
            wait_for(lambda: all(s.last_seq >= latest for s in spectators),
                     timeout=CATCH_UP_SECONDS + 5, what=f"every spectator at notice {latest}")
            assert time.monotonic() - returned <= CATCH_UP_SECONDS
            for app in cluster.apps:
                snapshot = http.get(f"{app.url}/live/{live.slug}/rounds/{live.round_id}"
                                    "/snapshot").json()
                assert snapshot["seq"] == latest
                assert {x["entry"]: x["time_seconds"] for x in snapshot["lines"]
                        if x["time_seconds"] is not None} == times
    finally:
        for spectator in spectators:
            spectator.stop()
