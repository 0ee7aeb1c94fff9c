"""Issue 14, venue mode: `puzzlecomp serve --venue` on an organiser's laptop in the hall.

The server runs as a real process on this machine, reached over its own addresses only
(loopback, and the machine's LAN address when it has one): no debug page on an error, the
LAN address answers, the generated secret key is kept (owner-only) and reused after a restart,
and a thousand clients sending their headers slowly are closed within the deadline while normal
requests go on.
"""

from __future__ import annotations

import asyncio
import os
import re
import socket
import ssl
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from puzzlecomp.cli.venue import lan_addresses

HEAD_SECONDS = 2
SLOW_CLIENTS = 1_000
PYTHON_BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Venue:
    """`puzzlecomp serve --venue` in a data directory of its own, started and stopped."""

    def __init__(self, data_dir: Path, *, tls: tuple[Path, Path] | None = None) -> None:
        self.data_dir = data_dir
        # With a certificate and its key: HTTPS, checked against that certificate.
        self.tls = tls
        self.verify: ssl.SSLContext | bool = (
            ssl.create_default_context(cafile=str(tls[0])) if tls else True)
        self.port = free_port()
        self.process: subprocess.Popen[str] | None = None
        self.output = ""
        # The server gets settings from nothing but its own flags and the data directory.
        self.env = {k: v for k, v in os.environ.items()
                    if k not in {"DJANGO_SETTINGS_MODULE", "DATABASE_URL", "REDIS_URL",
                                 "SECRET_KEY", "ALLOWED_HOSTS", "SITE_URL", "DEBUG"}}
        self.env.update(PUZZLECOMP_DATA_DIR=str(data_dir),
                        PUZZLECOMP_HEADER_TIMEOUT=str(HEAD_SECONDS))

    @property
    def url(self) -> str:
        return f"{'https' if self.tls else 'http'}://127.0.0.1:{self.port}"

    def start(self) -> None:
        tls = ["--tls-cert", str(self.tls[0]), "--tls-key", str(self.tls[1])] if self.tls else []
        self.process = subprocess.Popen(
            [str(PYTHON_BIN / "puzzlecomp"), "serve", "--venue", "--port", str(self.port),
             "--host-name", "puzzles.hall", *tls],
            env=self.env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.reader = threading.Thread(target=self._read, args=(self.process,), daemon=True)
        self.reader.start()
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.url}/", timeout=2, verify=self.verify).status_code == 200:
                    return
            except httpx.TransportError:
                time.sleep(0.2)
            assert self.process.poll() is None, self.stop()
        raise AssertionError(f"the venue server did not start:\n{self.stop()}")

    def _read(self, process: subprocess.Popen[str]) -> None:
        assert process.stdout is not None
        for line in process.stdout:
            self.output += line

    def stop(self) -> str:
        assert self.process is not None
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.reader.join(timeout=5)
        assert self.process.stdout is not None
        self.process.stdout.close()
        return self.output

    def manage(self, *args: str, **env: str) -> None:
        subprocess.run([str(PYTHON_BIN / "python"), "-m", "django", *args], check=True,
                       env={**self.env, "DJANGO_SETTINGS_MODULE": "puzzlecomp.settings.venue",
                            **env}, capture_output=True)


@pytest.fixture(scope="module")
def venue(tmp_path_factory) -> Iterator[Venue]:
    server = Venue(tmp_path_factory.mktemp("venue"))
    server.start()
    yield server
    server.stop()


def test_an_error_shows_no_debug_page(venue):
    missing = httpx.get(f"{venue.url}/no-such-page/")
    assert missing.status_code == 404
    assert "URLconf" not in missing.text
    assert "DEBUG = True" not in missing.text
    wrong_host = httpx.get(f"{venue.url}/", headers={"Host": "attacker.example"})
    assert wrong_host.status_code == 400
    assert "DisallowedHost" not in wrong_host.text
    assert "Traceback" not in wrong_host.text
    # The site's own page: its header and a way home.
    assert 'class="brand" href="/"' in missing.text
    assert "Go to the championships" in missing.text


def test_the_lan_address_answers_and_the_host_name_is_allowed(venue):
    addresses = lan_addresses()
    if not addresses:
        pytest.skip("this machine has no network address besides loopback: only 127.0.0.1 "
                    "can be asked (the other tests do)")
    response = httpx.get(f"http://{addresses[0]}:{venue.port}/")
    assert response.status_code == 200
    named = httpx.get(f"{venue.url}/", headers={"Host": f"puzzles.hall:{venue.port}"})
    assert named.status_code == 200


