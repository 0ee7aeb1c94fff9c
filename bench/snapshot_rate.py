"""Ranking snapshot requests per second: the live app and the API, against a bare ASGI app
serving the same bytes on the same server in the same run (so the figures are ratios).

    .venv/bin/python bench/snapshot_rate.py            # --connections 50 --seconds 5

The round is the WJPC-sized one of bench/live_spectators.py (1,200 entries, 600 results).
Each figure: `--connections` keep-alive connections asking one after the other for
`--seconds`; "200" asks as a browser does the first time (gzip accepted, no ETag), "304" asks
with the current ETag, as every poll of an unchanged round does. Then, in this process, the
time of one snapshot build (ranking, lines, JSON and gzip: what each new notice number costs
once) with 600 and with all 1,200 entries finished. Prints JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from live_spectators import Connection, build_championship, server

BUILDS = 7

BARE_BODY = "PUZZLECOMP_BENCH_BODY"
BARE_ETAG = '"bare"'


async def bare_app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """The least an ASGI app can do: the same gzipped snapshot bytes, ETag and 304."""
    if scope["type"] != "http":
        return
    if (b"if-none-match", BARE_ETAG.encode()) in scope["headers"]:
        await send({"type": "http.response.start", "status": 304,
                    "headers": [(b"etag", BARE_ETAG.encode())]})
        await send({"type": "http.response.body", "body": b""})
        return
    body = _bare_body()
    await send({"type": "http.response.start", "status": 200, "headers": [
        (b"content-type", b"application/json"), (b"content-encoding", b"gzip"),
        (b"content-length", str(len(body)).encode()), (b"etag", BARE_ETAG.encode())]})
    await send({"type": "http.response.body", "body": body})


_body: list[bytes] = []


def _bare_body() -> bytes:
    if not _body:
        _body.append(Path(os.environ[BARE_BODY]).read_bytes())
    return _body[0]


async def rate(port: int, path: str, connections: int, seconds: float, etag: str = "") -> float:
    """Completed requests per second over `connections` keep-alive connections."""
    headers = {"Accept_Encoding": "gzip", **({"If_None_Match": etag} if etag else {})}
    expected = 304 if etag else 200
    done = 0
    stop = time.monotonic() + seconds

    async def client() -> None:
        nonlocal done
        connection = await Connection.open(port)
        try:
            while time.monotonic() < stop:
                status, _, _ = await connection.get(path, **headers)
                if status != expected:
                    raise RuntimeError(f"{path}: HTTP {status}, expected {expected}")
                done += 1
        finally:
            connection.close()

    started = time.monotonic()
    await asyncio.gather(*(client() for _ in range(connections)))
    return done / (time.monotonic() - started)


async def measure(port: int, paths: dict[str, str], connections: int,
                  seconds: float) -> dict[str, float]:
    figures = {}
    for name, path in paths.items():
        connection = await Connection.open(port)
        _, headers, body = await connection.get(path, Accept_Encoding="gzip")
        connection.close()
        figures[f"{name}_200_per_s"] = round(await rate(port, path, connections, seconds))
        figures[f"{name}_304_per_s"] = round(await rate(port, path, connections, seconds,
                                                       etag=headers["etag"]))
        figures[f"{name}_body_bytes"] = len(body)
    return figures


def build_times(round_id: int) -> dict[str, float]:
    """Median wall and CPU milliseconds of building the round's snapshot bytes afresh."""
    from puzzlecomp.championships.models import Round
    from puzzlecomp.live.snapshot import snapshot_build

    rnd = Round.objects.select_related("event__championship").get(pk=round_id)
    walls, cpus = [], []
    for _ in range(BUILDS):
        wall, cpu = time.perf_counter(), time.process_time()
        snapshot_build(rnd, 0)
        walls.append((time.perf_counter() - wall) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)
    return {"wall_ms": round(statistics.median(walls), 1),
            "cpu_ms": round(statistics.median(cpus), 1)}


def finish_every_entry(round_id: int) -> None:
    from puzzlecomp.championships.models import Entry, Result, Round

    rnd = Round.objects.get(pk=round_id)
    waiting = Entry.objects.filter(event=rnd.event).exclude(results__round=rnd)
    Result.objects.bulk_create(
        Result(round=rnd, entry=entry, status="finished", time_seconds=2400 + entry.number)
        for entry in waiting)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="puzzlecomp-bench-") as tmp:
        data_dir = Path(tmp)
        setup = build_championship(data_dir)
        paths = {
            "live": f"/live/{setup.slug}/rounds/{setup.round_id}/snapshot",
            "api": f"/api/v1/championships/{setup.slug}/rounds/{setup.round_id}/ranking",
        }
        with server(data_dir) as (port, _pid):
            figures = asyncio.run(measure(port, paths, args.connections, args.seconds))

            async def snapshot_bytes() -> bytes:
                connection = await Connection.open(port)
                _, _, body = await connection.get(paths["live"], Accept_Encoding="gzip")
                connection.close()
                return body

            (data_dir / "body.gz").write_bytes(asyncio.run(snapshot_bytes()))
        os.environ[BARE_BODY] = str(data_dir / "body.gz")
        with server(data_dir, "snapshot_rate:bare_app", "--app-dir",
                    str(Path(__file__).parent)) as (port, _pid):
            bare = asyncio.run(measure(port, {"bare": "/"}, args.connections, args.seconds))
        figures.update(bare)
        figures["snapshot_build_600_results"] = build_times(setup.round_id)
        finish_every_entry(setup.round_id)
        figures["snapshot_build_1200_results"] = build_times(setup.round_id)
    for name in ("live", "api"):
        for status in ("200", "304"):
            figures[f"{name}_{status}_vs_bare"] = round(
                figures[f"{name}_{status}_per_s"] / figures[f"bare_{status}_per_s"], 2)
    print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
