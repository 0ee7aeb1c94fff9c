"""A person signs in, switches language, and signs out, in a real browser."""

from __future__ import annotations

import pytest

from tests.browser.conftest import screenshot

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_organiser_signs_in_and_sees_their_championships(page, django_user_model):
    django_user_model.objects.create_user("olga", password="pw-12345678")
    page.goto("/accounts/login/")
    page.fill("#id_username", "olga")
    page.fill("#id_password", "pw-12345678")
    page.click("main button[type=submit]")
    page.wait_for_url("**/control/")
    assert page.locator("h1").inner_text() == "My championships"
    screenshot(page, "control-home")
