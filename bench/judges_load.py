"""Judges' phones recording through the device API: how long each record waits for its answer,
at a steady rate plus a burst of records sent at the same instant, against `GET /live/time`
(no database) sent on the same schedule to the same server in the same run.

    .venv/bin/python bench/judges_load.py            # --rate 20 --seconds 25 --burst 100
                                                     # --workers (one per core)
    .venv/bin/python bench/judges_load.py --database-url postgres://postgres@127.0.0.1:5432/postgres

The round is the WJPC-sized one of bench/live_spectators.py (1,200 entries, 600 waiting for a
result) in a temporary SQLite file, or with `--database-url` in a fresh PostgreSQL database
created on that server for the run and dropped after it. 100 judges' devices, one per table,
tap finishes (`POST /api/v1/device/results`) `--rate` times a second in all for `--seconds`;
halfway, `--burst` more records leave at once. Prints JSON: answer times (p50, p95, p99, max)
of every record, of the steady ones and of the burst, the HTTP statuses, and how often the
server logged "database is locked".
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import datetime as dt
import json
import math
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from live_spectators import (
    Answer,
    Phones,
    Schedule,
    build_championship,
    fresh_postgres,
    judge_devices,
    judges_record,
    server,
)


def waits(answers: list[Answer]) -> dict[str, Any]:
    if len(answers) < 2:
        return {}
    cuts = statistics.quantiles([a.wait for a in answers], n=100)
    return {"requests": len(answers), "p50_ms": round(cuts[49] * 1000, 1),
            "p95_ms": round(cuts[94] * 1000, 1), "p99_ms": round(cuts[98] * 1000, 1),
            "max_ms": round(max(a.wait for a in answers) * 1000, 1)}


def figures_of(answers: list[Answer]) -> dict[str, Any]:
    return {
        "all": waits(answers),
        "steady": waits([a for a in answers if not a.burst]),
        "burst": waits([a for a in answers if a.burst]),
        "statuses": {str(k): v for k, v in Counter(a.status for a in answers).items()},
    }


def timeline_write(path: Path, answers: list[Answer]) -> None:
    """One line per record in the order sent: when (UTC, and seconds from the first), how
    long it waited, its status and whether it was one of the burst."""
    ordered = sorted(answers, key=lambda a: a.sent_at)
    first = ordered[0].sent_at if ordered else 0.0
    with path.open("w", newline="") as out:
        lines = csv.writer(out)
        lines.writerow(["sent_at_utc", "offset_s", "wait_ms", "status", "burst"])
        for a in ordered:
            sent = dt.datetime.fromtimestamp(a.sent_at, dt.UTC)
            lines.writerow([sent.isoformat(timespec="milliseconds"),
                            f"{a.sent_at - first:.3f}", f"{a.wait * 1000:.1f}", a.status,
                            int(a.burst)])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=float, default=20.0, help="records a second, all judges")
    parser.add_argument("--seconds", type=float, default=25.0, help="of steady recording")
    parser.add_argument("--burst", type=int, default=100, help="records sent at one instant")
    parser.add_argument("--judges", type=int, default=100)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                        help="uvicorn worker processes (default: one per core, as "
                        "docs/deployment.md recommends)")
    parser.add_argument("--database-url", help="a PostgreSQL server to run against "
                        "(a database is created for the run); default: SQLite")
    parser.add_argument("--timeline", type=Path, help="write every record's send time and "
                        "wait to this CSV file (to line slow answers up with the server)")
    args = parser.parse_args()
    schedule = Schedule(args.judges, args.rate, args.seconds, args.burst, 0.0)
    if len(schedule.offsets()) > 600:
        parser.error("the round has 600 entries waiting: at most 600 records")
    with tempfile.TemporaryDirectory(prefix="puzzlecomp-bench-") as tmp, \
            fresh_postgres(args.database_url, "judges") as database_url:
        if database_url:
            os.environ["DATABASE_URL"] = database_url
        data_dir = Path(tmp)
        setup = build_championship(data_dir)
        devices = judge_devices(setup, args.judges)
        from django.db import connections

        connections.close_all()

        async def record(phones: Phones, judge: int, n: int,
                         client_id: str) -> tuple[int, float]:
            token, entries = devices[judge]
            response = await phones.post(judge, "/api/v1/device/results", json_body={
                "client_id": client_id, "round_id": setup.round_id, "entry": entries[n],
                "base_version": 0, "action": "tap",
                "values": {"time_seconds": int(time.time() - setup.started_at)}},
                headers={"Authorization": f"Bearer {token}"})
            return response.status_code, math.nan

        async def clock(phones: Phones, judge: int, n: int,
                        client_id: str) -> tuple[int, float]:
            return (await phones.get(judge, "/live/time")).status_code, math.nan

        log = data_dir / "server.log"
        retries: list[int] = []
        workers = ("--workers", str(args.workers)) if args.workers > 1 else ()
        # Phones keep their connection between records (uvicorn's default closes it after 5 s).
        with server(data_dir, "puzzlecomp.web.asgi:application", *workers,
                    "--timeout-keep-alive", "60", log=log) as (port, _pid):
            baseline = asyncio.run(judges_record(port, schedule, clock))
            answers = asyncio.run(judges_record(port, schedule, record, retries))
        server_log = log.read_text(errors="replace")
        from puzzlecomp.championships.models import Result

        stored = Result.objects.filter(round_id=setup.round_id).count() - 600
        connections.close_all()
    if args.timeline:
        timeline_write(args.timeline, answers)
    records = figures_of(answers)
    print(json.dumps({
        "database": "postgresql" if args.database_url else "sqlite",
        "workers": args.workers,
        "schedule": {"rate": args.rate, "seconds": args.seconds, "burst": args.burst,
                     "judges": args.judges},
        "records": records,
        "results_stored": stored,
        "resent_after_a_dropped_connection": len(retries),
        "database_is_locked": server_log.count("database is locked"),
        "server_errors_logged": server_log.count("Traceback"),
        "baseline_live_time": figures_of(baseline),
        "p99_vs_baseline": round(records["all"]["p99_ms"]
                                 / max(figures_of(baseline)["all"]["p99_ms"], 0.1), 1),
    }, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
