"""The championship page and the home page in a real browser, on a phone (390 px) and a
desktop (1280 px): nothing scrolls sideways; the live part keeps its clocks running and
follows a new result without a reload."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from puzzlecomp.championships.demo import DEMO_SLUG, demo_load
from puzzlecomp.championships.models import Championship, Entry
from puzzlecomp.rules.results import Status
from tests.browser.conftest import screenshot, wait_until
from tests.browser.test_accessibility import serious_violations
from tests.browser.test_live_results import running_round, write
from tests.web.test_public_results import enter

pytestmark = pytest.mark.django_db(transaction=True)

WIDTHS = (390, 1280)
# True when the page is no wider than the window (no sideways scroll).
FITS = "document.documentElement.scrollWidth <= document.documentElement.clientWidth"


@pytest.fixture
def demo() -> Championship:
    """The demo: a live pairs round, an individual round being counted, the teams' round
    published; one entrant with a very long name."""
    demo_load(individuals=24, pairs=8, teams=4)
    championship = Championship.objects.get(slug=DEMO_SLUG)
    Entry.objects.filter(event__championship=championship, event__code="individual",
                         number=2).update(
        name="Anna-Kristina Wolfeschlegelsteinhausenbergerdorff-Vasquez de la Montaña")
    return championship


@pytest.mark.parametrize("width", WIDTHS)
def test_the_championship_page_fits_the_width(browser, live_server, demo, width):
    context = browser.new_context(base_url=live_server.url,
                                  viewport={"width": width, "height": 900})
    page = context.new_page()
    page.goto(reverse("public:championship", args=[demo.slug]))
    expect(page.locator("[data-live-round]").first).to_be_visible()
    expect(page.locator(".country-list li").first).to_be_visible()
    assert page.evaluate(FITS), page.evaluate("document.documentElement.scrollWidth")
    screenshot(page, f"championship-{width}")
    page.goto(reverse("public:entrants", args=[demo.slug]) + "?q=a")
    assert page.evaluate(FITS)
    context.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_the_home_page_fits_the_width(browser, live_server, demo, width):
    context = browser.new_context(base_url=live_server.url,
                                  viewport={"width": width, "height": 900})
    page = context.new_page()
    page.goto(reverse("public:home"))
    expect(page.get_by_role("heading", name="Live now")).to_be_visible()
    assert page.evaluate(FITS)
    screenshot(page, f"home-{width}")
    context.close()


def test_the_streamers_page_fits_a_phone(browser, live_server, demo):
    context = browser.new_context(base_url=live_server.url,
                                  viewport={"width": 390, "height": 900})
    page = context.new_page()
    page.goto(reverse("public:stream", args=[demo.slug]))
    expect(page.locator("button[data-copy]").first).to_be_visible()
    for details in page.locator("details.stream-round").all():
        details.evaluate("(node) => { node.open = true; }")
    assert page.evaluate(FITS)
    context.close()


def test_the_live_part_runs_its_clock_and_follows_a_new_result(live_page):
    rnd = running_round("wjpc-2025", "individual", "first")
    write(rnd, enter(rnd, 1, "Ana Novak", "CZ", table=1), Status.FINISHED, time_seconds=300)
    ben = enter(rnd, 2, "Ben Berg", "NO", table=2)
    live_page.goto(reverse("public:championship", args=[rnd.event.championship.slug]))
    expect(live_page.locator('[data-live-status][data-status="live"]')).to_be_visible()
    clock = live_page.locator(f'[data-live-round="{rnd.pk}"] [data-clock]').first
    shown = clock.text_content()
    wait_until(live_page, f"document.querySelector('[data-live-round=\"{rnd.pk}\"] "
                          f"[data-clock]').textContent !== {shown!r}")
    live_page.evaluate("window.notReloaded = true")
    write(rnd, ben, Status.FINISHED, time_seconds=310)
    latest = live_page.locator(f'[data-live-round="{rnd.pk}"] .places-list').last
    expect(latest.locator("li").first).to_contain_text("Ben Berg")
    assert live_page.evaluate("window.notReloaded === true")


def test_the_search_the_country_list_and_the_entrants_emails_have_no_serious_violation(
        page, demo):
    entry = Entry.objects.filter(event__championship=demo, event__code="teams").first()
    found: list[str] = []
    for url in (reverse("public:entrants", args=[demo.slug]) + "?q=a",
                reverse("public:entrants", args=[demo.slug]) + "?country=ESP",
                reverse("public:disputes:entrant", args=[demo.slug, entry.token])):
        page.goto(url)
        expect(page.locator("main")).to_be_visible()
        found += serious_violations(page)
    assert found == [], "\n".join(found)
