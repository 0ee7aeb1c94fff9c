"""Every clock of a two-group round in Chromium, through every transition (issue 24, item 2):
the streaming overlay of each group, the public results page of group B and the head judge's
floor map of group B stay open while the round moves; each shows what
`rules.round_life.group_clock_at` decides, live: group B waits with its limit while A runs,
a countdown turns to counting at the limit without a reload, "Stop assembling" shows counting
everywhere, and from provisional on every clock shows when the round ended.

wjpc-2025.txt, Group Assignment for First Round (groups), Start of the round, Unfinished
Puzzles (counting at the maximum time).
"""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from puzzlecomp.championships.models import Entry, EntryStatus, Role, Round, RoundState, Seat
from puzzlecomp.championships.services.rounds import group_start, round_move, round_state_set
from puzzlecomp.live.snapshot import snapshot_cache_clear
from tests.browser.conftest import screenshot
from tests.browser.test_round_clock import signed_in_context, watch_errors
from tests.support import published_championship, round_of

pytestmark = pytest.mark.django_db(transaction=True)

LIMIT = dt.timedelta(minutes=90)
TIME = re.compile(r"^\d\d:\d\d$")


@pytest.fixture
def two_groups() -> Round:
    """A WJPC first round of groups A and B sharing table 1, one entrant each."""
    snapshot_cache_clear()
    rnd = round_of(published_championship("Two Groups"))
    rnd.groups = ["A", "B"]
    rnd.save(update_fields=["groups"])
    for number, group in ((1, "A"), (2, "B")):
        entry = Entry.objects.create(event=rnd.event, number=number, name=f"Entrant {number}",
                                     group=group, status=EntryStatus.CONFIRMED)
        Seat.objects.create(round=rnd, entry=entry, group=group, table=1, seat=1)
    return rnd


def test_every_clock_of_each_group_follows_every_transition_live(browser, asgi_server,
                                                                  two_groups):
    rnd = two_groups
    slug = rnd.event.championship.slug
    context = signed_in_context(browser, asgi_server, rnd.event.championship, Role.HEAD_JUDGE)
    pages = {}
    errors: list[str] = []
    for name, path in (
            ("overlay A", f"/c/{slug}/results/{rnd.pk}/overlay/clock/?group=A"),
            ("overlay B", f"/c/{slug}/results/{rnd.pk}/overlay/clock/?group=B"),
            ("results B", f"/c/{slug}/results/{rnd.pk}/?group=B"),
            ("map B", f"/control/{slug}/live/{rnd.pk}/map/?group=B")):
        page = context.new_page()
        page.set_default_timeout(15_000)
        errors += watch_errors(page)
        page.goto(path)
        pages[name] = page

    def face(name: str) -> tuple[str, str]:
        """(what the clock shows, the time on its face) of a page."""
        page = pages[name]
        box = page.locator("[data-clock-box]").first
        value = page.locator("[data-clock-remaining], [data-clock]").first
        return box.get_attribute("data-shows") or "", value.inner_text()

    def expect_face(name: str, shows: str, value: str | re.Pattern[str]) -> None:
        page = pages[name]
        expect(page.locator("[data-clock-box]").first).to_have_attribute("data-shows", shows)
        expect(page.locator("[data-clock-remaining], [data-clock]").first).to_have_text(value)

    # planned: every clock waits with the limit
    for name in pages:
        expect_face(name, "waiting", "1:30:00")
    expect(pages["overlay B"].locator("[data-state]")).to_have_text("Waiting")

    # group A starts 3 s before its limit: A counts down, B waits with its limit (not A's clock)
    group_start(round=rnd, group="A", now=timezone.now() - LIMIT + dt.timedelta(seconds=3))
    expect_face("overlay A", "countdown", re.compile(r"^00:0[0-3]$"))
    for name in ("overlay B", "results B", "map B"):
        expect_face(name, "waiting", "1:30:00")
    screenshot(pages["map B"], "clock-transition-b-waits-while-a-runs")

    # A reaches its limit on the screen, without a notice: counting, then the end time
    expect_face("overlay A", "counting", TIME)
    expect(pages["overlay A"].locator("[data-state]")).to_have_text("Counting")
    expect_face("overlay B", "waiting", "1:30:00")

    # group B starts: B counts down on every screen of B
    group_start(round=rnd, group="B", now=timezone.now())
    for name in ("overlay B", "results B", "map B"):
        expect_face(name, "countdown", re.compile(r"^1:(30:00|29:\d\d)$"))

    # Stop assembling: count: no countdown anywhere, the stop's time instead
    round_move(round=rnd, to=RoundState.COUNTING)
    for name in pages:
        expect_face(name, "counting", TIME)
    screenshot(pages["map B"], "clock-transition-stopped")

    # provisional, published, final: the round's end
    for state in (RoundState.PROVISIONAL, RoundState.PUBLISHED, RoundState.FINAL):
        round_state_set(round=rnd, state=state)
        for name in ("overlay A", "overlay B", "results B"):
            expect_face(name, "ended", TIME)
        assert face("overlay B")[1] == face("results B")[1]
    expect(pages["results B"].locator("[data-clock-label]")).to_have_text("Ended at")
    screenshot(pages["results B"], "clock-transition-final")
    assert errors == []
    context.close()
