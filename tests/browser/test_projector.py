"""The hall's projector in a real browser: a judge's tap shows within 2 s, results page by page
with qualifiers highlighted, the clock counting down."""

from __future__ import annotations

import datetime as dt
import time

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from puzzlecomp.championships.models import ProjectorScene, Role, Round
from puzzlecomp.championships.services.projector import projector_scene_set
from puzzlecomp.championships.services.results import ResultValues, result_submit
from puzzlecomp.live.snapshot import snapshot_cache_clear
from puzzlecomp.rules.results import Status
from tests.browser.conftest import screenshot
from tests.browser.test_guard_screens import session_of
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


PAIRS = ["Anna-Katharina Johansson & Bartholomew Featherstonehaugh",
         "Rosa Garcia & Ben Berg", "Magdalena Nováková-Dvořáková & Søren Kierkegaard-Holm"]


def hall_url(rnd: Round) -> str:
    return reverse("public:live:hall", args=[rnd.event.championship.slug])


@pytest.mark.parametrize("scene", [ProjectorScene.RESULTS, ProjectorScene.QUALIFIERS,
                                   ProjectorScene.PODIUM])
def test_a_pairs_whole_name_shows_on_every_scene(live_page, scene):
    """Issue 24: pair and team names wrap instead of being cut to one surname."""
    rnd = running_round("wjpc-2025", "pairs", "first")
    for number, name in enumerate(PAIRS, start=1):
        entry = enter(rnd, number, name, "NO", table=number, members=2)
        write(rnd, entry, Status.FINISHED, time_seconds=2000 + number * 60)
    projector_scene_set(championship=rnd.event.championship, scene=scene, round=rnd)
    live_page.set_viewport_size({"width": 1920, "height": 1080})
    live_page.goto(hall_url(rnd))
    names = live_page.locator(".scene .name")
    expect(names.first).to_be_visible()
    for n in range(names.count()):
        shown = names.nth(n)
        assert shown.text_content().strip() in PAIRS
        # Nothing hidden: the box holds the whole name (on two lines when it must).
        assert shown.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), shown.text_content()
        assert shown.evaluate("e => getComputedStyle(e).textOverflow") != "ellipsis"
    screenshot(live_page, f"hall-{scene}-pairs")


def test_the_projector_page_wraps_a_pairs_name_and_still_pages(live_page):
    rnd = running_round("wjpc-2025", "pairs", "first")
    for number in range(1, 31):
        entry = enter(rnd, number, PAIRS[number % 3], "NO", table=number, members=2)
        write(rnd, entry, Status.FINISHED, time_seconds=2000 + number * 7)
    live_page.goto(projector_url(rnd, "A"))
    shown = live_page.locator("[data-groups] tbody tr[data-entry]")
    expect(live_page.locator("[data-pager]")).to_contain_text("Page 1 of")
    name = live_page.locator("[data-groups] td.name").first
    assert name.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
    last = shown.nth(shown.count() - 1).bounding_box()
    assert last is not None
    assert last["y"] + last["height"] <= 900


def test_the_head_judge_switches_scene_group_and_message_and_sees_what_the_hall_shows(
        live_page, asgi_server):
    """The control page: the group as well as the round; what the hall shows now; the message
    leaves with its scene."""
    rnd = running_round("wjpc-2025", "individual", "first")
    championship = rnd.event.championship
    enter(rnd, 1, "Ana Novak", "CZ", table=1)
    write(rnd, enter(rnd, 2, "Filip Meyer", "DE", group="B", table=1), Status.FINISHED,
          time_seconds=2500)
    live_page.context.add_cookies([{"name": "sessionid", "url": asgi_server,
                                    "value": session_of(championship, Role.HEAD_JUDGE)}])
    control = reverse("control:live:index", args=[championship.slug])
    live_page.goto(control)
    live_page.select_option("select[name=scene]", "results")
    # Only the chosen round's groups are offered (issue 24 review): the final has none.
    final = Round.objects.filter(event=rnd.event).exclude(pk=rnd.pk).order_by("-position")[0]
    live_page.select_option("select[name=round]", str(final.pk))
    expect(live_page.locator("select[name=group] option")).to_have_count(
        1 + len(final.groups or []))
    live_page.select_option("select[name=round]", str(rnd.pk))
    expect(live_page.locator("select[name=group] option")).to_have_count(1 + len(rnd.groups))
    live_page.select_option("select[name=group]", "B")
    live_page.fill("input[name=message]", "Group C starts at 15:00")
    live_page.click("form.scene-form button[type=submit]")
    now = live_page.locator("[data-projector-now]")
    expect(now.locator('[data-now="scene"]')).to_have_text("Results")
    expect(now.locator('[data-now="group"]')).to_have_text("Group B")
    expect(now.locator('[data-now="message"]')).to_contain_text("Group C starts at 15:00")
    expect(live_page.locator("input[name=message]")).to_have_value("")
    screenshot(live_page, "projector-control")

    hall = live_page.context.new_page()
    hall.set_viewport_size({"width": 1920, "height": 1080})
    hall.goto(hall_url(rnd))
    expect(hall.locator("[data-scene-message]")).to_have_text("Group C starts at 15:00")
    expect(hall.locator('.scene [data-entry]')).to_have_count(1)
    expect(hall.locator("h1")).to_contain_text("Group B")

    live_page.select_option("select[name=scene]", "clock")
    live_page.click("form.scene-form button[type=submit]")
    expect(now.locator('[data-now="message"]')).to_contain_text("none")
    # The hall follows the switch live, and the message has left with its scene.
    expect(hall.locator("div.scene-clock")).to_be_visible(timeout=5000)
    expect(hall.locator("[data-scene-message]")).to_have_count(0)


