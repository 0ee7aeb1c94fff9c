"""Public results on a phone (issue 16): at 390 px every results page fits the width with no
sideways scroll, each row showing place, flag, name and the figure that decides the place
(final time, pieces counted, or the status), the rest a tap away; at 1280 px the full table.
Checked in English and Czech, with a screenshot of each page."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from puzzlecomp.championships.models import Championship, Entry, Event, Round
from puzzlecomp.rules.results import Status
from tests.browser.conftest import screenshot
from tests.browser.test_live_results import results_url, running_round, wait_until_live, write
from tests.standings_support import played_championship, standings_publish_mid_event
from tests.web.test_public_results import enter

pytestmark = pytest.mark.django_db(transaction=True)
WIDTHS = {"phone": (390, 844), "desktop": (1280, 900)}
NO_SIDEWAYS_SCROLL = "document.scrollingElement.scrollWidth <= window.innerWidth"
LONG_NAME = "Maximilián Alexandr Dvořák-Novotný z Vysokého Mýta"

# What a reader sees of the page's width and of every results row.
LAYOUT = """() => {
  const shown = (el) => Boolean(el) && el.getClientRects().length > 0;
  const inside = (el) => {
    const box = el.getBoundingClientRect();
    return box.left >= -1 && box.right <= window.innerWidth + 1;
  };
  const rows = [...document.querySelectorAll(
    "table.phone-rows tbody tr[data-entry], table.phone-rows tbody tr[data-round]")];
  return {
    pageFits: document.scrollingElement.scrollWidth <= window.innerWidth,
    scrollsSideways: [...document.querySelectorAll("main *")].filter((el) =>
      ["auto", "scroll"].includes(getComputedStyle(el).overflowX)
      && el.scrollWidth > el.clientWidth + 1).map((el) => el.tagName + "." + el.className),
    rows: rows.length,
    // A row with a cell cut by the screen's edge.
    cut: rows.filter((tr) => [...tr.cells].some((td) => shown(td) && !inside(td)))
      .map((tr) => tr.dataset.entry || tr.dataset.round),
    namesShown: rows.filter((tr) => shown(tr.querySelector("td.name, td.round-name"))
      && shown(tr.querySelector("td.rank"))).length,
    figuresShown: rows.filter((tr) => shown(tr.querySelector("td.decides"))).length,
    // Cells shown on the row's line (the folded details left out): fewest and most.
    cells: rows.map((tr) => [...tr.cells].filter((td) => !td.matches(".more") && shown(td)).length)
      .reduce(([low, high], n) => [Math.min(low, n), Math.max(high, n)], [99, 0]),
  };
}"""


@pytest.fixture
def played() -> Championship:
    """The demo's individual event played to its end, with its standings published."""
    championship = played_championship(individuals=40)
    standings_publish_mid_event(Event.objects.get(championship=championship, code="individual"))
    Entry.objects.filter(event__championship=championship, number=3).update(name=LONG_NAME)
    return championship


@pytest.fixture
def official() -> Round:
    """czech-championship.txt: a running round with the official place beside the full one, a
    long name, a penalty, a count, a disqualification and a finish awaiting its check."""
    rnd = running_round("czech-championship", "individual", "qualification")
    write(rnd, enter(rnd, 1, LONG_NAME, "CZ", table=1), Status.FINISHED, time_seconds=2000,
          missing=3)
    write(rnd, enter(rnd, 2, "Hugo Weber", "DE", table=2), Status.FINISHED, time_seconds=1900)
    write(rnd, enter(rnd, 3, "Olga Dvořák", "CZ", table=3), Status.UNFINISHED, action="count",
          pieces=411)
    write(rnd, enter(rnd, 4, "Jan Horvat", "CZ", group="B", table=1), Status.FINISHED,
          action="tap", time_seconds=2500, checked=False)
    write(rnd, enter(rnd, 5, "Eva Kim", "KR", group="B", table=2), Status.DSQ, action="dsq",
          note="phone")
    return rnd


def public_pages(championship: Championship, rnd: Round) -> dict[str, str]:
    """Every public results page: round results (all groups and one), an entrant, the
    standings (overall and a category), the schedule and the list of rounds."""
    slug = championship.slug
    pages = {"index": reverse("public:live:index", args=[slug]),
             "schedule": reverse("public:schedule", args=[slug]),
             "standings": reverse("public:standings:event", args=[slug, "individual"]),
             "standings-junior": reverse("public:standings:event", args=[slug, "individual"])
             + "?category=junior-18",
             "entrant": reverse("public:live:entrant", args=[slug, "individual", 3]),
             "official": results_url(rnd),
             "official-group": results_url(rnd) + "?group=B",
             "official-entrant": reverse("public:live:entrant",
                                         args=[rnd.event.championship.slug, "individual", 1])}
    for played_round in Round.objects.filter(event__championship=championship,
                                             event__code="individual").order_by("position"):
        pages[f"round-{played_round.code}"] = results_url(played_round)
        if len(played_round.groups or []) > 1:
            pages[f"round-{played_round.code}-group"] = (
                results_url(played_round) + f"?group={played_round.groups[0]}")
    return pages


