"""Slow clients against `puzzlecomp serve`: N connections that send the start of a request head
and stop, then one normal request; against 127.0.0.1 only.

    .venv/bin/python bench/slow_clients.py                      # 1,000 clients, 10 s deadline
    .venv/bin/python bench/slow_clients.py --clients 1050 --protocol httptools --server-files 1024

`--protocol deadline` (the default) is what `puzzlecomp serve` runs
(web/slow_clients.py); `--protocol httptools` is uvicorn's own, which waits for ever. The server
runs in a process of its own with the venue settings in a temporary data directory. Prints
JSON: the normal request's status and time, and how many slow clients the server closed
within the deadline plus 5 s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
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


async def measure(port: int, clients: int, head_seconds: float) -> dict[str, object]:
    connections = []
    refused = 0
    for _ in range(clients):
        try:
            connections.append(await asyncio.open_connection("127.0.0.1", port))
        except OSError:
            refused += 1
    for _reader, writer in connections:
        writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
    started = time.monotonic()
    try:
        async with httpx.AsyncClient(timeout=10) as client:
            status: int | str = (await client.get(f"http://127.0.0.1:{port}/")).status_code
    except httpx.HTTPError as error:
        status = type(error).__name__
    normal_ms = round((time.monotonic() - started) * 1000)

    async def closed(reader: asyncio.StreamReader) -> bool:
        try:
            await asyncio.wait_for(reader.read(), head_seconds + 5)
        except (TimeoutError, ConnectionError):
            return False
        return True

    closed_count = sum(await asyncio.gather(*(closed(r) for r, _ in connections)))
    for _reader, writer in connections:
        writer.close()
    return {"clients": clients, "connect_refused": refused, "normal_status": status,
            "normal_ms": normal_ms, "closed_within_deadline": closed_count}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=1_000)
    parser.add_argument("--protocol", choices=sorted(PROTOCOLS), default="deadline")
    parser.add_argument("--head-seconds", type=float, default=10)
    parser.add_argument("--server-files", type=int, default=0,
                        help="the server's open-files limit (default: as `serve` raises it)")
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as data_dir:
        env = {**{k: v for k, v in os.environ.items()
                  if k not in {"DJANGO_SETTINGS_MODULE", "DATABASE_URL", "REDIS_URL"}},
               "PUZZLECOMP_DATA_DIR": data_dir,
               "PUZZLECOMP_HEADER_TIMEOUT": str(args.head_seconds)}
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
            result = asyncio.run(measure(port, args.clients, args.head_seconds))
        finally:
            server.terminate()
            server.wait(timeout=15)
    print(json.dumps({"protocol": args.protocol, "head_seconds": args.head_seconds,
                      "server_files": args.server_files or "raised", **result}))


if __name__ == "__main__":
    main()
