"""OWASP ASVS 5.0 level 1 on accounts (docs/security.md): password rules, masked password fields,
a new session at sign-in, sessions that end at sign-out and when an account is disabled."""

from __future__ import annotations

import pytest
from django.test import Client

OLD = "pw-12345678"


@pytest.fixture
def olga(db, django_user_model):
    return django_user_model.objects.create_user("olga", password=OLD)


def signed_in(password: str = OLD) -> Client:
    client = Client()
    assert client.post("/accounts/login/", {"username": "olga", "password": password}
                       ).status_code == 302
    return client


@pytest.mark.parametrize(("new", "accepted"), [
    ("short1", False),             # ASVS 6.2.1: at least 8 characters
    ("password123", False),        # 6.2.4: not one of the common passwords
    ("correct horse battery staple", True),  # 6.2.5: any composition, spaces too
    ("ÿ" * 64, True),               # long and non-ASCII passwords are fine
])
def test_a_new_password_needs_eight_characters_and_must_not_be_common(olga, new, accepted):
    client = signed_in()
    response = client.post("/accounts/password_change/", {
        "old_password": OLD, "new_password1": new, "new_password2": new})
    assert (response.status_code == 302) is accepted


def test_changing_the_password_needs_the_current_one(olga):
    """ASVS 6.2.2, 6.2.3."""
    client = signed_in()
    new = "correct horse battery staple"
    response = client.post("/accounts/password_change/", {
        "old_password": "wrong", "new_password1": new, "new_password2": new})
    assert response.status_code == 200
    olga.refresh_from_db()
    assert olga.check_password(OLD)


def test_password_fields_are_masked_and_allow_password_managers(db):
    """ASVS 6.2.6, 6.2.7: type=password, no paste blocking (no inline handlers at all)."""
    page = Client().get("/accounts/login/").content.decode()
    assert 'type="password"' in page
    assert "onpaste" not in page
    assert 'autocomplete="off"' not in page


def test_signing_in_starts_a_new_session(olga):
    """ASVS 7.2.4: the session key before sign-in is not the one after."""
    client = Client()
    client.get("/accounts/login/")
    client.session.save()
    before = client.session.session_key
    client.post("/accounts/login/", {"username": "olga", "password": OLD})
    assert client.session.session_key != before


def test_a_disabled_account_loses_its_sessions(olga):
    """ASVS 7.4.2."""
    client = signed_in()
    assert client.get("/control/").status_code == 200
    olga.is_active = False
    olga.save()
    assert client.get("/control/").status_code == 302
