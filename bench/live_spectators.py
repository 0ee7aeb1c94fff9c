"""Spectators following a live round while judges record (figures in docs/performance.md).

    .venv/bin/python bench/live_spectators.py                # --spectators 5000 --judges 100
    .venv/bin/python bench/live_spectators.py --mode pages   # --spectators 1000 --records 20

Builds a WJPC-sized individual first round (1,200 entries in groups A-F, half of them with a
result) in a temporary SQLite file and starts the ASGI app under uvicorn in a subprocess (one
worker, as `puzzlecomp serve`, unless --workers).

`--mode notices` (issue 6, the default): the spectators hold the notice stream open, in
`--client-processes` forked processes; 100 judges' devices record through the device API at
`--rate` a second plus a burst halfway. For every record and spectator the latency runs from
the result's `recorded_at` (the server's clock inside the write's transaction) to the moment
the spectator's socket delivered the notice with the record's number. The same run repeats
with a bare ASGI app broadcasting the same bytes to the same number of streams (the
baseline). Prints p50/p95/p99 over all spectators x records, the judges' answer times and
the server's memory.

`--mode pages` (issue 5): each spectator also has a keep-alive connection for snapshots, as a
browser has, and one judge records; the latency runs to the moment the spectator, told by
the notice, has received the snapshot with the new number.

Spectators use a minimal HTTP/1.1 client on raw asyncio sockets: the measuring side must cost
far less than the server, which shares the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import dataclasses
import datetime as dt
import json
import math
import multiprocessing
import os
import re
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

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
    from puzzlecomp.championships.services.devices import device_create, device_pair
    from puzzlecomp.championships.services.rounds import round_state_set
    from puzzlecomp.championships.services.setup import championship_create

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
    statistics_update()
    return Setup(championship.slug, rnd.pk, token, waiting, started.timestamp(),
                 snapshot_build_ms(rnd))


def statistics_update() -> None:
    """On PostgreSQL, what autovacuum does within a minute of a bulk load, before the run
    (a championship's tables have statistics long before its judges record): without them the
    planner takes the 1,200 results for one row and reads a round's results to find one."""
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")


def snapshot_build_ms(rnd: Any) -> float:
    from puzzlecomp.live.snapshot import round_snapshot

    times = []
    for _ in range(3):
        started = time.perf_counter()
        round_snapshot(rnd)
        times.append((time.perf_counter() - started) * 1000)
    return round(statistics.median(times), 1)


@contextlib.contextmanager
def server(data_dir: Path, app: str = "puzzlecomp.web.asgi:application", *extra: str,
           log: Path | None = None):
    """uvicorn serving `app` on a free port, in a subprocess (its output into `log` if
    given); yields (port, pid)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", app, "--host",
         "127.0.0.1", "--port", str(port), "--log-level", "warning", "--no-access-log",
         "--backlog", "4096", "--timeout-graceful-shutdown", "1", *extra],
        env=django_env(data_dir), cwd=ROOT,
        stderr=log.open("ab") if log else None, stdout=log.open("ab") if log else None)
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
        return await self.send("GET", path, b"",
                               {k.replace("_", "-"): v for k, v in headers.items()})

    async def send(self, method: str, path: str, body: bytes,
                   headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
        lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1"]
        lines += [f"{k}: {v}" for k, v in headers.items()]
        if body:
            lines.append(f"Content-Length: {len(body)}")
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        head = (await self.reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        status = int(head[0].split()[1])
        found = {k.lower(): v.strip() for k, _, v in (h.partition(":") for h in head[1:] if h)}
        if found.get("transfer-encoding") == "chunked" and not path.endswith("/events"):
            chunks = []
            while size := int((await self.reader.readline()).strip(), 16):
                chunks.append((await self.reader.readexactly(size + 2))[:-2])
            await self.reader.readline()
            return status, found, b"".join(chunks)
        length = int(found.get("content-length", "0"))
        return status, found, await self.reader.readexactly(length) if length else b""

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


class Response(NamedTuple):
    status_code: int
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


class Phones:
    """The judges' phones, each holding one keep-alive connection (requests of one phone go
    one after the other). A raw HTTP/1.1 client: httpx with 100 connections spends more CPU
    per request than the server it measures, on the same two cores."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.connections: dict[int, Connection] = {}
        self.locks: dict[int, asyncio.Lock] = collections.defaultdict(asyncio.Lock)

    async def request(self, judge: int, method: str, path: str, body: bytes = b"",
                      headers: dict[str, str] | None = None) -> Response:
        """ConnectionError when the server dropped the connection (the phone sends again)."""
        async with self.locks[judge]:
            connection = self.connections.get(judge)
            try:
                if connection is None:
                    connection = self.connections[judge] = await Connection.open(self.port)
                status, _, answer = await connection.send(method, path, body, headers or {})
            except (OSError, asyncio.IncompleteReadError) as error:
                if connection is not None:
                    connection.close()
                self.connections.pop(judge, None)
                raise ConnectionError(str(error)) from error
            return Response(status, answer)

    async def post(self, judge: int, path: str, *, json_body: Any = None, content: bytes = b"",
                   headers: dict[str, str] | None = None) -> Response:
        if json_body is not None:
            content = json.dumps(json_body).encode()
            headers = {**(headers or {}), "Content-Type": "application/json"}
        return await self.request(judge, "POST", path, content, headers)

    async def get(self, judge: int, path: str) -> Response:
        return await self.request(judge, "GET", path)

    def close(self) -> None:
        for connection in self.connections.values():
            connection.close()


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


