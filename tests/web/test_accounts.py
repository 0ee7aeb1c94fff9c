"""Sign-in, sign-out and password reset by email."""

from __future__ import annotations

import re

from django.core import mail


def test_a_forgotten_password_is_reset_through_the_emailed_link(client, django_user_model):
    django_user_model.objects.create_user("olga", email="olga@example.org", password="old-pw-123")
    client.post("/accounts/password_reset/", {"email": "olga@example.org"})
    assert len(mail.outbox) == 1
    link = re.search(r"https?://[^/\s]+(/accounts/reset/\S+)", mail.outbox[0].body).group(1)
    form_url = client.get(link)["Location"]
    response = client.post(form_url, {"new_password1": "new-Pw-98765",
                                      "new_password2": "new-Pw-98765"})
    assert response.status_code == 302
    response = client.post("/accounts/login/", {"username": "olga", "password": "new-Pw-98765"})
    assert response.status_code == 302


def test_signing_out_needs_a_post_and_ends_the_session(client, django_user_model):
    django_user_model.objects.create_user("olga", password="pw-12345678")
    client.post("/accounts/login/", {"username": "olga", "password": "pw-12345678"})
    assert client.get("/control/").status_code == 200
    client.post("/accounts/logout/")
    assert client.get("/control/").status_code == 302


def test_sign_in_is_refused_after_five_failures_for_that_username(client, django_user_model):
    """Issue 6, security: login rate limiting (per username and address, issue 14)."""
    django_user_model.objects.create_user("olga", password="pw-12345678")
    for _ in range(4):
        response = client.post("/accounts/login/", {"username": "olga", "password": "wrong"})
        assert response.status_code == 200
    response = client.post("/accounts/login/", {"username": "olga", "password": "wrong"})
    assert response.status_code == 429
    response = client.post("/accounts/login/", {"username": "olga", "password": "pw-12345678"})
    assert response.status_code == 429
    assert b"Too many failed sign-ins" in response.content
    assert "_auth_user_id" not in client.session


def test_a_success_before_the_limit_signs_in(client, django_user_model):
    django_user_model.objects.create_user("olga", password="pw-12345678")
    for _ in range(4):
        client.post("/accounts/login/", {"username": "olga", "password": "wrong"})
    response = client.post("/accounts/login/", {"username": "olga", "password": "pw-12345678"})
    assert response.status_code == 302
