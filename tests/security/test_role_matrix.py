"""Every write endpoint against every role, the device API's token checks, CSRF and cookies.

A write endpoint is any URL whose view accepts POST (answers something other than 405 to the
owner). Each one has an expected rule in WRITES; a new POST URL without an entry fails the
test, so nobody adds a write without deciding who may make it.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import secrets
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone

from puzzlecomp.championships.models import (
    BankTransaction,
    Championship,
    Dispute,
    JudgeDevice,
    Membership,
    Result,
    ResultChange,
    Role,
    Round,
)
from puzzlecomp.championships.services.devices import device_create, pairing_code_issue
from puzzlecomp.championships.services.results import result_record
from puzzlecomp.championships.services.setup import championship_create
from puzzlecomp.rules.results import Status
from tests.judging.support import WRITE_URL, pair_device, seat_round

ROOT = Path(__file__).resolve().parents[2]
ROLES = [None, *Role]
ANYONE = "anyone"
SIGNED_IN = "signed in"

# Who may write to each POST URL: a championship role (and every stronger one), any signed-in
# user, or anyone (public forms; the dispute page is reached only through the entry's private
# link, the judge's pairing page only through a pairing code).
WRITES: dict[str, Role | str] = {
    "login": ANYONE,
    "logout": ANYONE,
    "password_change": SIGNED_IN,
    "password_reset": ANYONE,
    "password_reset_confirm": ANYONE,
    "set_language": ANYONE,
    "control:home": SIGNED_IN,
    # Organisers and owners of any championship (and staff) may create one (issue 14).
    "control:championship_new": Role.ORGANISER,
    "control:championship_import": Role.ORGANISER,
    "control:dashboard": Role.JUDGE,
    "control:setup:index": Role.ORGANISER,
    "control:setup:emails": Role.ORGANISER,
    "control:setup:championship": Role.ORGANISER,
    "control:setup:settings": Role.ORGANISER,
    "control:setup:floor_plan": Role.ORGANISER,
    "control:setup:registration": Role.ORGANISER,
    "control:setup:event": Role.ORGANISER,
    "control:setup:round": Role.ORGANISER,
    "control:setup:puzzle": Role.ORGANISER,
    "control:setup:team_models": Role.ORGANISER,
    "control:setup:members": Role.OWNER,
    "control:setup:member_role": Role.OWNER,
    "control:setup:member_remove": Role.OWNER,
    "control:registrations:index": Role.ORGANISER,
    "control:registrations:event": Role.ORGANISER,
    "control:registrations:promote": Role.ORGANISER,
    "control:registrations:draw": Role.ORGANISER,
    "control:registrations:payment": Role.ORGANISER,
    "control:registrations:cancel": Role.ORGANISER,
    "control:registrations:history": Role.ORGANISER,
    "control:registrations:same_person": Role.ORGANISER,
    "control:registrations:not_same_person": Role.ORGANISER,
    "control:registrations:merge_undo": Role.ORGANISER,
    "control:registrations:claim_approve": Role.ORGANISER,
    "control:registrations:person_facts": Role.ORGANISER,
    "control:planning:groups_assign": Role.ORGANISER,
    "control:planning:group_move": Role.ORGANISER,
    "control:planning:groups_publish": Role.ORGANISER,
    "control:planning:groups_undo": Role.ORGANISER,
    "control:planning:seating_assign": Role.ORGANISER,
    "control:planning:seating_publish": Role.ORGANISER,
    "control:planning:seating_undo": Role.ORGANISER,
    "control:planning:seats_swap": Role.ORGANISER,
    "control:planning:seat_no_show": Role.HEAD_JUDGE,
    "control:check_in:check_in": Role.ORGANISER,
    "control:check_in:replace": Role.ORGANISER,
    "control:data:import": Role.ORGANISER,
    "control:data:import_confirm": Role.ORGANISER,
    "control:live:move": Role.HEAD_JUDGE,
    "control:live:group_start": Role.HEAD_JUDGE,
    "control:live:groups_plan": Role.HEAD_JUDGE,
    "control:live:credit": Role.HEAD_JUDGE,
    "control:live:projector_scene": Role.HEAD_JUDGE,
    "control:live:correct": Role.HEAD_JUDGE,
    "control:live:verify": Role.HEAD_JUDGE,
    "control:live:looked_at": Role.HEAD_JUDGE,
    "control:live:dispute_resolve": Role.HEAD_JUDGE,
    "control:judges:create": Role.HEAD_JUDGE,
    "control:judges:sheets_pdf": Role.HEAD_JUDGE,
    "control:judges:new_code": Role.HEAD_JUDGE,
    "control:judges:revoke": Role.HEAD_JUDGE,
    "control:rounds:qualifiers": Role.ORGANISER,
    "control:rounds:qualifiers_confirm": Role.ORGANISER,
    "control:rounds:group_difficulty": Role.ORGANISER,
    "control:rounds:qualifier_withdraw": Role.ORGANISER,
    "control:rounds:next_round_create": Role.ORGANISER,
    "control:standings:publish": Role.ORGANISER,
    "control:standings:tiebreaker_hold": Role.ORGANISER,
    "judging:pair": ANYONE,
    # Pairing a phone for a table's row: a judge of the championship (see ANONYMOUS_FORBIDDEN).
    "judging:table": Role.JUDGE,
    "public:registration:register": ANYONE,
    "public:registration:confirm": ANYONE,
    "public:registration:claim": ANYONE,
    "public:disputes:entrant": ANYONE,
    "public:disputes:emails": ANYONE,
    # The entrant's own links: the token in the address is the proof.
    "public:registration:link": ANYONE,
    "public:payout_account": ANYONE,
    "public:disputes:withdraw": ANYONE,
    # The treasurer's screens (issue 28) are the organiser's.
    "control:payments:overview": Role.ORGANISER,
    "control:payments:account": Role.ORGANISER,
    "control:payments:statement": Role.ORGANISER,
    "control:payments:assign": Role.ORGANISER,
    "control:payments:resolve": Role.ORGANISER,
    "control:payments:payouts": Role.ORGANISER,
    # Checking a results package changes nothing; anyone may upload one (issue 29).
    "public:packages:verify": ANYONE,
    # Pages that answer a POST like a GET (they change nothing, but are guarded the same).
    "control:data:index": Role.JUDGE,
    "control:data:people": Role.JUDGE,
    "control:data:people_private": Role.ORGANISER,
    "control:data:entries": Role.JUDGE,
    "control:data:results": Role.JUDGE,
    "control:judges:index": Role.HEAD_JUDGE,
    "control:live:index": Role.JUDGE,
    "control:live:round": Role.JUDGE,
    "control:live:state": Role.JUDGE,
    "control:live:map": Role.JUDGE,
    "control:live:entries": Role.JUDGE,
    "control:live:history": Role.HEAD_JUDGE,
    "control:live:disputes": Role.JUDGE,
    "control:planning:index": Role.JUDGE,
    "control:check_in:index": Role.ORGANISER,
    "control:check_in:desk": Role.ORGANISER,
    "control:check_in:list": Role.ORGANISER,
    "control:planning:groups": Role.JUDGE,
    "control:planning:seating": Role.HEAD_JUDGE,
    "control:planning:print_table_cards": Role.JUDGE,
    "control:planning:print_result_sheets": Role.JUDGE,
    "control:planning:print_participants": Role.JUDGE,
    "control:rounds:index": Role.JUDGE,
    "control:rounds:export": Role.JUDGE,
    "control:rounds:championship_download": Role.ORGANISER,
    "control:standings:index": Role.JUDGE,
    "control:standings:standings": Role.JUDGE,
    "control:standings:awards": Role.JUDGE,
    "control:standings:ceremony_pdf": Role.JUDGE,
    "control:standings:certificates": Role.JUDGE,
    "control:standings:certificate": Role.JUDGE,
    "judging:home": ANYONE,
    "public:home": ANYONE,
    "public:championship": ANYONE,
    "public:schedule": ANYONE,
    "public:live:index": ANYONE,
    "public:live:round": ANYONE,
    "public:live:projector": ANYONE,
    "public:live:entrant": ANYONE,
    "public:registration:index": ANYONE,
    "public:registration:sent": ANYONE,
    "public:standings:index": ANYONE,
    "public:standings:event": ANYONE,
}
# The table card's page offers its own sign-in link, so an anonymous POST is refused outright.
ANONYMOUS_FORBIDDEN = {"judging:table"}


def routes() -> list[tuple[str, str, object]]:
    """(name, route, view) of every web URL (the admin is Django's, the API is tested below)."""
    found: list[tuple[str, str, object]] = []

    def walk(patterns, prefix: str, namespace: str) -> None:
        for pattern in patterns:
            route = prefix + str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                if not route.startswith(("admin/", "api/")):
                    inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
                    walk(pattern.url_patterns, route, inner)
            elif isinstance(pattern, URLPattern) and pattern.name:
                found.append((namespace + pattern.name, route, pattern.callback))

    walk(get_resolver().url_patterns, "", "")
    # accounts/login/ is listed twice (ours, rate limited, shadows Django's): keep the first.
    unique: dict[str, tuple[str, str, object]] = {}
    for name, route, view in found:
        unique.setdefault(name, (name, route, view))
    return list(unique.values())


class World:
    """A championship with a running round, a dispute, a device and a spare member: real
    objects for every argument a URL takes."""

    def __init__(self, championship: Championship) -> None:
        self.championship = championship
        self.round = seat_round(championship, "individual", "first", tables=2)
        entry = self.round.seats.order_by("table", "seat").first().entry
        # A finish awaiting the head judge's check.
        result_record(round=self.round, entry=entry, status=Status.FINISHED, time_seconds=900)
        self.dispute = Dispute.objects.create(round=self.round, entry=entry, text="My time")
        self.device, _code = device_create(
            championship=championship, label="North", table_from=1, table_to=2, user=None)
        self.unpaired, self.pairing_code = device_create(
            championship=championship, label="South", table_from=1, table_to=2, user=None)
        spare = get_user_model().objects.create_user("spare", password="pw-12345678")
        self.membership = Membership.objects.create(user=spare, championship=championship,
                                                    role=Role.COMPETITOR)
        # A statement line waiting in the treasurer's queue.
        self.queued = BankTransaction.objects.create(
            championship=championship, transaction_id="T-1", source="statement.xml", line=1,
            amount=60, currency="EUR", status=BankTransaction.Status.UNKNOWN, reason="unknown")
        self.users: dict[Role, object] = {}
        self.values = {
            "pk": self.queued.pk,
            "slug": championship.slug, "event": "individual", "event_code": "individual",
            "round": "first", "round_id": self.round.pk, "position": 0, "number": entry.number,
            "membership_id": self.membership.pk, "device_id": self.device.pk,
            "dispute_id": self.dispute.pk, "fmt": "csv", "to": "counting", "table": 1,
            "token": entry.token, "uidb64": "MQ", "category": "overall", "entry": entry.number,
            "kind": "clock",
            "group": "A",
            "person_id": 1, "series": "wjpc",
        }

    def url(self, route: str) -> str:
        # Team models are chosen in the teams' event only.
        values = {**self.values, "event": "teams"} if route.endswith("/models/") else self.values
        if "<str:code>" in route:
            # A fresh code: printing the pairing sheets, posted earlier, issues new ones.
            values = {**values, "code": pairing_code_issue(device=self.unpaired, user=None)}
        return "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(values[m.group(1)]), route)


@pytest.fixture
def world(championship, user_in_role) -> World:
    made = World(championship)
    made.users = {role: user_in_role(championship, role) for role in Role}
    return made


def client_as(world: World, role: Role | None) -> Client:
    """A fresh client signed in with the role (a logout or a role change must not leak into
    the next request)."""
    client = Client()
    if role is not None:
        client.force_login(world.users[role])
    return client


def posting(world: World, role: Role | None, route: str):
    """A POST with no fields."""
    return client_as(world, role).post(world.url(route))


def test_the_matrix_agrees_with_the_roles_the_views_declare():
    declared = {name: view.required_role for name, _route, view in routes()
                if hasattr(view, "required_role")}
    assert {n: r for n, r in WRITES.items() if n in declared} == \
        {n: r for n, r in declared.items() if n in WRITES}


def expected(name: str, role: Role | None) -> str:
    rule = WRITES[name]
    if rule == ANYONE:
        return "allowed"
    if role is None:
        return "forbidden" if name in ANONYMOUS_FORBIDDEN else "sign in"
    if rule == SIGNED_IN or role <= rule:
        return "allowed"
    return "forbidden"


def outcome(response) -> str:
    assert response.status_code < 500
    if response.status_code == 302 and "/accounts/login/" in response["Location"]:
        return "sign in"
    if response.status_code == 403:
        return "forbidden"
    return "allowed"


@pytest.mark.parametrize("role", ROLES, ids=lambda r: "anonymous" if r is None else r.name)
def test_every_write_endpoint_with_every_role(world, role):
    wrong = {}
    accepting_post = set()
    for name, route, _view in routes():
        response = posting(world, role, route)
        if response.status_code == 405:
            continue
        accepting_post.add(name)
        if name in WRITES and outcome(response) != expected(name, role):
            wrong[name] = outcome(response)
    assert wrong == {}
    if role == Role.OWNER:
        # The owner passes every guard, so only a view that takes no POST answers 405.
        missing = sorted(accepting_post - set(WRITES))
        assert missing == [], f"POST URLs without an expected rule: {missing}"
        assert sorted(set(WRITES) - accepting_post) == [], "rules for URLs that take no POST"


@pytest.mark.parametrize("role", [r for r in Role if r > Role.HEAD_JUDGE],
                         ids=lambda r: r.name)
def test_a_weaker_role_changes_nothing(world, role):
    """Refused writes leave no trace: a judge cannot revoke a device or resolve a dispute."""
    client = client_as(world, role)
    slug, rnd = world.championship.slug, world.round.pk
    client.post(f"/control/{slug}/judges/{world.device.pk}/revoke/")
    client.post(f"/control/{slug}/live/{rnd}/disputes/{world.dispute.pk}/resolve/",
                {"status": "upheld", "resolution": "ok"})
    client.post(f"/control/{slug}/live/{rnd}/move/published/")
    world.device.refresh_from_db()
    world.dispute.refresh_from_db()
    assert world.device.revoked_at is None
    assert world.dispute.status == "open"
    assert Round.objects.get(pk=rnd).state == world.round.state


# The device API -------------------------------------------------------------------------------

def device_post(world: World, token: str | None, *, entry: int = 2):
    """A judge's tap for an entry at table 1 (entry 2 has no result yet)."""
    body = {"client_id": str(uuid.uuid4()), "round_id": world.round.pk, "entry": entry,
            "base_version": 0, "action": "tap", "puzzle": None,
            "values": {"time_seconds": 300}}
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token is not None else {}
    return Client().post(WRITE_URL, json.dumps(body), content_type="application/json",
                         **headers)


def written() -> tuple[int, int]:
    return Result.objects.count(), ResultChange.objects.count()


def test_a_paired_device_may_write(world):
    _device, token = pair_device(world.championship, 1, 2)
    before = written()
    assert device_post(world, token, entry=2).status_code == 200
    assert written() == (before[0] + 1, before[1] + 1)


@pytest.mark.parametrize("token", [None, "", "not-a-token"], ids=["missing", "empty", "wrong"])
def test_a_device_write_without_a_working_token_is_refused(world, token):
    before = written()
    assert device_post(world, token).status_code == 401
    assert written() == before


def test_a_revoked_device_is_refused(world):
    device, token = pair_device(world.championship, 1, 2)
    device.revoked_at = timezone.now()
    device.save()
    before = written()
    response = device_post(world, token)
    assert response.status_code == 401
    assert response.json()["code"] == "device.revoked"
    assert written() == before


def test_an_expired_device_is_refused(world):
    device, token = pair_device(world.championship, 1, 2)
    JudgeDevice.objects.filter(pk=device.pk).update(
        expires_at=timezone.now() - dt.timedelta(seconds=1))
    before = written()
    response = device_post(world, token)
    assert response.status_code == 401
    assert response.json()["code"] == "device.expired"
    assert written() == before


def test_a_device_of_another_championship_cannot_write_here(world):
    """Its token works, but only for its own championship: this round does not exist for it."""
    other = championship_create(ruleset_id="wjpc-2025", name="Other",
                                starts_at=timezone.now() + dt.timedelta(days=5))
    _device, token = pair_device(other, 1, 2)
    before = written()
    assert device_post(world, token).status_code == 404
    assert written() == before


def test_a_device_cannot_write_outside_its_tables(world):
    _device, token = pair_device(world.championship, 2, 2)
    before = written()
    assert device_post(world, token).status_code == 403
    assert written() == before


# CSRF and cookies -----------------------------------------------------------------------------

def test_a_control_post_without_the_csrf_token_fails(world):
    client = Client(enforce_csrf_checks=True)
    client.force_login(world.users[Role.HEAD_JUDGE])
    slug = world.championship.slug
    response = client.post(f"/control/{slug}/judges/{world.device.pk}/revoke/")
    assert response.status_code == 403
    world.device.refresh_from_db()
    assert world.device.revoked_at is None
    # The same request with the session's token goes through.
    client.get(f"/control/{slug}/judges/")
    token = client.cookies["csrftoken"].value
    client.post(f"/control/{slug}/judges/{world.device.pk}/revoke/",
                {"csrfmiddlewaretoken": token})
    world.device.refresh_from_db()
    assert world.device.revoked_at is not None


PROD_COOKIES = """
import django
django.setup()
from django.conf import settings
print(settings.SESSION_COOKIE_SECURE, settings.CSRF_COOKIE_SECURE,
      settings.SESSION_COOKIE_HTTPONLY, settings.SECURE_HSTS_SECONDS >= 31536000,
      settings.SECURE_SSL_REDIRECT, settings.SESSION_COOKIE_SAMESITE)
"""


def test_production_cookies_are_secure_and_https_is_strict():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "puzzlecomp.settings.prod",
           "SECRET_KEY": secrets.token_urlsafe(50), "ALLOWED_HOSTS": "puzzles.example.org"}
    done = subprocess.run([sys.executable, "-c", PROD_COOKIES], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True", "True", "True", "True", "Lax"]


@pytest.mark.parametrize("secure", [True, False], ids=["https", "http"])
def test_the_judge_device_cookie_is_httponly_and_secure_over_https(world, secure):
    response = Client().post(f"/judge/{world.championship.slug}/pair/{world.pairing_code}",
                             secure=secure)
    assert response.status_code == 302
    cookie = response.cookies[f"judge-{world.championship.slug}"]
    assert cookie["httponly"] is True
    assert bool(cookie["secure"]) is secure
    assert cookie["path"] == "/judge/"
