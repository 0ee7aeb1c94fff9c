"""Issue 22, findings 4 and 8, against real server processes: under production and venue
settings a 500 is logged with its traceback (in venue mode also to the data directory's
errors.log); venue mode keeps its database and WAL files owner-only (0644 before); and the
server refuses a 2 GB body before reading it and closes slow bodies (web/body_limits.py)."""

from __future__ import annotations

import asyncio
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.security.test_venue_mode import Venue

ROOT = Path(__file__).resolve().parents[2]
BODY_SECONDS = 2
SLOW_BODIES = 40
# In a process of its own: Django set up with the given settings, one request to a view that
# fails (the error log is the settings' own, not the test process's).
FAILING_REQUEST = """
import django
from django.conf import settings
django.setup()
settings.ROOT_URLCONF = "tests.security.raising_urls"
from django.test import Client
print("status", Client(raise_request_exception=False).get("/fails/").status_code, flush=True)
"""


def failing_request(settings_module: str, data_dir: Path,
                    **env: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items()
                   if k not in {"DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY"}}
    environment.update(DJANGO_SETTINGS_MODULE=settings_module, PUZZLECOMP_DATA_DIR=str(data_dir),
                       ALLOWED_HOSTS="testserver", **env)
    return subprocess.run([sys.executable, "-c", FAILING_REQUEST], cwd=ROOT, env=environment,
                          capture_output=True, text=True, timeout=120, check=True)


def test_a_500_under_production_settings_is_logged_with_its_traceback(tmp_path):
    run = failing_request("puzzlecomp.settings.prod", tmp_path, SECRET_KEY="s" * 50,
                          SECURE_SSL_REDIRECT="0")
    assert "status 500" in run.stdout
    assert "ERROR django.request: Internal Server Error: /fails/" in run.stderr
    assert "Traceback (most recent call last)" in run.stderr
    assert "RuntimeError: issue-22 error that must leave a trace" in run.stderr


def test_a_500_in_venue_mode_is_logged_to_the_data_directory_for_its_owner(tmp_path):
    run = failing_request("puzzlecomp.settings.venue", tmp_path)
    assert "status 500" in run.stdout
    log = tmp_path / "errors.log"
    text = log.read_text(encoding="utf-8")
    assert "ERROR django.request: Internal Server Error: /fails/" in text
    assert "Traceback (most recent call last)" in text
    assert "RuntimeError: issue-22 error that must leave a trace" in text
    assert stat.S_IMODE(log.stat().st_mode) == 0o600
    assert "RuntimeError: issue-22 error that must leave a trace" in run.stderr


@pytest.fixture(scope="module")
def venue(tmp_path_factory) -> Iterator[Venue]:
    server = Venue(tmp_path_factory.mktemp("venue"))
    server.env["PUZZLECOMP_BODY_TIMEOUT"] = str(BODY_SECONDS)
    # The slow bodies all come from 127.0.0.1: each is to wait for its 408.
    server.env["PUZZLECOMP_BODIES_PER_CLIENT"] = str(SLOW_BODIES)
    server.start()
    yield server
    server.stop()


def test_venue_mode_keeps_the_database_and_its_wal_files_owner_only(venue):
    assert httpx.get(f"{venue.url}/").status_code == 200
    database = venue.data_dir / "puzzlecomp.sqlite3"
    files = [database, database.with_name(database.name + "-wal"),
             database.with_name(database.name + "-shm")]
    assert all(file.exists() for file in files)
    assert [stat.S_IMODE(file.stat().st_mode) for file in files] == [0o600] * 3


async def _post_head(port: int, head: bytes) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(head)
    await writer.drain()
    try:
        return await asyncio.wait_for(reader.read(), BODY_SECONDS + 5)
    finally:
        writer.close()


def test_the_server_refuses_a_2_gb_body_before_a_byte_of_it_is_sent(venue):
    head = (b"POST /control/import/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: multipart/form-data; boundary=x\r\n"
            b"Content-Length: 2147483648\r\n\r\n")
    answer = asyncio.run(_post_head(venue.port, head))
    assert answer.startswith(b"HTTP/1.1 413 ")
    assert b"connection: close" in answer.lower()


def test_slow_bodies_are_answered_408_and_closed_while_normal_requests_go_on(venue):
    head = (b"POST /accounts/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/x-www-form-urlencoded\r\n"
            b"Content-Length: 1000\r\n\r\nusername=")

    async def attack() -> tuple[list[bytes], int]:
        slow = [asyncio.create_task(_post_head(venue.port, head)) for _ in range(SLOW_BODIES)]
        await asyncio.sleep(0.5)
        async with httpx.AsyncClient(base_url=venue.url, timeout=10) as client:
            normal = (await client.get("/")).status_code
        return await asyncio.gather(*slow), normal

    answers, normal = asyncio.run(attack())
    assert normal == 200
    assert [a[:12] for a in answers] == [b"HTTP/1.1 408"] * SLOW_BODIES
