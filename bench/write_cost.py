"""What one judge's record costs the app process: CPU, wall time and SQL statements, on SQLite
and (with `--database-url`) on PostgreSQL in the same run, with their ratio.

    .venv/bin/python bench/write_cost.py
    .venv/bin/python bench/write_cost.py --database-url postgresql://postgres@127.0.0.1:5432/postgres

Each backend runs in a process of its own (Django is configured once per process) on the
round of bench/live_spectators.py (1,200 entries, 600 waiting for a result): 100 paired phones,
one per table, each send `POST /api/v1/device/results` through Django's test client, in one
thread, so the figures are the server's cost of a record with nothing queued. The first
`--warmup` records are not counted. Prints JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from live_spectators import build_championship, fresh_postgres, judge_devices

JUDGES = 100


def measure(records: int, warmup: int) -> dict[str, Any]:
    """In this process: set up the round, send the records, return the figures."""
    with tempfile.TemporaryDirectory(prefix="puzzlecomp-bench-") as tmp:
        setup = build_championship(Path(tmp))
        devices = judge_devices(setup, JUDGES)
        from django.db import connection
        from django.test import Client
        from django.test.utils import CaptureQueriesContext

        client = Client(HTTP_HOST="127.0.0.1")

        def record(n: int) -> None:
            token, entries = devices[n % JUDGES]
            body = {"client_id": str(uuid.uuid4()), "round_id": setup.round_id,
                    "entry": entries[n // JUDGES], "base_version": 0, "action": "tap",
                    "values": {"time_seconds": 3000}}
            answer = client.post("/api/v1/device/results", data=json.dumps(body),
                                 content_type="application/json",
                                 HTTP_AUTHORIZATION=f"Bearer {token}")
            if answer.status_code != 200:
                raise SystemExit(f"record {n}: HTTP {answer.status_code} {answer.content!r}")

        for n in range(warmup):
            record(n)
        with CaptureQueriesContext(connection) as statements:
            record(warmup)
        # Read now: every request empties Django's query log as it starts.
        statement_count = len(statements.captured_queries)
        cpu, wall = time.process_time(), time.perf_counter()
        for n in range(warmup + 1, records):
            record(n)
        counted = records - warmup - 1
        return {"backend": connection.vendor, "records": counted,
                "cpu_ms_per_record": round((time.process_time() - cpu) / counted * 1000, 2),
                "wall_ms_per_record": round((time.perf_counter() - wall) / counted * 1000, 2),
                "statements_per_record": statement_count}


def run_backend(database_url: str | None, records: int, warmup: int) -> dict[str, Any]:
    env = {**os.environ}
    env.pop("DATABASE_URL", None)
    if database_url:
        env["DATABASE_URL"] = database_url
    out = subprocess.run([sys.executable, __file__, "--child", "--records", str(records),
                          "--warmup", str(warmup)], env=env, check=True, stdout=subprocess.PIPE,
                         text=True)
    return dict(json.loads(out.stdout))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=600, help="at most 600 (the round's)")
    parser.add_argument("--warmup", type=int, default=100,
                        help="not counted (by then every phone was seen once)")
    parser.add_argument("--database-url", help="a PostgreSQL server to compare with "
                        "(a database is created for the run)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not args.warmup < args.records <= 600:
        parser.error("need warmup < records <= 600")
    if args.child:
        print(json.dumps(measure(args.records, args.warmup)))
        return 0
    figures: dict[str, Any] = {"sqlite": run_backend(None, args.records, args.warmup)}
    if args.database_url:
        with fresh_postgres(args.database_url, "write") as url:
            figures["postgresql"] = run_backend(url, args.records, args.warmup)
        figures["postgresql_vs_sqlite_cpu"] = round(
            figures["postgresql"]["cpu_ms_per_record"] / figures["sqlite"]["cpu_ms_per_record"],
            2)
    print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
