"""Fixtures of the web app: a championship per ruleset, users in every role, signed-in clients."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator

import pytest
from django.test import Client
from django.utils import timezone

from puzzlecomp.championships.models import Championship, Membership, Role
from puzzlecomp.championships.services.setup import championship_create

ROLES = list(Role)


@pytest.fixture
def make_championship(db) -> Callable[..., Championship]:
    def make(ruleset_id: str = "wjpc-2025", *, days_ahead: int = 60, **fields) -> Championship:
        return championship_create(
            ruleset_id=ruleset_id, name=fields.pop("name", f"Test {ruleset_id}"),
            starts_at=fields.pop("starts_at", timezone.now() + dt.timedelta(days=days_ahead)),
            venue=fields.pop("venue", "Hall"), **fields,
        )

    return make


@pytest.fixture
def championship(make_championship) -> Championship:
    """A WJPC 2025 championship two months ahead, published."""
    championship = make_championship("wjpc-2025")
    championship.published = True
    championship.save()
    return championship


@pytest.fixture
def user_in_role(db, django_user_model) -> Callable[[Championship, Role], object]:
    def make(championship: Championship, role: Role):
        user = django_user_model.objects.create_user(
            username=f"{role.name.lower()}-{championship.slug}", password="pw-12345678"
        )
        Membership.objects.create(user=user, championship=championship, role=role)
        return user

    return make


@pytest.fixture
def creator(db, django_user_model):
    """A user with no championship yet who may create one (the permission, given in the
    admin)."""
    from django.contrib.auth.models import Permission

    user = django_user_model.objects.create_user("newcomer", password="pw-12345678")
    user.user_permissions.add(Permission.objects.get(codename="add_championship"))
    return user


@pytest.fixture
def client_as(user_in_role) -> Callable[[Championship, Role | None], Client]:
    """A client signed in with the role in the championship (None: anonymous)."""

    def make(championship: Championship, role: Role | None) -> Client:
        client = Client()
        if role is not None:
            client.force_login(user_in_role(championship, role))
        return client

    return make


@pytest.fixture
def submit(client, django_capture_on_commit_callbacks):
    """POST like a browser, with the emails that are sent after commit."""

    def post(path: str, data: dict | None = None):
        with django_capture_on_commit_callbacks(execute=True):
            return client.post(path, data or {}, follow=True)

    return post


@pytest.fixture
def clock(monkeypatch):
    """Set the site's clock (UTC), e.g. clock("2027-07-01T12:00")."""

    def at(instant: str) -> None:
        now = dt.datetime.fromisoformat(instant).replace(tzinfo=dt.UTC)
        monkeypatch.setattr(timezone, "now", lambda: now)

    at("2027-07-01T12:00")
    return at


@pytest.fixture(autouse=True)
def _empty_cache():
    """Form limits and snapshots live in the cache: each test starts with none."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def session_key(transactional_db, django_user_model, monkeypatch) -> Iterator[str]:
    """The session cookie of a signed-in organiser, for requests through the ASGI application
    (web/body_limits.py reads the session on a request thread: hence a transactional test).
    They run on a thread of the test's own, whose database connection is closed at the end:
    the other tests' request threads may not hold one."""
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connections

    from puzzlecomp.web import asgi

    organiser = django_user_model.objects.create_user("organiser", password="pw-1")
    client = Client()
    client.force_login(organiser)
    thread = ThreadPoolExecutor(1, thread_name_prefix="request")
    monkeypatch.setattr(asgi.django_application, "executor", thread)
    yield client.cookies["sessionid"].value
    thread.submit(connections.close_all).result()
    thread.shutdown()
