"""Public results of a running round in a real browser: live without reloading, the same rows
drawn by the script as by the server, and everything still there with JavaScript off."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.core.cache import cache
from django.urls import reverse
from playwright.sync_api import expect

from puzzlecomp.championships.models import Round, RoundState
from puzzlecomp.championships.services.results import ResultValues, result_submit
from puzzlecomp.championships.services.rounds import round_state_set
from puzzlecomp.live.snapshot import snapshot_cache_clear
from puzzlecomp.rules.results import Status
from tests.browser.conftest import screenshot
from tests.support import published_championship, round_of
from tests.web.test_public_results import enter

pytestmark = pytest.mark.django_db(transaction=True)

# The cells of every results line, as the reader sees them.
ROW_TEXTS = """() => [...document.querySelectorAll("[data-groups] tbody tr[data-entry]")].map(
  (tr) => [tr.dataset.entry, tr.className.replace("changed", "").trim(),
           ...[...tr.cells].map((td) => td.textContent.replace(/\\s+/g, " ").trim())])"""


def running_round(ruleset_id: str, event: str, code: str) -> Round:
    """A published championship whose round started ten minutes ago."""
    snapshot_cache_clear()
    cache.clear()
    championship = published_championship(
        f"Live {ruleset_id}", ruleset_id=ruleset_id, venue="Hall",
        starts_at=dt.datetime.now(dt.UTC) + dt.timedelta(days=30))
    rnd = round_of(championship, event, code)
    round_state_set(round=rnd, state=RoundState.RUNNING,
                    starts_at=dt.datetime.now(dt.UTC) - dt.timedelta(minutes=10))
    return rnd


def write(rnd: Round, entry, status: Status, action: str = "verify", **values) -> None:
    result_submit(round=rnd, entry=entry, action=action,
                  values=ResultValues(status=status, **values))


def results_url(rnd: Round) -> str:
    return reverse("public:live:round", args=[rnd.event.championship.slug, rnd.pk])


def wait_until_live(page) -> None:
    expect(page.locator('[data-live-status][data-status="live"]')).to_be_visible()


def test_the_results_update_without_reloading_the_page(live_page):
    rnd = running_round("wjpc-2025", "individual", "first")
    ana = enter(rnd, 1, "Ana Novak", "CZ", table=1)
    ben = enter(rnd, 2, "Ben Berg", "NO", table=2)
    write(rnd, ana, Status.FINISHED, time_seconds=3000)
    live_page.goto(results_url(rnd))
    wait_until_live(live_page)
    live_page.evaluate("window.notReloaded = true")
    write(rnd, ben, Status.FINISHED, time_seconds=2900)
    ben_row = live_page.locator('tr[data-entry="2"]')
    expect(ben_row).to_be_visible()
    expect(ben_row.locator("td.rank")).to_have_text("1")
    expect(live_page.locator('tr[data-entry="1"] td.rank')).to_have_text("2")
    expect(live_page.locator("[data-groups] tbody tr[data-entry]").first).to_have_attribute(
        "data-entry", "2")
    assert live_page.evaluate("window.notReloaded") is True
    screenshot(live_page, "live-results")


def test_the_clock_runs_in_the_browser(live_page):
    """The round clock counts down from the server's start without any reload."""
    rnd = running_round("wjpc-2025", "individual", "first")
    live_page.goto(results_url(rnd))
    clock = live_page.locator("[data-clock]")
    # Started 10 minutes ago with a 90-minute limit: about 1:20:00 left.
    shown = clock.text_content() or ""
    assert re.fullmatch(r"1:(19:\d\d|20:00)", shown)
    expect(clock).not_to_have_text(shown, timeout=3000)


def test_rows_drawn_by_the_script_read_as_the_servers(browser, asgi_server, live_page):
    """czech-championship.txt: official (Czech residents') place beside the full one, national
    and foreign quotas; a penalty, an unfinished count, a disqualification and a finish
    awaiting its check, drawn once by the server and once by results.js."""
    rnd = running_round("czech-championship", "individual", "qualification")
    petr = enter(rnd, 1, "Petr Novak", "CZ", table=1)
    hugo = enter(rnd, 2, "Hugo Weber", "DE", table=2)
    olga = enter(rnd, 3, "Olga Dvořák", "CZ", table=3)
    jan = enter(rnd, 4, "Jan Horvat", "CZ", group="B", table=1)
    eva = enter(rnd, 5, "Eva Kim", "KR", group="B", table=2)
    write(rnd, petr, Status.FINISHED, time_seconds=2000, missing=3)
    write(rnd, hugo, Status.FINISHED, time_seconds=1900)
    live_page.goto(results_url(rnd))
    wait_until_live(live_page)
    live_page.evaluate("document.querySelector('tr[data-entry=\"1\"]').dataset.server = 'yes'")
    write(rnd, olga, Status.UNFINISHED, action="count", pieces=411)
    write(rnd, jan, Status.FINISHED, action="tap", time_seconds=2500, checked=False)
    write(rnd, eva, Status.DSQ, action="dsq", note="phone")
    expect(live_page.locator('tr[data-entry="5"] td.final')).to_have_text("DSQ")
    drawn = live_page.evaluate(ROW_TEXTS)
    # Every row, unchanged ones too, was drawn again by the script.
    expect(live_page.locator("tr[data-server]")).to_have_count(0)

    context = browser.new_context(java_script_enabled=False, base_url=asgi_server)
    try:
        plain = context.new_page()
        plain.goto(results_url(rnd))
        served = plain.evaluate(ROW_TEXTS)
    finally:
        context.close()
    assert drawn == served
    # Entry, class, place, official place, flag, name, table, time, penalty, final time,
    # pieces, pieces per minute, next round; 10 s per missing piece.
    by_entry = {row[0]: row for row in drawn}
    assert by_entry["2"][1:4] == ["qualified", "1", ""]
    assert by_entry["1"][1:4] == ["qualified", "2", "1"]
    assert by_entry["1"][6:10] == ["1", "33:20", "+00:30", "33:50"]
    assert by_entry["3"][2:4] == ["3", "2"]
    assert by_entry["3"][9:12] == ["", "411", f"{411 / 90:.2f}"]
    # Places nobody can take any more (few entrants, 50 national and 5 foreign places).
    assert by_entry["1"][12] == "Final national quota ✓ qualified"
    assert by_entry["2"][12] == "Final foreign quota ✓ qualified"
    assert by_entry["4"][5] == "Jan Horvat awaiting check"
    assert by_entry["5"][9] == "DSQ"


def test_without_javascript_the_page_still_lists_the_results(browser, asgi_server):
    rnd = running_round("wjpc-2025", "individual", "first")
    write(rnd, enter(rnd, 1, "Ana Novak", "CZ", table=1), Status.FINISHED, time_seconds=3000)
    write(rnd, enter(rnd, 2, "Ben Berg", "NO", table=2), Status.UNFINISHED, action="count",
          pieces=250)
    context = browser.new_context(java_script_enabled=False, base_url=asgi_server)
    try:
        page = context.new_page()
        page.goto(results_url(rnd))
        expect(page.locator('tr[data-entry="1"] td.final')).to_have_text("50:00")
        expect(page.locator('tr[data-entry="2"] td.rank')).to_have_text("2")
        # No script ran: the live indicator the script switches on stays hidden.
        expect(page.locator("[data-live-status]")).to_be_hidden()
        screenshot(page, "live-results-without-javascript")
    finally:
        context.close()
