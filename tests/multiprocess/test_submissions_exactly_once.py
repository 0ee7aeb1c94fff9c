"""1,000 judges' submissions through unreliable networks land exactly once.

Phones drop connections (before the answer, or in the middle of the request), time out, send
the same record two or three times at once and again later, and reload the page (read
/device/me, then send the whole outbox again). The client id is the idempotency key: in the end
every record is stored once, and none is lost.
"""

from __future__ import annotations

import contextlib
import random
import threading
from dataclasses import dataclass
from typing import Any

from tests.multiprocess.clients import Line, send_and_drop, tap
from tests.multiprocess.conftest import Cluster

SUBMISSIONS = 1000
PHONES = 6
SEED = 6
RELOAD_EVERY = 100
RESULTS = "/api/v1/device/results"


@dataclass
class Record:
    body: dict
    token: str
    acknowledged: bool = False


class Phone:
    """One judge's phone: an outbox sent to a random app process, retried until answered."""

    def __init__(self, cluster: Cluster, records: list[Record], rng: random.Random) -> None:
        self.urls = [app.url for app in cluster.apps]
        self.token = records[0].token
        self.lines = [Line(url, self.token) for url in self.urls]
        self.records = records
        self.rng = rng
        self.errors: list[str] = []

    def run(self) -> None:
        try:
            for done, record in enumerate(self.records, 1):
                self.submit(record)
                if done % RELOAD_EVERY == 0:
                    self.reload()
            self.reload()
            for record in self.records:
                while not record.acknowledged:
                    self.send(record)
        except Exception as error:  # reported by the test, not lost in the thread
            self.errors.append(repr(error))
        finally:
            for line in self.lines:
                line.close()

    def submit(self, record: Record) -> None:
        url = self.rng.choice(self.urls)
        fault = self.rng.random()
        if fault < 0.1:
            send_and_drop(url, self.token, record.body, whole=True)
        elif fault < 0.2:
            send_and_drop(url, self.token, record.body, whole=False)
        elif fault < 0.3:
            impatient = Line(url, self.token, timeout=0.005)
            with contextlib.suppress(TimeoutError):
                self.accept(record, *impatient.request("POST", RESULTS, record.body))
            impatient.close()
        elif fault < 0.45:
            self.send_at_once(record, copies=self.rng.choice((2, 3)))
        else:
            self.send(record)

    def send(self, record: Record) -> None:
        line = self.rng.choice(self.lines)
        self.accept(record, *line.request("POST", RESULTS, record.body))

    def send_at_once(self, record: Record, *, copies: int) -> None:
        def one(url: str) -> None:
            line = Line(url, self.token)
            try:
                self.accept(record, *line.request("POST", RESULTS, record.body))
            except Exception as error:
                self.errors.append(repr(error))
            finally:
                line.close()

        threads = [threading.Thread(target=one, args=(self.urls[i % 2],)) for i in range(copies)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)

    def accept(self, record: Record, status: int, answer: Any) -> None:
        if status != 200:
            self.errors.append(f"{record.body['entry']}: HTTP {status} {answer}")
            return
        if answer["result"]["time_seconds"] != record.body["values"]["time_seconds"]:
            self.errors.append(f"{record.body['entry']}: answered {answer}")
        record.acknowledged = True

    def reload(self) -> None:
        """A page reload: the phone reads its tables again, then sends its whole outbox (the
        acknowledged records too: the outbox may not have noted an answer before the reload)."""
        status, _me = self.rng.choice(self.lines).request("GET", "/api/v1/device/me")
        if status != 200:
            self.errors.append(f"/device/me: HTTP {status}")
            return
        for record in self.records:
            if not record.acknowledged or self.rng.random() < 0.05:
                self.send(record)


def test_1000_submissions_with_dropped_connections_duplicates_and_reloads_land_exactly_once(
        cluster: Cluster) -> None:
    live = cluster.seed(entries=SUBMISSIONS, devices=PHONES)
    records = [Record(tap(live.round_id, n, 300 + n % 1400), live.token_for(n))
               for n in range(1, SUBMISSIONS + 1)]
    by_token: dict[str, list[Record]] = {}
    for record in records:
        by_token.setdefault(record.token, []).append(record)
    phones = [Phone(cluster, mine, random.Random(SEED + i))
              for i, mine in enumerate(by_token.values())]
    threads = [threading.Thread(target=phone.run) for phone in phones]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(300)
    assert not any(thread.is_alive() for thread in threads)
    errors = [e for phone in phones for e in phone.errors]
    assert errors == [], "".join(app.log_tail() for app in cluster.apps)
    assert all(record.acknowledged for record in records)

    changes = cluster.changes_per_client_id(live.round_id)
    assert changes == {r.body["client_id"]: 1 for r in records}
    stored = cluster.stored_times(live.round_id, version=1)
    assert stored == {r.body["entry"]: r.body["values"]["time_seconds"] for r in records}
