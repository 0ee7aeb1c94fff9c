"""Following entrants in a real browser (issue 16): a spectator stars entrants, kept in this
browser only; the followed rows are pinned on top of results pages and flash when a live update
shows them finishing or qualifying."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from puzzlecomp.championships.models import Event
from puzzlecomp.rules.results import Status
from tests.browser.conftest import screenshot
from tests.browser.test_live_results import results_url, running_round, wait_until_live, write
from tests.standings_support import played_championship, standings_publish_mid_event
from tests.support import round_of
from tests.web.test_public_results import enter

pytestmark = pytest.mark.django_db(transaction=True)

PINNED = "[data-following]"
FLASHING = re.compile(r"\bfollow-flash\b")
NO_SIDEWAYS_SCROLL = "document.scrollingElement.scrollWidth <= window.innerWidth"


def test_a_starred_entrant_is_pinned_after_a_reload_and_flashes_when_they_finish(live_page):
    rnd = running_round("wjpc-2025", "individual", "first")
    ana = enter(rnd, 1, "Ana Novak", "CZ", table=1)
    ben = enter(rnd, 2, "Ben Berg", "NO", table=2)
    enter(rnd, 3, "Carla Garcia", "ES", group="B", table=1)
    write(rnd, ana, Status.FINISHED, time_seconds=3000)
    write(rnd, ben, Status.UNFINISHED, action="count", pieces=120)
    live_page.goto(results_url(rnd))
    wait_until_live(live_page)
    expect(live_page.locator(PINNED)).to_be_hidden()

    star = live_page.locator("[data-groups]").get_by_role("button", name="Follow Ben Berg")
    expect(star).to_have_attribute("aria-pressed", "false")
    # The keyboard reaches and presses the star like any button.
    star.focus()
    live_page.keyboard.press("Space")
    expect(star).to_have_attribute("aria-pressed", "true")

    live_page.reload()
    wait_until_live(live_page)
    pinned = live_page.locator(f'{PINNED} tr[data-entry="2"]')
    expect(live_page.locator(PINNED)).to_be_visible()
    expect(live_page.locator(f"{PINNED} h3")).to_have_text("Following")
    expect(pinned).to_be_visible()
    expect(pinned.locator("td.name")).to_have_text("Ben Berg")
    # Only the followed entrant is pinned, above the groups' tables.
    expect(live_page.locator(f"{PINNED} tr[data-entry]")).to_have_count(1)
    assert live_page.evaluate(
        "document.querySelector('[data-following]').compareDocumentPosition("
        "document.querySelector('[data-groups]')) & Node.DOCUMENT_POSITION_FOLLOWING")
    pictures(live_page, "following-pinned-en")

    write(rnd, ben, Status.FINISHED, time_seconds=2900)
    expect(pinned).to_have_class(FLASHING)
    expect(pinned.locator("td.final")).to_have_text("48:20")
    expect(live_page.locator('[data-groups] tr[data-entry="2"]')).to_have_class(FLASHING)
    expect(live_page.locator("[data-following-news]")).to_contain_text("Ben Berg finished")
    # A result of an entrant nobody follows flashes as changed, never as followed.
    expect(live_page.locator('[data-groups] tr[data-entry="1"]')).not_to_have_class(FLASHING)
    screenshot(live_page, "following-flash")

    # Unfollowing from the pinned copy empties the block and keeps the keyboard's place.
    live_page.locator(f'{PINNED} button.star[aria-pressed="true"]').focus()
    live_page.keyboard.press("Enter")
    expect(live_page.locator(PINNED)).to_be_hidden()
    assert live_page.evaluate(
        "document.activeElement.matches('[data-groups] tr[data-entry=\"2\"] button.star')")
    assert live_page.evaluate("localStorage.getItem('puzzlecomp.following')") == "[]"


def pictures(page, name: str) -> None:
    """Screenshots at 1280 and 390 px; the phone's page fits its width."""
    screenshot(page, f"{name}-desktop")
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    screenshot(page, f"{name}-phone")
    page.set_viewport_size({"width": 1280, "height": 900})


