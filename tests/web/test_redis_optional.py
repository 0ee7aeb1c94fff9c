"""Issue 22, finding 6: with REDIS_URL set and Redis down, every page and form works.

A redis-server of the test's own, on a free loopback port, is the app's cache and notice relay;
the test stops it and asks for the round's results page, its projector, registration and a
password reset (each answered 500 before: the cache's errors reached the views). The cache
falls back to each process's memory (web/redis_cache.py), so the form limits still count.
Skipped without redis-server unless PUZZLECOMP_MULTIPROCESS=required (.ci/run installs it).
"""

from __future__ import annotations

import datetime as dt
import logging
import shutil
import subprocess
import time
from collections.abc import Iterator

import pytest
import redis
from django.core import mail
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from puzzlecomp.championships.models import Round, RoundState
from puzzlecomp.championships.services.rounds import round_state_set
from puzzlecomp.settings.base import cache_from_env
from puzzlecomp.web import redis_cache
from tests.live.entries import enter, finish
from tests.multiprocess.conftest import free_port
from tests.services import unavailable
from tests.support import round_of
from tests.web.test_registration_public import form_data, person


class OwnRedis:
    """A redis-server on a free loopback port, nothing saved, stopped and started by the
    test (the machine's Redis on 6379 is never touched)."""

    def __init__(self, binary: str) -> None:
        self.binary = binary
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no"], stdout=subprocess.DEVNULL)
        client = redis.Redis.from_url(self.url, socket_connect_timeout=1)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                assert time.monotonic() < deadline, "the test's redis-server did not start"
                time.sleep(0.05)
        client.close()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)
        self.process = None

    def keys(self) -> list[bytes]:
        client = redis.Redis.from_url(self.url, socket_connect_timeout=1)
        try:
            return list(client.scan_iter(match="redis-optional:*"))
        finally:
            client.close()


@pytest.fixture
def own_redis(settings) -> Iterator[OwnRedis]:
    binary = shutil.which("redis-server")
    if binary is None:
        unavailable("redis-server is not installed")
    server = OwnRedis(binary)
    server.start()
    # The cache production settings make of REDIS_URL.
    caches = {"default": cache_from_env(server.url, "redis-optional")}
    try:
        with override_settings(CACHES=caches, REDIS_URL=server.url,
                               REDIS_PREFIX="redis-optional"):
            yield server
    finally:
        server.stop()


@pytest.fixture
def championship(make_championship, clock):
    """A WJPC 2025 championship whose registration is open (as test_anonymous_email_limits)."""
    championship = make_championship("wjpc-2025",
                                     starts_at=dt.datetime(2027, 9, 20, 9, tzinfo=dt.UTC))
    championship.published = True
    championship.save()
    return championship


@pytest.fixture
def running(championship) -> Round:
    rnd = round_of(championship, "individual", "first")
    round_state_set(round=rnd, state=RoundState.RUNNING,
                    starts_at=timezone.now() - dt.timedelta(minutes=90))
    finish(rnd, enter(rnd, 1, "Ana Novak", "CZ", table=1), 3000)
    enter(rnd, 2, "Ben Berg", "NO", table=2)
    return rnd


def pages(rnd: Round) -> list[str]:
    slug = rnd.event.championship.slug
    return [reverse("public:live:round", args=[slug, rnd.pk]),
            reverse("public:live:projector", args=[slug, rnd.pk])]


def test_pages_and_forms_work_with_redis_down(own_redis, running, championship,
                                              django_user_model, caplog, settings,
                                              django_capture_on_commit_callbacks):
    client = Client(REMOTE_ADDR="203.0.113.7")
    for path in pages(running):
        assert client.get(path).status_code == 200
    assert own_redis.keys(), "the pages did not use the test's Redis"

    own_redis.stop()
    with caplog.at_level(logging.WARNING, logger="puzzlecomp.web.redis_cache"):
        for path in pages(running):
            response = client.get(path)
            assert response.status_code == 200
            assert b"Ana Novak" in response.content
        # Registration for an event closes once its first round starts (issue 24): the
        # pairs' round has not.
        register = reverse("public:registration:register", args=[championship.slug,
                                                                 "pairs"])
        with django_capture_on_commit_callbacks(execute=True):
            registered = client.post(register, form_data(person("Ana"), person("Eva")))
        assert registered.status_code == 302
        django_user_model.objects.create_user("olga", email="olga@example.org",
                                              password="pw-1")
        reset = client.post("/accounts/password_reset/", {"email": "olga@example.org"})
        assert reset.status_code == 302
    assert len(mail.outbox) == 2
    # One line for the outage, not one per request.
    assert [m for m in caplog.messages if m.startswith("cache: Redis does not answer")] == [
        f"cache: Redis does not answer (Error 111 connecting to 127.0.0.1:{own_redis.port}. "
        "Connection refused.); this process keeps the cache in its own memory until it does"]


def test_with_redis_down_the_form_limits_still_count_in_each_process(own_redis, db,
                                                                     django_user_model,
                                                                     settings):
    settings.PASSWORD_RESETS_PER_HOUR = 3
    for n in range(5):
        django_user_model.objects.create_user(f"u{n}", email=f"u{n}@example.org",
                                              password="pw-1")
    own_redis.stop()
    client = Client(REMOTE_ADDR="203.0.113.9")
    statuses = [client.post("/accounts/password_reset/", {"email": f"u{n}@example.org"})
                .status_code for n in range(5)]
    assert statuses == [302] * 3 + [429] * 2


def test_the_cache_goes_back_to_redis_once_it_answers(own_redis, db, monkeypatch, caplog):
    monkeypatch.setattr(redis_cache, "RETRY_SECONDS", 0.0)
    own_redis.stop()
    cache.set("while-down", 1)
    assert cache.get("while-down") == 1
    own_redis.start()
    with caplog.at_level(logging.WARNING, logger="puzzlecomp.web.redis_cache"):
        cache.set("back", 2)
    assert own_redis.keys() == [b"redis-optional:1:back"]
    assert "cache: Redis answers again" in caplog.messages
