"""The organiser's list of registrations at 1280 px (issue 24: it was 41 px too wide, and its
"History" link meant something else than the head judge's History)."""

from __future__ import annotations

import datetime as dt

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


@pytest.mark.parametrize("language", ["en", "nb", "cs", "es"])
def test_the_registrations_table_with_the_official_ranking_fits_1280_pixels(
        browser, live_server, language):
    """Issue 24 (review): a Norwegian team list (the official ranking's person-facts column)
    was 1311 px in a 1168 px box, its last link cut."""
    from decimal import Decimal

    from puzzlecomp.championships.models import EntryStatus, Event
    from puzzlecomp.championships.services.setup import championship_create
    from tests.web.test_public_results import enter

    championship = championship_create(ruleset_id="norway-nm-2025", name="NM Test 2027",
                                       country="NO", venue="Oslo",
                                       starts_at=dt.datetime(2027, 3, 6, 8, tzinfo=dt.UTC))
    event = Event.objects.get(championship=championship, code="teams")
    rnd = event.rounds.first()
    entry = enter(rnd, 1, "De Utrolig Utholdende Puslespillentusiastene fra Nord-Trøndelag "
                  "og Omegn", "SE", members=3, status=EntryStatus.UNCONFIRMED)
    entry.fee_amount, entry.fee_currency = Decimal("1051.50"), "NOK"
    entry.contact_email = "ingrid.bjornstad-kristiansen@puslespill.example"
    entry.save()
    session = session_of(championship, Role.ORGANISER)
    context, page = context_for(browser, live_server.url, session, language, 1280)
    try:
        page.goto(reverse("control:registrations:event", args=[championship.slug, "teams"]))
        table = page.locator("table#entries")
        expect(table).to_be_visible()
        width = table.evaluate("t => [t.scrollWidth, t.parentElement.clientWidth]")
        assert width[0] <= width[1], width
        assert page.evaluate("document.documentElement.scrollWidth") <= 1280
        # Every link whole inside the table's box (none cut at its right edge).
        cut = page.evaluate("""() => {
            const right = document.querySelector("table#entries").parentElement
                .getBoundingClientRect().right;
            return [...document.querySelectorAll("table#entries tbody a")]
                .filter((a) => a.getBoundingClientRect().right > right + 1)
                .map((a) => a.textContent); }""")
        assert cut == []
        screenshot(page, f"registrations-nm-teams-{language}")
    finally:
        context.close()