def test_an_entrant_qualifying_flashes_and_is_announced(live_page):
    """czech-championship.txt: at most 5 foreigners per qualification group go to the final; a
    followed sixth foreigner who finishes faster than the others takes a place and flashes."""
    rnd = running_round("czech-championship", "individual", "qualification")
    for number in range(1, 6):
        write(rnd, enter(rnd, number, f"Anna Weber{number}", "DE", table=number),
              Status.FINISHED, time_seconds=2000 + number * 10)
    hugo = enter(rnd, 6, "Hugo Weber", "DE", table=6)
    write(rnd, hugo, Status.UNFINISHED, action="count", pieces=300)
    live_page.goto(results_url(rnd))
    wait_until_live(live_page)
    row = live_page.locator(f'{PINNED} tr[data-entry="6"]')
    live_page.get_by_role("button", name="Follow Hugo Weber").click()
    expect(row).to_be_visible()
    expect(row).not_to_have_class(re.compile(r"\bqualified\b"))
    write(rnd, hugo, Status.FINISHED, time_seconds=1900)
    expect(row).to_have_class(FLASHING)
    expect(row).to_have_class(re.compile(r"\bqualified\b"))
    expect(live_page.locator("[data-following-news]")).to_have_text(
        "Hugo Weber finished Hugo Weber is in a qualifying place")
    # The foreigner pushed out of the five is no longer marked, and does not flash.
    expect(live_page.locator('[data-groups] tr[data-entry="5"]')).not_to_have_class(
        re.compile(r"\bqualified\b"))


def test_the_entrant_page_has_a_follow_button_in_czech(live_page, asgi_server):
    rnd = running_round("wjpc-2025", "individual", "first")
    write(rnd, enter(rnd, 1, "Ana Novak", "CZ", table=1), Status.FINISHED, time_seconds=3000)
    slug = rnd.event.championship.slug
    live_page.context.add_cookies([{"name": "django_language", "value": "cs", "url": asgi_server}])
    live_page.goto(reverse("public:live:entrant", args=[slug, "individual", 1]))
    button = live_page.get_by_role("button", name="Sledovat")
    expect(button).to_have_attribute("aria-pressed", "false")
    button.click()
    expect(button).to_have_attribute("aria-pressed", "true")
    screenshot(live_page, "following-entrant-cs")
    live_page.goto(results_url(rnd))
    expect(live_page.locator(f"{PINNED} h3")).to_have_text("Sledujete")
    expect(live_page.locator(f'{PINNED} tr[data-entry="1"] td.final')).to_have_text("50:00")
    expect(live_page.locator('[data-groups] button[aria-label="Sledovat: Ana Novak"]')
           ).to_have_attribute("aria-pressed", "true")
    pictures(live_page, "following-pinned-cs")


def test_the_standings_pin_followed_entrants_on_a_phone(browser, live_server):
    championship = played_championship(individuals=30)
    event = Event.objects.get(championship=championship, code="individual")
    standings_publish_mid_event(event)
    context = browser.new_context(base_url=live_server.url, viewport={"width": 390, "height": 844},
                                  is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.goto(reverse("public:standings:event", args=[championship.slug, "individual"]))
        third = page.locator("#standings tbody tr").nth(2)
        number = third.get_attribute("data-entry")
        third.locator("button.star").tap()
        pinned = page.locator(f'{PINNED} tr[data-entry="{number}"]')
        expect(pinned).to_be_visible()
        expect(pinned.locator("td.decides")).to_be_visible()
        assert page.locator("#standings tbody tr").count() == 30
        assert page.evaluate(NO_SIDEWAYS_SCROLL)
        screenshot(page, "following-standings-phone")
        # The same browser follows the entrant on every page: the round results pin them too.
        page.goto(results_url(round_of(championship, "individual", "final")))
        expect(page.locator(f'{PINNED} tr[data-entry="{number}"]')).to_be_visible()
        assert page.evaluate(NO_SIDEWAYS_SCROLL)
    finally:
        context.close()