# -- Issue 6: thousands of spectators' notices while a hundred judges record ------------------

NOTICE_ID = re.compile(rb"id: (\d+)\nevent: notice\n")


def spectators_process(port: int, path: str, count: int, pipe: Any) -> None:
    """A process of `count` spectators' streams (forked; raw sockets keep the client cheap).

    Sends ("ready", connected, errors) once every stream has its hello, then on "stop" sends
    back, per notice number, the instants (epoch seconds) the streams first had it or a later
    one: a later number covers it (the page fetches the snapshot, which has every earlier
    record), as when notices cross worker processes out of order and the older is dropped.
    """
    _raise_open_files(count + 100)
    asyncio.run(_spectators(port, path, count, pipe))


async def _spectators(port: int, path: str, count: int, pipe: Any) -> None:
    received: dict[int, list[float]] = collections.defaultdict(list)
    errors: collections.Counter[str] = collections.Counter()
    hello = asyncio.Semaphore(0)

    async def stream() -> None:
        newest = -1
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError as error:
            errors[type(error).__name__] += 1
            hello.release()
            return
        writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     "Accept: text/event-stream\r\n\r\n".encode())
        buffer = b""
        greeted = False
        try:
            while data := await reader.read(65536):
                at = time.time()
                buffer += data
                end = buffer.rfind(b"\n\n")
                if end < 0:
                    continue
                complete, buffer = buffer[:end], buffer[end + 2:]
                if not greeted and b"event: hello" in complete:
                    greeted = True
                    hello.release()
                    newest = int(re.findall(rb"id: (\d+)", complete)[0])
                for match in NOTICE_ID.finditer(complete):
                    seq = int(match.group(1))
                    for covered in range(newest + 1, seq + 1):
                        received[covered].append(at)
                    newest = max(newest, seq)
            errors["closed by the server"] += 1
        except OSError as error:
            errors[type(error).__name__] += 1
        finally:
            if not greeted:
                hello.release()
            writer.close()

    tasks = []
    for _ in range(count):
        tasks.append(asyncio.ensure_future(stream()))
        await asyncio.sleep(0.002)  # a crowd arriving, not one SYN flood
    for _ in range(count):
        await hello.acquire()
    loop = asyncio.get_running_loop()
    pipe.send(("ready", count - sum(errors.values()), dict(errors)))
    await loop.run_in_executor(None, pipe.recv)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    pipe.send((dict(received), dict(errors)))


def _raise_open_files(wanted: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, wanted), hard))


@dataclass(frozen=True)
class Schedule:
    """When the judges record: `rate` a second for `seconds`, and halfway through a burst of
    `burst` more records spread over `burst_seconds`."""

    judges: int
    rate: float
    seconds: float
    burst: int
    burst_seconds: float

    def offsets(self) -> list[tuple[float, bool]]:
        """Seconds from the start of each record, and whether it is one of the burst."""
        steady = [(i / self.rate, False) for i in range(int(self.rate * self.seconds))]
        start = self.seconds / 2
        burst = [(start + i * self.burst_seconds / self.burst, True) for i in range(self.burst)]
        return sorted(steady + burst)


