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
    assert client.login(username="olga", password="new-Pw-98765")


def test_signing_out_needs_a_post_and_ends_the_session(client, django_user_model):
    django_user_model.objects.create_user("olga", password="pw-12345678")
    client.login(username="olga", password="pw-12345678")
    assert client.get("/control/").status_code == 200
    client.post("/accounts/logout/")
    assert client.get("/control/").status_code == 302
