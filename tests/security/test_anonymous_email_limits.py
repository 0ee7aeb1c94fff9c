"""Issue 14, findings 5 and 7: anonymous forms that send email are limited per address and per
email address, and password-reset links point at SITE_URL, whatever Host a request claims."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from tests.web.test_registration_public import form_data, person


@pytest.fixture
def wjpc(make_championship, clock):
    championship = make_championship("wjpc-2025",
                                     starts_at=dt.datetime(2027, 9, 20, 9, tzinfo=dt.UTC))
    championship.published = True
    championship.save()
    return championship


def test_registrations_from_one_address_are_limited(wjpc, settings,
                                                    django_capture_on_commit_callbacks):
    settings.REGISTRATIONS_PER_HOUR = 8
    client = Client(REMOTE_ADDR="203.0.113.9")
    path = reverse("public:registration:register", args=[wjpc.slug, "individual"])
    statuses = []
    for n in range(12):
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(path, form_data(person(f"Ana{n}")))
        statuses.append(response.status_code)
    assert statuses[:8] == [302] * 8
    assert statuses[8:] == [429] * 4
    assert len(mail.outbox) == 8
    assert b"Too many registrations" in response.content


def test_confirmations_to_one_email_address_are_limited(wjpc, settings):
    settings.REGISTRATIONS_PER_HOUR = 20
    path = reverse("public:registration:register", args=[wjpc.slug, "individual"])
    statuses = [Client(REMOTE_ADDR=f"203.0.113.{n}").post(
        path, form_data(person("Ana", born=f"199{n}-04-01"))).status_code for n in range(8)]
    assert 429 in statuses


def test_password_resets_are_limited_per_address(db, django_user_model, settings):
    settings.PASSWORD_RESETS_PER_HOUR = 5
    for n in range(8):
        django_user_model.objects.create_user(f"u{n}", email=f"u{n}@example.org", password="pw-1")
    client = Client(REMOTE_ADDR="203.0.113.9")
    statuses = [client.post("/accounts/password_reset/", {"email": f"u{n}@example.org"})
                .status_code for n in range(8)]
    assert statuses == [302] * 5 + [429] * 3
    assert len(mail.outbox) == 5


def test_password_resets_to_one_email_address_are_limited(db, django_user_model, settings):
    settings.PASSWORD_RESETS_PER_HOUR = 5
    django_user_model.objects.create_user("olga", email="olga@example.org", password="pw-1")
    for n in range(8):
        Client(REMOTE_ADDR=f"203.0.113.{n}").post("/accounts/password_reset/",
                                                  {"email": "olga@example.org"})
    assert len(mail.outbox) == 5


def test_reset_links_use_site_url_not_the_request_host(db, django_user_model, settings):
    settings.SITE_URL = "https://results.example.org"
    settings.ALLOWED_HOSTS = ["*"]
    django_user_model.objects.create_user("olga", email="olga@example.org", password="pw-1")
    Client(HTTP_HOST="attacker.example").post("/accounts/password_reset/",
                                              {"email": "olga@example.org"})
    assert "https://results.example.org/accounts/reset/" in mail.outbox[0].body
    assert "attacker.example" not in mail.outbox[0].body