def test_a_hall_left_open_follows_the_groups_clocks_across_a_groups_end(live_page):
    """Issue 24 (review): group B's time runs out while groups C and D still wait. The open
    hall shows what a fresh load shows (the round waits with its limit, C and D to start),
    never "Counting · Ended at" nor group B "at the tables" (round_life.round_clock_of_groups)."""
    from puzzlecomp.championships.services.rounds import group_start
    from tests.support import published_championship, round_of

    snapshot_cache_clear()
    rnd = round_of(published_championship("Hall Groups"))
    rnd.groups = ["A", "B", "C", "D"]
    rnd.save(update_fields=["groups"])
    for number, group in enumerate(rnd.groups, start=1):
        enter(rnd, number, f"Entrant {number}", "NO", group=group, table=1)
    limit = dt.timedelta(minutes=90)
    group_start(round=rnd, group="A", now=timezone.now() - 3 * limit)
    group_start(round=rnd, group="B", now=timezone.now() - limit + dt.timedelta(seconds=4))
    projector_scene_set(championship=rnd.event.championship, scene=ProjectorScene.CLOCK,
                        round=rnd)
    live_page.set_viewport_size({"width": 1920, "height": 1080})
    live_page.goto(hall_url(rnd))
    box = live_page.locator("[data-clock-box]")
    expect(box).to_have_attribute("data-shows", "countdown")
    expect(live_page.locator("[data-tables=playing]")).to_have_text("Group B is at the tables")
    # B's limit passes with the page open: no notice, no reload.
    expect(box).to_have_attribute("data-shows", "waiting", timeout=10_000)
    expect(live_page.locator("[data-state]")).to_have_text("Waiting")
    expect(live_page.locator("[data-clock-label]")).to_have_text("Time limit")
    expect(live_page.locator("[data-clock]")).to_have_text("1:30:00")
    expect(live_page.locator("[data-tables=playing]:visible")).to_have_count(0)
    expect(live_page.locator("[data-tables=waiting]")).to_have_text("Waiting to start: groups C, D")
    # ... and stays so (the refetched fragment agrees).
    live_page.wait_for_timeout(1500)
    expect(box).to_have_attribute("data-shows", "waiting")
    body = live_page.inner_text("body")
    assert "Ended at" not in body
    assert "Counting" not in body
    screenshot(live_page, "hall-after-group-b")


@pytest.mark.parametrize("size", [(1280, 720), (1024, 768)])
def test_the_hall_scene_fits_a_smaller_projector(live_page, size):
    """Issue 24 (review): a 1280 x 720 or 1024 x 768 projector shows the whole scene: the
    clock, the group line and the message inside the window."""
    rnd = running_round("wjpc-2025", "individual", "first")
    rnd.groups = ["A", "B"]
    rnd.save(update_fields=["groups"])
    projector_scene_set(championship=rnd.event.championship, scene=ProjectorScene.CLOCK,
                        round=rnd, message="Group B starts at 15:00")
    width, height = size
    live_page.set_viewport_size({"width": width, "height": height})
    live_page.goto(hall_url(rnd))
    for selector in ("[data-clock]", ".scene-tables", "[data-scene-message]"):
        shown = live_page.locator(selector).first
        expect(shown).to_be_visible()
        box = shown.bounding_box()
        assert box is not None, selector
        assert box["x"] >= 0, (selector, box)
        assert box["y"] >= 0, (selector, box)
        assert box["x"] + box["width"] <= width + 1, (selector, box)
        assert box["y"] + box["height"] <= height + 1, (selector, box)
    screenshot(live_page, f"hall-clock-{width}x{height}")
