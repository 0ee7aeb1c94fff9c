"""The hall's projector in a real browser: a judge's tap shows within 2 s, results page by page
with qualifiers highlighted, the clock counting down."""

from __future__ import annotations

import time

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from puzzlecomp.championships.models import Round
from puzzlecomp.championships.services.results import ResultValues, result_submit
from puzzlecomp.rules.results import Status
from tests.browser.conftest import screenshot
from tests.browser.test_live_results import running_round, wait_until_live, write
from tests.web.test_public_results import enter

pytestmark = pytest.mark.django_db(transaction=True)


def projector_url(rnd: Round, group: str = "") -> str:
    address = reverse("public:live:projector", args=[rnd.event.championship.slug, rnd.pk])
    return f"{address}?group={group}" if group else address


def test_the_projector_shows_a_judges_tap_within_2_seconds(live_page):
    """The issue: "the projector shows a new result within 2 s of the judge's tap"; the time
    is measured from the write's return (committed, notice numbered) to the row on screen."""
    rnd = running_round("wjpc-2025", "individual", "first")
    ana = enter(rnd, 1, "Ana Novak", "CZ", table=1)
    ben = enter(rnd, 2, "Ben Berg", "NO", table=2)
    write(rnd, ana, Status.FINISHED, time_seconds=3000)
    live_page.goto(projector_url(rnd, "A"))
    wait_until_live(live_page)
    expect(live_page.locator('tr[data-entry="1"]')).to_be_visible()

    result_submit(round=rnd, entry=ben, action="tap", client_id="phone-1-0001",
                  values=ResultValues(status=Status.FINISHED, time_seconds=2900, checked=False))
    written = time.monotonic()
    row = live_page.locator('tr[data-entry="2"]')
    expect(row).to_be_visible(timeout=2000)
    elapsed = time.monotonic() - written
    print(f"\nprojector: tap to row on screen in {elapsed * 1000:.0f} ms")
    assert elapsed < 2.0
    expect(row.locator("td.final")).to_have_text("48:20")
    expect(row.locator(".awaiting")).to_be_visible()
    expect(row.locator("td.rank")).to_have_text("1")
    expect(live_page.locator("[data-latest]")).to_contain_text("Ben Berg")
    screenshot(live_page, "projector")


def test_the_projector_pages_through_the_results_and_highlights_qualifiers(live_page):
    """wjpc-2025.txt: 85 per group go on to the semifinal; the projector shows a page of rows
    that fits the screen, then the next one (every 10 s)."""
    rnd = running_round("wjpc-2025", "individual", "first")
    for number in range(1, 41):
        entry = enter(rnd, number, f"Rosa Garcia{number}", "ES", table=number)
        write(rnd, entry, Status.FINISHED, time_seconds=2000 + number * 7)
    live_page.goto(projector_url(rnd, "A"))
    pager = live_page.locator("[data-pager]")
    expect(pager).to_contain_text("Page 1 of")
    shown = live_page.locator("[data-groups] tbody tr[data-entry]")
    rows = shown.count()
    assert 3 <= rows < 40
    # Every shown row is inside the screen: paging, not scrolling.
    last = shown.nth(rows - 1).bounding_box()
    assert last is not None
    assert last["y"] + last["height"] <= 900
    expect(shown.first).to_have_class("qualified")
    expect(shown.first).to_have_attribute("data-entry", "1")
    expect(pager).to_contain_text("Page 2 of", timeout=12_000)
    expect(shown.first).to_have_attribute("data-entry", str(rows + 1))
    screenshot(live_page, "projector-page-2")


def test_the_projector_clock_counts_down(live_page):
    rnd = running_round("wjpc-2025", "individual", "first")
    live_page.goto(projector_url(rnd))
    clock = live_page.locator("[data-clock]")
    shown = clock.text_content() or ""
    assert shown.startswith(("1:19:", "1:20:"))
    expect(clock).not_to_have_text(shown, timeout=3000)
    expect(live_page.locator("[data-state]")).to_have_text("Running")
