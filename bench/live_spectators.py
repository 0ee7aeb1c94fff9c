"""Spectators following a live round: from a judge's record reaching the server to each
spectator's page having the new ranking.

    .venv/bin/python bench/live_spectators.py            # --spectators 1000 --records 20

Builds a WJPC-sized individual first round (1,200 entries in groups A-F, half of them with a
result) in a temporary SQLite file, starts the ASGI app under uvicorn in a subprocess (one
worker, as `puzzlecomp serve`), connects the spectators over server-sent events, each with its
own keep-alive connection for snapshots, as a browser has. Then a judge's phone records finishes
through the device API. For each record and spectator the latency runs from the result's
`recorded_at` (the server's clock, inside the write's transaction) to the moment the spectator,
told by the notice, has received the snapshot with the new number. Prints JSON: p50 and p99 over
all spectators x records, and the server process's memory.

Spectators use a minimal HTTP/1.1 client on raw asyncio sockets: the measuring side must cost
far less than the server, which shares the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import datetime as dt
import json
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
GROUPS = "ABCDEF"
PER_GROUP = 200
COUNTRIES = ["CZ", "ES", "NO", "DE", "US", "IT", "FR", "GB", "PL", "JP", "AU", "CA"]


def django_env(data_dir: Path) -> dict[str, str]:
    return {**os.environ, "DJANGO_SETTINGS_MODULE": "puzzlecomp.settings.dev", "DEBUG": "0",
            "PUZZLECOMP_DATA_DIR": str(data_dir), "ALLOWED_HOSTS": "127.0.0.1,localhost"}


@dataclass(frozen=True)
class Setup:
    slug: str
    round_id: int
    token: str
    # Entry numbers still without a result, to record during the run.
    waiting: list[int]
    started_at: float
    # One snapshot build of the round (median of 3), the floor under every latency below.
    build_ms: float


def build_championship(data_dir: Path) -> Setup:
    """A published WJPC 2025 championship with its individual first round running."""
    os.environ.update(django_env(data_dir))
    (data_dir / "static").mkdir()
    import django

    django.setup()
    from django.core.management import call_command
    from django.utils import timezone

    from puzzlecomp.championships.models import (
        Entry,
        EntryMember,
        EntryStatus,
        Person,
        Result,
        Round,
        RoundState,
        Seat,
    )
    from puzzlecomp.championships.services.rounds import round_state_set
    from puzzlecomp.championships.services.setup import championship_create
    from puzzlecomp.judging.devices import device_create, device_pair

    call_command("migrate", interactive=False, verbosity=0)
    championship = championship_create(ruleset_id="wjpc-2025", name="Bench Live",
                                       starts_at=timezone.now() - dt.timedelta(hours=1))
    championship.published = True
    championship.save()
    rnd = Round.objects.select_related("event__championship").get(
        event__championship=championship, event__code="individual", code="first")
    count = len(GROUPS) * PER_GROUP
    people = Person.objects.bulk_create(
        Person(first_name=f"First{n}", last_name=f"Last{n}", nationality=COUNTRIES[n % 12],
               consent_publish=True) for n in range(1, count + 1))
    entries = Entry.objects.bulk_create(
        Entry(event=rnd.event, number=n, name=f"First{n} Last{n}",
              group=GROUPS[(n - 1) // PER_GROUP], status=EntryStatus.CONFIRMED)
        for n in range(1, count + 1))
    EntryMember.objects.bulk_create(EntryMember(entry=e, person=p)
                                    for e, p in zip(entries, people, strict=True))
    # Each group in its own session: 200 entries, two per table at tables 1-100.
    Seat.objects.bulk_create(
        Seat(round=rnd, entry=e, group=e.group, table=(i % PER_GROUP) // 2 + 1,
             seat=i % 2 + 1) for i, e in enumerate(entries))
    # Half finished already (as the demo's round in progress): 40-80 minutes.
    Result.objects.bulk_create(
        Result(round=rnd, entry=e, status="finished", time_seconds=2400 + (i * 37) % 2400)
        for i, e in enumerate(entries) if i % 2 == 0)
    started = timezone.now() - dt.timedelta(minutes=55)
    round_state_set(round=rnd, state=RoundState.RUNNING, starts_at=started)
    _device, code = device_create(championship=championship, label="bench", table_from=1,
                                 table_to=100, user=None)
    _, token = device_pair(championship=championship, code=code)
    waiting = [e.number for i, e in enumerate(entries) if i % 2 == 1]
    return Setup(championship.slug, rnd.pk, token, waiting, started.timestamp(),
                 snapshot_build_ms(rnd))


def snapshot_build_ms(rnd: Any) -> float:
    from puzzlecomp.live.snapshot import round_snapshot

    times = []
    for _ in range(3):
        started = time.perf_counter()
        round_snapshot(rnd)
        times.append((time.perf_counter() - started) * 1000)
    return round(statistics.median(times), 1)


@contextlib.contextmanager
def server(data_dir: Path, app: str = "puzzlecomp.web.asgi:application", *extra: str):
    """uvicorn serving `app` on a free port, in a subprocess; yields (port, pid)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", app, "--host",
         "127.0.0.1", "--port", str(port), "--log-level", "warning", "--no-access-log",
         "--backlog", "4096", "--timeout-graceful-shutdown", "1", *extra],
        env=django_env(data_dir), cwd=ROOT)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
                break
            time.sleep(0.1)
        yield port, process.pid
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def rss_mb(pid: int) -> float:
    """Resident memory of the process and its children (uvicorn's workers)."""
    total = 0.0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            total += int(line.split()[1]) / 1024
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return total + sum(rss_mb(int(child)) for child in children)


