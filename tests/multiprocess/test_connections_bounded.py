"""A burst of judges' records does not open a database connection per request: each app
process holds at most its request threads' connections (the judges' thread among them) plus the
live app's readers, so PostgreSQL's connection limit holds with several processes
(docs/deployment.md)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import httpx

from puzzlecomp.live.reads import LIVE_READ_THREADS
from puzzlecomp.web.asgi import DEFAULT_REQUEST_THREADS, JUDGES_THREADS
from tests.multiprocess.clients import post_result, tap
from tests.multiprocess.conftest import Cluster

BURST = 100


def test_a_burst_of_100_records_opens_no_more_connections_than_the_threads(
        cluster: Cluster) -> None:
    live = cluster.seed(entries=BURST, devices=10)
    a, b = cluster.apps
    peak = [0]
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            (count,), = cluster.query(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                " AND pid <> pg_backend_pid()")
            peak[0] = max(peak[0], count)
            done.wait(0.005)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        with httpx.Client(limits=httpx.Limits(max_connections=BURST)) as http, \
                ThreadPoolExecutor(BURST) as pool:
            answers = list(pool.map(
                lambda n: post_result(http, (a if n % 2 else b).url, live.token_for(n),
                                      tap(live.round_id, n, 1200 + n)),
                range(1, BURST + 1)))
    finally:
        done.set()
        watcher.join()
    assert [r.status_code for r in answers] == [200] * BURST
    bound = len(cluster.apps) * (DEFAULT_REQUEST_THREADS + JUDGES_THREADS + LIVE_READ_THREADS)
    assert 0 < peak[0] <= bound