@pytest.mark.parametrize("language", ["en", "cs"])
def test_every_public_results_page_fits_a_phone_and_keeps_the_desktop_table(
        browser, asgi_server, played, official, language):
    pages = public_pages(played, official)
    for width, (w, h) in WIDTHS.items():
        context = browser.new_context(base_url=asgi_server, viewport={"width": w, "height": h},
                                      is_mobile=width == "phone", has_touch=width == "phone")
        context.add_cookies([{"name": "django_language", "value": language, "url": asgi_server}])
        page = context.new_page()
        page.set_default_timeout(15_000)
        try:
            for name, url in pages.items():
                page.goto(url)
                layout = page.evaluate(LAYOUT)
                where = f"{name} at {w} px ({language}): {layout}"
                assert layout["pageFits"], where
                assert layout["scrollsSideways"] == [], where
                assert layout["cut"] == [], where
                assert layout["namesShown"] == layout["rows"], where
                low, high = layout["cells"]
                if width == "phone":
                    assert layout["figuresShown"] == layout["rows"], where
                    assert high <= 5, where
                elif layout["rows"]:
                    # The desktop's whole table: place, number or flag, name, times...
                    assert low >= 8, where
                screenshot(page, f"phone-results-{name}-{language}-{width}")
        finally:
            context.close()


def test_on_a_phone_each_row_shows_the_figure_that_decides_its_place(phone_page, official):
    phone_page.goto(results_url(official))
    wait_until_live(phone_page)
    expect(phone_page.locator('[data-groups] tr[data-entry="2"] td.decides')).to_have_text(
        "31:40")
    counted = phone_page.locator('[data-groups] tr[data-entry="3"] td.decides')
    expect(counted).to_have_text("Pieces 411")
    expect(counted).to_be_visible()
    dsq = phone_page.locator('[data-groups] tr[data-entry="5"] td.decides')
    expect(dsq).to_have_text("DSQ")
    expect(phone_page.locator('[data-groups] tr[data-entry="1"] td.time')).to_be_hidden()
    # Place, official place, flag and name on the row's first line.
    first = phone_page.locator('[data-groups] tr[data-entry="1"]')
    for cell in ("td.rank", "td.official", "td.flag", "td.name", "td.decides"):
        expect(first.locator(cell)).to_be_visible()
    expect(first.locator("td.official")).to_have_text("1")


def test_the_rest_of_a_row_opens_with_a_tap_or_the_keyboard_and_stays_open_live(phone_page,
                                                                              official):
    phone_page.goto(results_url(official))
    wait_until_live(phone_page)
    first = phone_page.locator('[data-groups] tr[data-entry="1"]')
    details = first.locator("td.more dl")
    expect(details).to_be_hidden()
    expect(first.locator("summary")).to_have_text(f"Details of {LONG_NAME}")
    first.locator("summary").tap()
    expect(details).to_be_visible()
    expect(details).to_contain_text("Table1Time33:20Penalty+00:30")
    expect(details).to_contain_text("Next roundFinal national quota ✓ qualified")
    screenshot(phone_page, "phone-results-row-open")

    hugo = phone_page.locator('[data-groups] tr[data-entry="2"]')
    summary = hugo.locator("summary")
    summary.focus()
    phone_page.keyboard.press("Enter")
    expect(hugo.locator("td.more dl")).to_be_visible()
    expect(hugo.locator("td.more dl")).to_contain_text("Group")

    # A live update redraws the rows (results.js) in the phone's layout: opened rows stay open.
    phone_page.evaluate("document.querySelector('[data-groups] tr[data-entry=\"2\"]')"
                        ".dataset.server = 'yes'")
    write(official, enter(official, 6, "Ida Lund", "NO", table=4), Status.FINISHED,
          time_seconds=2200)
    expect(phone_page.locator('[data-groups] tr[data-entry="6"]')).to_be_visible()
    expect(phone_page.locator("tr[data-server]")).to_have_count(0)
    expect(hugo.locator("td.more dl")).to_be_visible()
    expect(details).to_be_visible()
    layout = phone_page.evaluate(LAYOUT)
    assert layout["pageFits"], layout
    assert layout["cut"] == [], layout
    assert layout["figuresShown"] == layout["rows"], layout


def test_without_javascript_a_phone_still_opens_a_row(browser, asgi_server, official):
    context = browser.new_context(base_url=asgi_server, java_script_enabled=False,
                                  viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True)
    try:
        page = context.new_page()
        page.goto(results_url(official))
        row = page.locator('[data-groups] tr[data-entry="3"]')
        expect(row.locator("td.decides")).to_have_text("Pieces 411")
        expect(row.locator("td.more dl")).to_be_hidden()
        row.locator("summary").tap()
        expect(row.locator("td.more dl")).to_contain_text("Pieces per minute4.57")
        # No script, no stars: nothing could keep them.
        expect(page.locator("button.star")).to_have_count(0)
        assert page.evaluate(NO_SIDEWAYS_SCROLL)
    finally:
        context.close()