class Connection:
    """One keep-alive HTTP/1.1 connection, as a browser tab holds (just enough HTTP)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @classmethod
    async def open(cls, port: int) -> Connection:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        return cls(reader, writer)

    async def get(self, path: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
        lines = [f"GET {path} HTTP/1.1", "Host: 127.0.0.1"]
        lines += [f"{k.replace('_', '-')}: {v}" for k, v in headers.items()]
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        head = (await self.reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        status = int(head[0].split()[1])
        found = {k.lower(): v.strip() for k, _, v in (h.partition(":") for h in head[1:] if h)}
        length = int(found.get("content-length", "0"))
        body = await self.reader.readexactly(length) if length else b""
        return status, found, body

    async def events(self, path: str):
        """Server-sent events of a chunked streaming response, as (name, data) pairs."""
        status, _, _ = await self.get(path, Accept="text/event-stream")
        if status != 200:
            raise RuntimeError(f"{path}: HTTP {status}")
        buffer = ""
        while True:
            size = int((await self.reader.readline()).strip(), 16)
            if size == 0:
                return
            buffer += (await self.reader.readexactly(size + 2))[:-2].decode()
            while "\n\n" in buffer:
                block, buffer = buffer.split("\n\n", 1)
                fields = dict(line.split(": ", 1) for line in block.split("\n")
                              if line and not line.startswith(":"))
                yield fields.get("event", "message"), fields.get("data", "")

    def close(self) -> None:
        self.writer.close()


@dataclass
class Spectator:
    # Notice number -> when the page had the snapshot carrying it (epoch seconds).
    shown: dict[int, float] = field(default_factory=dict)
    etag: str = ""
    error: str = ""


def seq_of(etag: str) -> int:
    return int(etag.strip('"').rsplit("-s", 1)[1])


async def follow(port: int, setup: Setup, spectator: Spectator, ready: asyncio.Event,
                 connected: list[int], total: int) -> None:
    """One spectator's page: the stream, and a snapshot fetch after each notice."""
    stream = await Connection.open(port)
    fetcher = await Connection.open(port)
    path = f"/live/{setup.slug}/rounds/{setup.round_id}/snapshot"

    async def fetch(**headers: str) -> None:
        nonlocal fetcher
        try:
            status, found, _ = await fetcher.get(path, Accept_Encoding="gzip", **headers)
        except (ConnectionError, asyncio.IncompleteReadError):
            # uvicorn closes idle keep-alive connections after 5 s; a browser reconnects.
            fetcher.close()
            fetcher = await Connection.open(port)
            status, found, _ = await fetcher.get(path, Accept_Encoding="gzip", **headers)
        if status not in (200, 304):
            raise RuntimeError(f"snapshot: HTTP {status}")
        spectator.etag = found["etag"]

    try:
        async for name, data in stream.events(f"/live/{setup.slug}/events"):
            if name == "hello":
                await fetch()
                connected.append(1)
                if len(connected) == total:
                    ready.set()
            elif name == "notice":
                wanted = json.loads(data)["seq"]
                while seq_of(spectator.etag) < wanted:
                    await fetch(If_None_Match=spectator.etag)
                spectator.shown[wanted] = time.time()
    except asyncio.CancelledError:
        pass
    except Exception as error:  # counted: a spectator who lost the page
        spectator.error = f"{type(error).__name__}: {error}"
    finally:
        stream.close()
        fetcher.close()


