"""The prize ceremony in a real browser: an organiser finds the standings and awards from the
navigation, publishes them, and a visitor on a phone reads them from the championship page, in
English and in Czech. Each page is kept as a screenshot at 1280 and 390 px."""

from __future__ import annotations

import pytest

from puzzlecomp.championships.models import Event, Membership, Role
from tests.browser.conftest import screenshot
from tests.standings_support import played_championship

pytestmark = pytest.mark.django_db(transaction=True)
WIDTHS = {"desktop": (1280, 900), "phone": (390, 844)}


def context_for(browser, live_server, language: str, width: str, **options):
    w, h = WIDTHS[width]
    return browser.new_context(base_url=live_server.url, viewport={"width": w, "height": h},
                               locale=language, **options)


def no_sideways_scroll(page) -> None:
    """Wide tables scroll inside their box; the page itself never scrolls sideways."""
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_an_organiser_publishes_the_standings_and_a_visitor_reads_them(
        browser, live_server, django_user_model):
    championship = played_championship(individuals=40)
    Event.objects.filter(championship=championship).update(standings_published_at=None)
    user = django_user_model.objects.create_user("olga", password="pw-12345678")
    Membership.objects.create(user=user, championship=championship, role=Role.ORGANISER)
    slug = championship.slug

    context = context_for(browser, live_server, "en", "desktop")
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto("/accounts/login/")
    page.fill("#id_username", "olga")
    page.fill("#id_password", "pw-12345678")
    page.click("main button[type=submit]")
    page.goto(f"/control/{slug}/")
    page.locator("#control-nav").get_by_role("link", name="Standings and awards").click()
    page.wait_for_url(f"**/control/{slug}/standings/individual/")
    assert page.locator("#standings tbody tr").count() == 40
    page.locator("#standings-categories").get_by_role("link", name="Senior B").click()
    page.wait_for_url("**?category=senior-b")
    assert page.locator("#standings th", has_text="Overall").count() == 1
    page.locator("#standings-publishing").get_by_role("link", name="Awards", exact=True).click()
    page.wait_for_url("**/awards/")
    assert page.locator("#awards-overall tbody tr").count() == 10
    # The earlier rounds are published, not final: the guard asks for a knowing tick.
    page.check("#standings-publishing input[name=knowingly]")
    page.click("#standings-publishing button[type=submit]")
    page.wait_for_selector("#standings-publishing button.secondary")
    assert "The standings of Individual are public." in page.inner_text(".messages")
    signed_in = context.storage_state()
    context.close()

    for language in ("en", "cs"):
        for width in WIDTHS:
            visitor = context_for(browser, live_server, language, width).new_page()
            visitor.goto(f"/c/{slug}/")
            visitor.click("a.button[href$='/standings/']")
            visitor.wait_for_url(f"**/c/{slug}/standings/")
            assert visitor.locator("#standings tbody tr").count() == 40
            assert visitor.locator("#awards-overall tbody tr").count() == 10
            no_sideways_scroll(visitor)
            screenshot(visitor, f"standings-public-{language}-{width}")
            visitor.goto(f"/c/{slug}/standings/individual/?category=junior-18")
            screenshot(visitor, f"standings-public-junior-{language}-{width}")
            visitor.context.close()

            organiser = context_for(browser, live_server, language, width,
                                    storage_state=signed_in).new_page()
            for name, path in (("standings", ""), ("senior", "?category=senior-b"),
                               ("awards", "awards/")):
                organiser.goto(f"/control/{slug}/standings/individual/{path}")
                no_sideways_scroll(organiser)
                screenshot(organiser, f"standings-control-{name}-{language}-{width}")
            organiser.context.close()
