"""Registration with the keyboard alone: Tab from field to field, type, space to tick, Enter to
send; no mouse and no pointer."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail
from django.utils import timezone

from puzzlecomp.championships.models import Entry
from tests.browser.conftest import screenshot
from tests.support import published_championship

pytestmark = pytest.mark.django_db(transaction=True)


def tab_to(page, selector: str, presses: int = 80) -> None:
    """Press Tab until the element matching `selector` has the focus."""
    for _ in range(presses):
        if page.evaluate("(s) => document.activeElement?.matches(s) ?? false", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def test_an_entrant_registers_with_the_keyboard_alone(page, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    # WJPC registration closes 5 days before the start: 10 days ahead is open (as in the
    # organiser's flow).
    start = timezone.localtime() + dt.timedelta(days=10)
    ruleset = "wjpc-2025" if start.year == timezone.localtime().year else "czech-championship"
    championship = published_championship("Keyboard Open", ruleset_id=ruleset, starts_at=start)
    page.goto(f"/c/{championship.slug}/register/individual/")
    # The date field takes digits in the browser's order (en-US: month, day, year).
    for field, text in (("first_name", "Jiří"), ("last_name", "Černý"),
                        ("email", "jiri@example.org"), ("birth_date", "04021990")):
        tab_to(page, f"#id_m0-{field}")
        page.keyboard.type(text)
    for field in ("nationality", "residence"):
        tab_to(page, f"#id_m0-{field}")
        page.keyboard.type("Czechia")
    tab_to(page, "#id_m0-consent_publish")
    page.keyboard.press("Space")
    screenshot(page, "register-keyboard")
    tab_to(page, "main form button[type=submit]")
    page.keyboard.press("Enter")
    page.wait_for_url("**/register/sent/")
    entry = Entry.objects.get(event__championship=championship)
    member = entry.members.get().person
    assert (member.first_name, member.last_name, str(member.nationality)) == (
        "Jiří", "Černý", "CZ")
    assert member.birth_date == dt.date(1990, 4, 2)
    assert member.consent_publish
    assert len(mail.outbox) == 1