def test_it_prints_the_addresses_a_qr_code_and_the_data_directory(venue):
    output = venue.output
    assert f"http://puzzles.hall:{venue.port}/" in output
    assert f"Data directory (database, secret key): {venue.data_dir}" in output
    assert "█" in output
    for address in lan_addresses():
        assert f"http://{address}:{venue.port}/" in output


def sign_in(url: str, password: str = "pw-venue-2027") -> httpx.Client:
    client = httpx.Client(base_url=url)
    form = client.get("/accounts/login/").text
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form)[1]
    response = client.post("/accounts/login/", data={
        "username": "olga", "password": password, "csrfmiddlewaretoken": token})
    assert response.status_code == 302
    assert client.get("/control/").status_code == 200
    return client


def test_the_secret_key_is_made_once_for_its_owner_and_reused_after_a_restart(tmp_path):
    server = Venue(tmp_path)
    server.start()
    key_file = tmp_path / "secret-key"
    key = key_file.read_text()
    assert len(key) >= 50
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    server.manage("createsuperuser", "--noinput", DJANGO_SUPERUSER_USERNAME="olga",
                  DJANGO_SUPERUSER_EMAIL="olga@example.org",
                  DJANGO_SUPERUSER_PASSWORD="pw-venue-2027")
    client = sign_in(server.url)
    server.stop()
    server.start()
    try:
        assert key_file.read_text() == key
        # The session's authentication hash is keyed by SECRET_KEY: still signed in.
        assert client.get("/control/").status_code == 200
    finally:
        client.close()
        server.stop()


async def slow_clients(port: int, count: int) -> tuple[list[asyncio.StreamReader], list]:
    """`count` connections that each send the start of a request head and stop there."""
    connections = [await asyncio.open_connection("127.0.0.1", port) for _ in range(count)]
    for _reader, writer in connections:
        writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        await writer.drain()
    return [r for r, _ in connections], [w for _, w in connections]


async def closed_within(readers: list[asyncio.StreamReader], seconds: float) -> int:
    async def closed(reader: asyncio.StreamReader) -> bool:
        try:
            await asyncio.wait_for(reader.read(), seconds)
        except (TimeoutError, ConnectionError):
            return False
        return True

    return sum(await asyncio.gather(*(closed(r) for r in readers)))


def test_slow_clients_are_closed_and_normal_requests_go_on(venue):
    async def attack() -> tuple[int, int, float]:
        started = time.monotonic()
        readers, writers = await slow_clients(venue.port, SLOW_CLIENTS)
        async with httpx.AsyncClient(base_url=venue.url, timeout=10) as client:
            normal = (await client.get("/")).status_code
        closed = await closed_within(readers, HEAD_SECONDS + 5)
        for writer in writers:
            writer.close()
        await asyncio.gather(*(w.wait_closed() for w in writers), return_exceptions=True)
        return normal, closed, time.monotonic() - started

    normal, closed, took = asyncio.run(attack())
    assert normal == 200
    assert closed == SLOW_CLIENTS
    assert took < HEAD_SECONDS + 10


def test_a_fresh_venue_says_how_to_create_the_first_organiser_who_can_then_start(tmp_path):
    server = Venue(tmp_path)
    server.start()
    try:
        assert f"PUZZLECOMP_DATA_DIR={tmp_path} puzzlecomp organiser add" in server.output
        added = subprocess.run([str(PYTHON_BIN / "puzzlecomp"), "organiser", "add", "olga",
                                "--email", "olga@example.org"], env=server.env, text=True,
                               capture_output=True, stdin=subprocess.DEVNULL, check=True)
        password = re.search(r"Password \(shown once\): (\S+)", added.stdout)[1]
        client = sign_in(server.url, password)
        assert client.get("/control/new/").status_code == 200
        client.close()
        again = subprocess.run([str(PYTHON_BIN / "puzzlecomp"), "organiser", "add", "OLGA"],
                               env=server.env, text=True, capture_output=True,
                               stdin=subprocess.DEVNULL)
        assert again.returncode == 2
        assert again.stderr.strip() == ("error: an account called OLGA exists already: "
                                        "nothing was created")
    finally:
        server.stop()
    server.start()
    try:
        assert "organiser add" not in server.output.split("Data directory")[-1]
    finally:
        server.stop()
