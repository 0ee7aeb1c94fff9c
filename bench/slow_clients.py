"""Slow clients against `puzzlecomp serve`: N connections that send the start of a request head
(or of a body) and stop, then one normal request; or one client that POSTs 2 GB; against
127.0.0.1 only.

    .venv/bin/python bench/slow_clients.py                      # 1,000 clients, 10 s deadline
    .venv/bin/python bench/slow_clients.py --clients 1050 --protocol httptools --server-files 1024
    .venv/bin/python bench/slow_clients.py --kind body --clients 500
    .venv/bin/python bench/slow_clients.py --kind large

`--protocol deadline` (the default) is what `puzzlecomp serve` runs
(web/slow_clients.py); `--protocol httptools` is uvicorn's own, which waits for ever. The server
runs in a process of its own with the venue settings in a temporary data directory. Prints
JSON: the normal request's status and time, how many slow clients the server closed within
the deadline plus 5 s and with which status, and the server's resident memory idle and at its
peak.

`--kind body`: each client sends a whole head declaring 1,000 KB of form, then 900 KB of it
(`--body-kb`) and stops (web/body_limits.py). `--kind large`: a POST declaring 2 GB
(`--large-mb`; the answer, and how many bytes were sent before it), then a chunked one sent
as fast as the server takes it (how many bytes it took before it refused). `--source DIR` runs
the server from another checkout's `src` (e.g. the code before a change, from `git archive`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time

import httpx

PROTOCOLS = {"deadline": "puzzlecomp.web.slow_clients:HeadDeadlineProtocol",
             "httptools": "httptools"}
SERVER = """
import os, sys
os.environ["DJANGO_SETTINGS_MODULE"] = "puzzlecomp.settings.venue"
from puzzlecomp.cli.serve import raise_open_files_limit, setup_django
if sys.argv[3] == "0":
    raise_open_files_limit()
