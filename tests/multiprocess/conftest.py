"""App processes against one PostgreSQL database and the machine's Redis, as in production.

The `cluster` fixture (one per test session) creates a database with a unique name, migrates
it, and starts two uvicorn processes of the whole ASGI app with DATABASE_URL pointing there and
REDIS_URL at the Redis this machine runs on localhost (tests/services.py), reached through
a proxy process that tests stop and start to cut the pub/sub path. At the end it stops every
process it started (by pid), drops the database and deletes its Redis keys. `live_round` seeds a
fresh championship with a running round, seated entries and paired judges' phones
(tests/multiprocess/seed.py, run in a subprocess with the app's environment).

Skipped when PostgreSQL or Redis does not answer, unless PUZZLECOMP_MULTIPROCESS=required
(.ci/run) turns the skip into a failure.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx
import pytest
import redis

from tests.multiprocess.seed import table_of
from tests.services import keys_delete, machine_redis_url, run_prefix, unavailable

ROOT = Path(__file__).resolve().parents[2]
PG_ADMIN_URL = os.environ.get("PUZZLECOMP_MULTIPROCESS_PG", "postgresql://postgres@127.0.0.1:5432")
STARTUP_SECONDS = 60.0


def wait_for(condition: Callable[[], Any], *, timeout: float, what: str,
             every: float = 0.05) -> Any:
    """Poll `condition` until it returns something truthy; fail naming `what` at the deadline."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout} s waiting for {what}")
        time.sleep(every)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _postgres() -> Any:
    """A connection to the maintenance database, or a skip saying why there is none."""
    try:
        import psycopg
    except ImportError:
        unavailable("psycopg is not installed")
    try:
        return psycopg.connect(f"{PG_ADMIN_URL}/postgres", autocommit=True, connect_timeout=3)
    except psycopg.OperationalError as error:
        unavailable(f"PostgreSQL is not reachable at {PG_ADMIN_URL} ({error})")


def _stop(process: subprocess.Popen[bytes], *, hard: bool = False) -> None:
    if process.poll() is None:
        os.kill(process.pid, signal.SIGKILL if hard else signal.SIGTERM)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            os.kill(process.pid, signal.SIGKILL)
            process.wait(10)


class RedisPath:
    """The app processes' way to Redis: a proxy process (tests/multiprocess/proxy.py) that a
    test may stop, cutting every connection through it, and start again on the same port."""

    def __init__(self, upstream_url: str) -> None:
        upstream = urlsplit(upstream_url)
        self.upstream = f"{upstream.hostname}:{upstream.port or 6379}"
        self.port = free_port()
        credentials = upstream.netloc.rpartition("@")[0]
        netloc = f"{credentials}@127.0.0.1:{self.port}" if credentials else f"127.0.0.1:{self.port}"
        self.url = urlunsplit(upstream._replace(netloc=netloc))
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.multiprocess.proxy", "--port", str(self.port),
             "--to", self.upstream], cwd=ROOT)
        wait_for(self._answers, timeout=10, what="Redis to answer through the proxy")

    def _answers(self) -> bool:
        client = redis.Redis.from_url(self.url, socket_connect_timeout=1, socket_timeout=1)
        try:
            return bool(client.ping())
        except redis.RedisError:
            return False
        finally:
            client.close()

    def stop(self) -> None:
        if self.process is not None:
            _stop(self.process)
            self.process = None


@dataclass
class AppProcess:
    """One uvicorn process of the whole ASGI app; kill() is a crash, start() a restart."""

    name: str
    env: dict[str, str]
    log: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "uvicorn", "puzzlecomp.web.asgi:application",
                 "--host", "127.0.0.1", "--port", str(self.port), "--log-level", "warning",
                 "--no-access-log", "--timeout-graceful-shutdown", "1"],
                env=self.env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
        wait_for(self._answers, timeout=STARTUP_SECONDS, what=f"app {self.name} /live/time",
                 every=0.1)
        # The first request through Django imports the API; a judge's phone is never first.
        httpx.get(f"{self.url}/api/v1/championships", timeout=STARTUP_SECONDS)

    def _answers(self) -> bool:
        assert self.process is not None
        if self.process.poll() is not None:
            pytest.fail(f"app {self.name} exited with {self.process.returncode}")
        try:
            return httpx.get(f"{self.url}/live/time", timeout=2).status_code == 200
        except httpx.HTTPError:
            return False

    def log_tail(self, chars: int = 4000) -> str:
        """The end of what the process wrote (errors and their tracebacks)."""
        return self.log.read_text(errors="replace")[-chars:]

    def kill(self) -> None:
        """SIGKILL: no shutdown, requests in flight are cut."""
        assert self.process is not None
        _stop(self.process, hard=True)

    def stop(self) -> None:
        if self.process is not None:
            _stop(self.process)