class Answer(NamedTuple):
    client_id: str
    status: int
    # The server's instant of the record (the result's `recorded_at`, inside the write's
    # transaction), and how long the judge waited for the answer (seconds).
    recorded_at: float
    wait: float
    burst: bool
    # When the judge sent it (epoch seconds), to line a slow answer up with the server's log.
    sent_at: float


async def judges_record(port: int, schedule: Schedule, request: Any,
                        retries: list[int] | None = None) -> list[Answer]:
    """Each record on time by the next judge (status 0: no answer in three attempts).

    `request(phones, judge, n, client_id)` sends record n of judge number `judge` from that
    judge's phone (`Phones`) and returns (HTTP status, the server's instant of the record).
    Retries after a dropped connection are appended to `retries`.
    """
    retries = [] if retries is None else retries
    answers: list[Answer] = []
    phones = Phones(port)
    started = time.monotonic()

    async def one(n: int, offset: float, burst: bool) -> None:
        await asyncio.sleep(max(0.0, started + offset - time.monotonic()))
        client_id = str(uuid.uuid4())
        sent = time.monotonic()
        sent_at = time.time()
        for attempt in range(3):
            try:
                status, at = await request(phones, n % schedule.judges, n // schedule.judges,
                                           client_id)
                break
            except ConnectionError:
                # A connection the server closed as we reused it: the phone sends again,
                # with the same client id (a replay never duplicates).
                retries.append(attempt)
        else:
            status, at = 0, math.nan
        answers.append(Answer(client_id, status, at, time.monotonic() - sent, burst,
                              sent_at))

    try:
        await asyncio.gather(*(one(n, offset, burst)
                               for n, (offset, burst) in enumerate(schedule.offsets())))
    finally:
        phones.close()
    return answers