else:  # as on a laptop whose limit cannot be raised
    import resource
    resource.setrlimit(resource.RLIMIT_NOFILE,
                       (int(sys.argv[3]), resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
setup_django()
from django.core.management import call_command
call_command("migrate", interactive=False, verbosity=0)
import uvicorn
uvicorn.run("puzzlecomp.web.asgi:application", host="127.0.0.1", port=int(sys.argv[1]),
            http=sys.argv[2], log_level="warning")
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


HEAD = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
# A form's whole head, declaring 1,000,000 bytes (under the forms' 1 MB), then part of it.
BODY_HEAD = (b"POST /registration/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
             b"Content-Type: application/x-www-form-urlencoded\r\n"
             b"Content-Length: 1000000\r\n\r\nname=")


def resident_mb(pid: int) -> float:
    """The process's resident memory (Linux /proc), in MB."""
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        match = re.search(r"VmRSS:\s+(\d+) kB", status.read())
    return round(int(match[1]) / 1024, 1) if match else 0.0


class PeakMemory:
    """The server's resident memory, sampled every 50 ms until stopped."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.idle = resident_mb(pid)
        self.peak = self.idle
        self.task: asyncio.Task[None] | None = None

    async def _sample(self) -> None:
        while True:
            self.peak = max(self.peak, resident_mb(self.pid))
            await asyncio.sleep(0.05)

    def __enter__(self) -> PeakMemory:
        self.task = asyncio.get_running_loop().create_task(self._sample())
        return self

    def __exit__(self, *_: object) -> None:
        assert self.task is not None
        self.task.cancel()


async def measure(port: int, clients: int, head_seconds: float, *, server_pid: int,
                  kind: str, body_bytes: int) -> dict[str, object]:
    with PeakMemory(server_pid) as memory:
        result = await _slow(port, clients, head_seconds, kind=kind, body_bytes=body_bytes)
        await asyncio.sleep(0.2)
    return {**result, "server_idle_mb": memory.idle, "server_peak_mb": memory.peak}


async def _slow(port: int, clients: int, head_seconds: float, *, kind: str,
                body_bytes: int) -> dict[str, object]:
    connections = []
    refused = 0
    for _ in range(clients):
        try:
            connections.append(await asyncio.open_connection("127.0.0.1", port))
        except OSError:
            refused += 1
    for _reader, writer in connections:
        writer.write(HEAD if kind == "head" else BODY_HEAD + b"x" * body_bytes)
    started = time.monotonic()
    try:
        async with httpx.AsyncClient(timeout=10) as client:
            status: int | str = (await client.get(f"http://127.0.0.1:{port}/")).status_code
    except httpx.HTTPError as error:
        status = type(error).__name__
    normal_ms = round((time.monotonic() - started) * 1000)

    async def closed(reader: asyncio.StreamReader) -> str | None:
        """The status the server answered before it closed ("" for none, "reset" when the
        close discarded it); None if still open."""
        try:
            answer = await asyncio.wait_for(reader.read(), head_seconds + 5)
        except TimeoutError:
            return None
        except ConnectionError:
            return "reset"
        return answer[9:12].decode("ascii", "replace")

    answers = await asyncio.gather(*(closed(r) for r, _ in connections))
    for _reader, writer in connections:
        writer.close()
    statuses: dict[str, int] = {}
    for answer in answers:
        if answer is not None:
            statuses[answer or "none"] = statuses.get(answer or "none", 0) + 1
    return {"clients": clients, "connect_refused": refused, "normal_status": status,
            "normal_ms": normal_ms,
            "closed_within_deadline": sum(a is not None for a in answers),
            "closed_with_status": statuses}


async def large(port: int, server_pid: int, size: int) -> dict[str, object]:
    """A POST declaring `size` bytes, then a chunked POST of as many sent as fast as it is
    taken."""
    with PeakMemory(server_pid) as memory:
        declared = await _large_post(port, size, chunked=False)
        chunked = await _large_post(port, size, chunked=True)
    return {"bytes": size, "declared": declared, "chunked": chunked,
            "server_idle_mb": memory.idle, "server_peak_mb": memory.peak}


async def _large_post(port: int, size_bytes: int, *, chunked: bool) -> dict[str, object]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    size = b"Transfer-Encoding: chunked" if chunked else f"Content-Length: {size_bytes}".encode()
    writer.write(b"POST /control/import/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                 b"Content-Type: application/octet-stream\r\n" + size + b"\r\n\r\n")
    started = time.monotonic()
    answer = asyncio.ensure_future(reader.read(100))
    answered: list[float] = []
    answer.add_done_callback(lambda _: answered.append(time.monotonic()))
    chunk = b"x" * (1024 * 1024)
    framed = f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n" if chunked else chunk
    sent = 0
    with contextlib.suppress(ConnectionError):
        while not answer.done() and sent < size_bytes:
            if not chunked and sent == 0:
                # Give the server the head alone first: it answers from Content-Length.
                await asyncio.sleep(0.5)
                if answer.done():
                    break
            writer.write(framed)
            await writer.drain()
            sent += len(chunk)
    try:
        head = await asyncio.wait_for(answer, 10)
    except (TimeoutError, ConnectionError):
        head = b""
    writer.close()
    return {"status": head[9:12].decode("ascii", "replace") or "none",
            "body_bytes_sent_before_answer": sent,
            "answer_ms": round(((answered or [time.monotonic()])[0] - started) * 1000)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=1_000)
    parser.add_argument("--protocol", choices=sorted(PROTOCOLS), default="deadline")
    parser.add_argument("--kind", choices=["head", "body", "large"], default="head")
    parser.add_argument("--head-seconds", type=float, default=10,
                        help="the header deadline, and with --kind body the body's")
    parser.add_argument("--body-kb", type=int, default=900,
                        help="with --kind body: what each client sends of its 1,000 KB")
    parser.add_argument("--large-mb", type=int, default=2048, help="with --kind large")
    parser.add_argument("--source", help="a checkout's src folder to run the server from")
    parser.add_argument("--server-files", type=int, default=0,
                        help="the server's open-files limit (default: as `serve` raises it)")
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as data_dir:
        env = {**{k: v for k, v in os.environ.items()
                  if k not in {"DJANGO_SETTINGS_MODULE", "DATABASE_URL", "REDIS_URL"}},
               "PUZZLECOMP_DATA_DIR": data_dir,
               "PUZZLECOMP_HEADER_TIMEOUT": str(args.head_seconds),
               "PUZZLECOMP_BODY_TIMEOUT": str(args.head_seconds)}
        if args.source:
            env["PYTHONPATH"] = args.source
        server = subprocess.Popen([sys.executable, "-c", SERVER, str(port),
                                   PROTOCOLS[args.protocol], str(args.server_files)], env=env)
        try:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                try:
                    httpx.get(f"http://127.0.0.1:{port}/", timeout=2)
                    break
                except httpx.TransportError:
                    time.sleep(0.2)
            if args.kind == "large":
                result = asyncio.run(large(port, server.pid, args.large_mb * 1024 * 1024))
            else:
                result = asyncio.run(measure(port, args.clients, args.head_seconds,
                                             server_pid=server.pid, kind=args.kind,
                                             body_bytes=args.body_kb * 1000))
        finally:
            server.terminate()
            server.wait(timeout=15)
    print(json.dumps({"kind": args.kind, "protocol": args.protocol,
                      "deadline_seconds": args.head_seconds,
                      "source": args.source or "this checkout",
                      "server_files": args.server_files or "raised", **result}))


if __name__ == "__main__":
    main()