@dataclass
class Cluster:
    database_url: str
    redis: RedisPath
    env: dict[str, str]
    apps: list[AppProcess]
    _db: Any = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def seed(self, *, entries: int, devices: int = 1) -> LiveRound:
        out = subprocess.run(
            [sys.executable, "-m", "tests.multiprocess.seed", "--entries", str(entries),
             "--devices", str(devices)], env=self.env, cwd=ROOT, check=True,
            capture_output=True, text=True, timeout=120)
        return LiveRound(**json.loads(out.stdout))

    def query(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        """Rows of a read on the championship's database, as the app committed them."""
        import psycopg

        with self._lock:
            if self._db is None:
                self._db = psycopg.connect(self.database_url, autocommit=True)
            return list(self._db.execute(sql, params).fetchall())

    def changes_per_client_id(self, round_id: int) -> dict[str, int]:
        """How many history rows each client id wrote in the round (exactly once: 1 each)."""
        return dict(self.query(
            "SELECT client_id, count(*) FROM championships_resultchange WHERE round_id=%s "
            "GROUP BY client_id", round_id))

    def stored_times(self, round_id: int, *, version: int | None = None) -> dict[int, int]:
        """Entry number -> the stored result's time (only results at `version` if given)."""
        sql = ("SELECT e.number, r.time_seconds FROM championships_result r JOIN "
               "championships_entry e ON e.id = r.entry_id WHERE r.round_id=%s")
        if version is None:
            return dict(self.query(sql, round_id))
        return dict(self.query(sql + " AND r.version=%s", round_id, version))

    def close(self) -> None:
        if self._db is not None:
            self._db.close()


@dataclass(frozen=True)
class LiveRound:
    slug: str
    round_id: int
    starts_at: str
    devices: list[dict[str, Any]]
    entries: int

    def token_for(self, entry: int) -> str:
        """The token of the phone looking after the entry's table."""
        table = table_of(entry)
        return next(d["token"] for d in self.devices
                    if d["table_from"] <= table <= d["table_to"])


@pytest.fixture(scope="session")
def cluster() -> Iterator[Cluster]:
    redis_url = machine_redis_url()
    prefix = run_prefix()
    admin = _postgres()
    name = f"puzzlecomp_mp_{uuid.uuid4().hex[:12]}"
    admin.execute(f'CREATE DATABASE "{name}"')
    database_url = f"{PG_ADMIN_URL}/{name}"
    redis_path = RedisPath(redis_url)
    apps: list[AppProcess] = []
    cluster = None
    data_dir = Path(tempfile.mkdtemp(prefix="puzzlecomp-mp-"))
    (data_dir / "static").mkdir()
    try:
        redis_path.start()
        # DEBUG=1: Django logs a request's traceback to the app's log (shown on failure).
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "puzzlecomp.settings.dev", "DEBUG": "1",
               "DATABASE_URL": database_url, "REDIS_URL": redis_path.url,
               "PUZZLECOMP_REDIS_PREFIX": prefix,
               "ALLOWED_HOSTS": "127.0.0.1,localhost", "PYTHONPATH": str(ROOT),
               "PUZZLECOMP_DATA_DIR": str(data_dir)}
        subprocess.run([sys.executable, "manage.py", "migrate", "--verbosity", "0"], env=env,
                       cwd=ROOT, check=True, timeout=180)
        apps = [AppProcess(name, env, data_dir / f"app-{name}.log") for name in "AB"]
        for app in apps:
            app.start()
        cluster = Cluster(database_url, redis_path, env, apps)
        yield cluster
    finally:
        if cluster is not None:
            cluster.close()
        for app in apps:
            app.stop()
        redis_path.stop()
        keys_delete(redis_url, prefix)
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()
        shutil.rmtree(data_dir, ignore_errors=True)