async def judge_records(port: int, setup: Setup, records: int, gap: float) -> dict[int, float]:
    """A judge's phone taps finishes through the device API: notice number -> recorded_at."""
    import httpx

    recorded: dict[int, float] = {}
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60,
                                 headers={"Authorization": f"Bearer {setup.token}"}) as judge:
        info = (await judge.get(f"/api/v1/championships/{setup.slug}")).json()
        seq = info["live_seq"]
        for number in setup.waiting[:records]:
            response = await judge.post("/api/v1/device/results", json={
                "client_id": str(uuid.uuid4()), "round_id": setup.round_id, "entry": number,
                "base_version": 0, "action": "tap",
                "values": {"time_seconds": int(time.time() - setup.started_at)}})
            if response.status_code != 200:
                raise RuntimeError(f"the judge's write failed: {response.text}")
            seq += 1
            at = response.json()["result"]["recorded_at"]
            recorded[seq] = dt.datetime.fromisoformat(at).timestamp()
            await asyncio.sleep(gap)
    return recorded


async def run(port: int, pid: int, setup: Setup, spectators: int, records: int,
              gap: float, workers: int) -> dict[str, Any]:
    idle_mb = rss_mb(pid)
    pages = [Spectator() for _ in range(spectators)]
    ready = asyncio.Event()
    connected: list[int] = []
    started = time.monotonic()
    tasks = []
    for page in pages:
        tasks.append(asyncio.ensure_future(follow(port, setup, page, ready, connected,
                                                  spectators)))
        await asyncio.sleep(0.001)  # a crowd arriving, not one SYN flood
    await asyncio.wait_for(ready.wait(), 120)
    connect_s = time.monotonic() - started
    connected_mb = rss_mb(pid)
    recorded = await judge_records(port, setup, records, gap)
    deadline = time.monotonic() + 60
    while (time.monotonic() < deadline
           and any(seq not in page.shown for page in pages for seq in recorded)):
        await asyncio.sleep(0.1)
    peak_mb = rss_mb(pid)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    latencies = [page.shown[seq] - at for page in pages for seq, at in recorded.items()
                 if seq in page.shown]
    missing = spectators * records - len(latencies)
    if len(latencies) < 2:
        errors = collections.Counter(page.error for page in pages if page.error)
        raise RuntimeError(f"only {len(latencies)} spectator(s) saw a record; {errors}")
    cuts = statistics.quantiles(latencies, n=100)
    return {
        "spectators": spectators, "records": records, "workers": workers,
        "samples": len(latencies),
        "missed": missing,
        "errors": dict(collections.Counter(page.error for page in pages if page.error)),
        "record_to_page_p50_ms": round(cuts[49] * 1000, 1),
        "record_to_page_p99_ms": round(cuts[98] * 1000, 1),
        "record_to_page_max_ms": round(max(latencies) * 1000, 1),
        "snapshot_build_ms": setup.build_ms,
        "connect_all_s": round(connect_s, 2),
        "server_rss_idle_mb": round(idle_mb, 1),
        "server_rss_connected_mb": round(connected_mb, 1),
        "server_rss_peak_mb": round(peak_mb, 1),
        "per_spectator_kb": round((connected_mb - idle_mb) * 1024 / spectators, 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spectators", type=int, default=1000)
    parser.add_argument("--records", type=int, default=20)
    parser.add_argument("--gap", type=float, default=1.5, help="seconds between records")
    parser.add_argument("--workers", type=int, default=1,
                        help="uvicorn worker processes (notices cross them through the pump)")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 8 * args.spectators)), hard))
    with tempfile.TemporaryDirectory(prefix="puzzlecomp-bench-") as tmp:
        setup = build_championship(Path(tmp))
        workers = ("--workers", str(args.workers)) if args.workers > 1 else ()
        with server(Path(tmp), "puzzlecomp.web.asgi:application", *workers) as (port, pid):
            figures = asyncio.run(run(port, pid, setup, args.spectators, args.records,
                                      args.gap, args.workers))
    print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