def judge_devices(setup: Setup, judges: int) -> list[tuple[str, list[int]]]:
    """One paired device per judge, each for one table: (token, its entries waiting)."""
    from puzzlecomp.championships.models import Championship
    from puzzlecomp.championships.services.devices import device_create, device_pair

    championship = Championship.objects.get(slug=setup.slug)
    devices = []
    for judge in range(judges):
        table = judge % 100 + 1
        _device, code = device_create(championship=championship, label=f"judge {judge + 1}",
                                     table_from=table, table_to=table, user=None)
        _, token = device_pair(championship=championship, code=code)
        # Entry n sits at table ((n - 1) % 200) // 2 + 1 (see build_championship).
        devices.append((token, [n for n in setup.waiting
                                if ((n - 1) % PER_GROUP) // 2 + 1 == table]))
    return devices


def notice_numbers(slug: str, answers: list[Answer]) -> dict[int, float]:
    """Notice number -> the instant of its record. Every record announces one notice in
    its write's transaction and SQLite runs one write at a time, so the records' history rows
    are in the order of their numbers."""
    from puzzlecomp.championships.models import Championship, Notice, ResultChange

    answered = {a.client_id: a.recorded_at for a in answers if a.status == 200}
    changes = list(ResultChange.objects.filter(client_id__in=list(answered))
                   .order_by("pk").values_list("client_id", flat=True))
    championship = Championship.objects.get(slug=slug)
    last = championship.live_seq
    first = last - len(changes) + 1
    stored = set(Notice.objects.filter(championship=championship, seq__gte=first)
                 .values_list("seq", flat=True))
    if len(stored) != len(changes):
        raise RuntimeError("notices other than the judges' records were announced")
    return {first + i: answered[client_id] for i, client_id in enumerate(changes)}


def fan_out(port: int, pid: int, path: str, spectators: int, processes: int,
            schedule: Schedule, request: Any,
            numbers: Any) -> dict[str, Any]:
    """Spectators in `processes` client processes, the judges' records, and the latencies."""
    context = multiprocessing.get_context("fork")
    pipes, workers = [], []
    idle_mb = rss_mb(pid)
    started = time.monotonic()
    for i in range(processes):
        ours, theirs = context.Pipe()
        share = spectators // processes + (1 if i < spectators % processes else 0)
        worker = context.Process(target=spectators_process, args=(port, path, share, theirs))
        worker.start()
        pipes.append(ours)
        workers.append(worker)
    ready = [pipe.recv() for pipe in pipes]
    connected = sum(r[1] for r in ready)
    connect_s = time.monotonic() - started
    connected_mb = rss_mb(pid)
    answers = asyncio.run(judges_record(port, schedule, request))
    accepted = numbers(answers)
    time.sleep(8)  # the last notices on their way (a loaded server is seconds behind)
    peak_mb = rss_mb(pid)
    received: dict[int, list[float]] = collections.defaultdict(list)
    errors: collections.Counter[str] = collections.Counter()
    for pipe in pipes:
        pipe.send("stop")
    for pipe, worker in zip(pipes, workers, strict=True):
        got, failed = pipe.recv()
        for seq, times in got.items():
            received[seq].extend(times)
        errors.update(failed)
        worker.join()
    latencies = [at - accepted[seq] for seq in accepted for at in received.get(seq, ())]
    cuts = statistics.quantiles(latencies, n=100) if len(latencies) > 1 else [math.nan] * 99
    statuses = collections.Counter(a.status for a in answers)
    waits = statistics.quantiles([a.wait for a in answers], n=100)
    return {
        "spectators": connected,
        "records": len(answers),
        "record_statuses": {str(k): v for k, v in statuses.items()},
        "samples": len(latencies),
        "missed": connected * len(accepted) - len(latencies),
        "client_errors": dict(errors),
        "notice_p50_ms": round(cuts[49] * 1000, 1),
        "notice_p95_ms": round(cuts[94] * 1000, 1),
        "notice_p99_ms": round(cuts[98] * 1000, 1),
        "notice_max_ms": round(max(latencies, default=math.nan) * 1000, 1),
        "judge_answer_p50_ms": round(waits[49] * 1000, 1),
        "judge_answer_p99_ms": round(waits[98] * 1000, 1),
        "connect_all_s": round(connect_s, 1),
        "server_rss_idle_mb": round(idle_mb, 1),
        "server_rss_connected_mb": round(connected_mb, 1),
        "server_rss_peak_mb": round(peak_mb, 1),
    }


# A bare ASGI app doing the least the live app must: hold the streams and write each record's
# notice (the same bytes) to every one of them. The baseline of `--mode notices`.
_bare_streams: set[asyncio.Queue[bytes]] = set()
_bare_seq = [0]


async def bare_broadcast(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] != "http":
        return
    if scope["method"] == "POST":
        while (await receive()).get("more_body"):
            pass
        _bare_seq[0] += 1
        seq = _bare_seq[0]
        notice = json.dumps({"championship": "bench", "seq": seq, "round": 1,
                             "kind": "result"}, separators=(",", ":"))
        chunk = f"id: {seq}\nevent: notice\ndata: {notice}\n\n".encode()
        for queue in _bare_streams:
            queue.put_nowait(chunk)
        body = json.dumps({"seq": seq, "at": time.time()}).encode()
        await send({"type": "http.response.start", "status": 200, "headers": [
            (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
        return
    queue: asyncio.Queue[bytes] = asyncio.Queue()
    _bare_streams.add(queue)
    await send({"type": "http.response.start", "status": 200, "headers": [
        (b"content-type", b"text/event-stream"), (b"cache-control", b"no-cache")]})
    hello = json.dumps({"seq": _bare_seq[0]})
    await send({"type": "http.response.body", "more_body": True,
                "body": f"id: {_bare_seq[0]}\nevent: hello\ndata: {hello}\n\n".encode()})

    async def disconnect() -> None:
        while (await receive())["type"] != "http.disconnect":
            pass
        queue.put_nowait(b"")

    watcher = asyncio.ensure_future(disconnect())
    try:
        while chunk := await queue.get():
            await send({"type": "http.response.body", "body": chunk, "more_body": True})
    except OSError:
        pass
    finally:
        watcher.cancel()
        _bare_streams.discard(queue)


def run_notices(args: argparse.Namespace) -> dict[str, Any]:
    schedule = Schedule(args.judges, args.rate, args.seconds, args.burst, args.burst_seconds)
    with tempfile.TemporaryDirectory(prefix="puzzlecomp-bench-") as tmp:
        setup = build_championship(Path(tmp))
        devices = judge_devices(setup, args.judges)
        started_at = setup.started_at

        async def record(phones: Phones, judge: int, n: int, client_id: str) -> int:
            token, entries = devices[judge]
            response = await phones.post(judge, "/api/v1/device/results", json_body={
                "client_id": client_id, "round_id": setup.round_id, "entry": entries[n],
                "base_version": 0, "action": "tap",
                "values": {"time_seconds": int(time.time() - started_at)}},
                headers={"Authorization": f"Bearer {token}"})
            if response.status_code != 200:
                return response.status_code, math.nan
            at = response.json()["result"]["recorded_at"]
            return 200, dt.datetime.fromisoformat(at).timestamp()

        from django.db import connections
        connections.close_all()  # the spectators' processes fork from this one
        workers = ("--workers", str(args.workers)) if args.workers > 1 else ()
        with server(Path(tmp), "puzzlecomp.web.asgi:application", *workers) as (port, pid):
            live = fan_out(port, pid, f"/live/{setup.slug}/events", args.spectators,
                           args.client_processes, schedule, record,
                           lambda answers: notice_numbers(setup.slug, answers))
        figures: dict[str, Any] = {"schedule": dataclasses.asdict(schedule),
                                   "workers": args.workers, "live": live}
        if args.baseline:
            async def bare_record(phones: Phones, judge: int, n: int, client_id: str) -> int:
                response = await phones.post(judge, "/record", content=client_id.encode())
                bare_answers[client_id] = response.json()["seq"]
                return response.status_code, response.json()["at"]

            bare_answers: dict[str, int] = {}
            with server(Path(tmp), "live_spectators:bare_broadcast", "--app-dir",
                        str(Path(__file__).parent)) as (port, pid):
                figures["bare_asgi"] = fan_out(
                    port, pid, "/events", args.spectators, args.client_processes, schedule,
                    bare_record,
                    lambda answers: {bare_answers[a.client_id]: a.recorded_at for a in answers})
            for name in ("notice_p50_ms", "notice_p95_ms", "notice_p99_ms"):
                figures[f"{name}_vs_bare"] = round(
                    live[name] / max(figures["bare_asgi"][name], 0.1), 1)
    return figures



@contextlib.contextmanager
def fresh_postgres(url: str | None, prefix: str) -> Iterator[str | None]:
    """A new database on the server of `url` for the run (dropped after), or None."""
    if url is None:
        yield None
        return
    import psycopg
    from psycopg import sql

    name = f"puzzlecomp_{prefix}_{os.getpid()}_{uuid.uuid4().hex[:6]}"
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield url.rsplit("/", 1)[0] + "/" + name
    finally:
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
                sql.Identifier(name)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=["notices", "pages"], default="notices",
                        help="notices: issue 6, every spectator's notice while judges record; "
                             "pages: issue 5, every spectator's new snapshot")
    parser.add_argument("--spectators", type=int,
                        help="default 5,000 (notices) or 1,000 (pages)")
    parser.add_argument("--workers", type=int, default=1,
                        help="uvicorn worker processes (notices cross them through the pump, "
                             "or Redis when REDIS_URL is set)")
    pages = parser.add_argument_group("pages")
    pages.add_argument("--records", type=int, default=20)
    pages.add_argument("--gap", type=float, default=1.5, help="seconds between records")
    notices = parser.add_argument_group("notices")
    notices.add_argument("--judges", type=int, default=100)
    notices.add_argument("--rate", type=float, default=2.0, help="records a second, all judges")
    notices.add_argument("--seconds", type=float, default=30.0, help="of steady recording")
    notices.add_argument("--burst", type=int, default=100, help="records in the burst")
    notices.add_argument("--burst-seconds", type=float, default=5.0)
    notices.add_argument("--client-processes", type=int, default=2)
    notices.add_argument("--no-baseline", dest="baseline", action="store_false",
                         help="skip the bare ASGI app run")
    args = parser.parse_args()
    if args.mode == "notices":
        args.spectators = args.spectators or 5000
        figures = run_notices(args)
    else:
        args.spectators = args.spectators or 1000
        _raise_open_files(8 * args.spectators)
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
