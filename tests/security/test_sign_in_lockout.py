"""Issue 14, findings 2 and 3: the sign-in lockout covers /admin/login/ and counts failures per
username and address together, so the account's owner still signs in."""

from __future__ import annotations

import pytest
from django.test import Client

LOGIN = "/accounts/login/"
ADMIN_LOGIN = "/admin/login/"


def sign_in(path: str, username: str, password: str, address: str):
    return Client(REMOTE_ADDR=address).post(path, {"username": username, "password": password})


def signed_in(response) -> bool:
    return response.status_code == 302 and "/login/" not in response["Location"]


@pytest.fixture
def staff(db, django_user_model):
    return django_user_model.objects.create_user("root", password="pw-12345678", is_staff=True,
                                                 is_superuser=True)


def test_a_staff_account_locked_on_the_site_is_locked_on_the_admin_sign_in_too(staff):
    for _ in range(5):
        sign_in(LOGIN, "root", "wrong", "203.0.113.9")
    for _ in range(12):
        assert not signed_in(sign_in(ADMIN_LOGIN, "root", "wrong", "203.0.113.9"))
    response = sign_in(ADMIN_LOGIN, "root", "pw-12345678", "203.0.113.9")
    assert response.status_code == 429
    assert not signed_in(response)


def test_the_admin_sign_in_locks_after_five_failures(staff):
    for _ in range(4):
        assert sign_in(ADMIN_LOGIN, "root", "wrong", "203.0.113.9").status_code == 200
    assert sign_in(ADMIN_LOGIN, "root", "wrong", "203.0.113.9").status_code == 429
    assert sign_in(ADMIN_LOGIN, "root", "pw-12345678", "203.0.113.9").status_code == 429


def test_guesses_from_one_address_do_not_lock_the_owner_out_from_another(db, django_user_model):
    django_user_model.objects.create_user("organiser", password="pw-12345678")
    for _ in range(6):
        sign_in(LOGIN, "Organiser", "wrong", "203.0.113.9")
    assert sign_in(LOGIN, "organiser", "pw-12345678", "203.0.113.9").status_code == 429
    assert signed_in(sign_in(LOGIN, "organiser", "pw-12345678", "198.51.100.7"))


def test_made_up_usernames_do_not_lock_out_a_judge_at_the_same_address(db, django_user_model):
    """In a hall everyone shares one address."""
    django_user_model.objects.create_user("judge", password="pw-12345678")
    for n in range(10):
        sign_in(LOGIN, f"nobody-{n}", "wrong", "203.0.113.9")
    assert signed_in(sign_in(LOGIN, "judge", "pw-12345678", "203.0.113.9"))
