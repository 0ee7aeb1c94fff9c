"""The organiser's list of registrations at 1280 px (issue 24: it was 41 px too wide, and its
"History" link meant something else than the head judge's History)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from puzzlecomp.championships.demo import DEMO_SLUG, demo_load
from puzzlecomp.championships.models import Championship, Role
from tests.browser.conftest import screenshot
from tests.browser.test_guard_screens import context_for, session_of

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("language", ["en", "nb"])
def test_the_registrations_table_fits_1280_pixels(browser, live_server, language):
    demo_load(individuals=40, pairs=12, teams=4, archive=False)
    championship = Championship.objects.get(slug=DEMO_SLUG)
    session = session_of(championship, Role.ORGANISER)
    context, page = context_for(browser, live_server.url, session, language, 1280)
    try:
        for event in ("individual", "pairs", "teams"):
            page.goto(reverse("control:registrations:event", args=[DEMO_SLUG, event]))
            table = page.locator("table#entries")
            expect(table).to_be_visible()
            assert table.evaluate("t => t.scrollWidth <= t.parentElement.clientWidth"), event
            assert page.evaluate("document.documentElement.scrollWidth") <= 1280
            first = page.locator("table#entries tbody tr").first
            assert first.get_by_role("link", name="History", exact=True).count() == 0
        screenshot(page, f"registrations-teams-{language}")
    finally:
        context.close()
