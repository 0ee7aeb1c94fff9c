"""The hall's projectors follow the head judge's scene switch within a second; overlays and the
round's charts redraw from the live notices, without a reload."""

from __future__ import annotations

import time

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from puzzlecomp.championships.models import ProjectorScene
from puzzlecomp.championships.services.projector import projector_scene_set
from puzzlecomp.rules.results import Status
from tests.browser.conftest import screenshot
from tests.browser.test_live_results import running_round, wait_until_live, write
from tests.web.test_public_results import enter

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_projectors_follow_a_scene_switch_within_a_second(browser, asgi_server):
    rnd = running_round("wjpc-2025", "individual", "first")
    write(rnd, enter(rnd, 1, "Ana Novak", "CZ", table=1), Status.FINISHED, time_seconds=3000)
    championship = rnd.event.championship
    projector_scene_set(championship=championship, scene=ProjectorScene.CLOCK, round=rnd)
    address = asgi_server + reverse("public:live:hall", args=[championship.slug])
    contexts = [browser.new_context(viewport={"width": 1920, "height": 1080})
                for _ in range(2)]
    projectors = [context.new_page() for context in contexts]
    for projector in projectors:
        projector.goto(address)
        expect(projector.locator('[data-live-fragment][data-live="live"]')).to_be_attached()
        expect(projector.locator('[data-scene="clock"]')).to_be_visible()

    projector_scene_set(championship=championship, scene=ProjectorScene.PODIUM, round=rnd)
    switched = time.monotonic()
    for projector in projectors:
        expect(projector.locator('[data-scene="podium"]')).to_be_visible(timeout=1000)
    elapsed = time.monotonic() - switched
    print(f"\nhall projectors: switch to both showing it in {elapsed * 1000:.0f} ms")
    assert elapsed < 1.0
    expect(projectors[0].locator(".podium-1")).to_contain_text("Ana Novak")

    projector_scene_set(championship=championship, scene=ProjectorScene.MESSAGE, round=None,
                        message="Lunch until 13:00")
    for projector in projectors:
        expect(projector.locator(".scene-text")).to_have_text("Lunch until 13:00",
                                                                 timeout=1000)
    screenshot(projectors[1], "hall-message")
    for context in contexts:
        context.close()


def test_the_latest_finishes_overlay_and_the_charts_follow_a_new_result(live_page):
    rnd = running_round("wjpc-2025", "individual", "first")
    write(rnd, enter(rnd, 1, "Ana Novak", "CZ", table=1), Status.FINISHED, time_seconds=3000)
    ben = enter(rnd, 2, "Ben Berg", "NO", table=2)
    slug = rnd.event.championship.slug
    live_page.goto(reverse("public:live:round", args=[slug, rnd.pk]))
    wait_until_live(live_page)
    overlay = live_page.context.new_page()
    overlay.goto(reverse("public:live:overlay", args=[slug, rnd.pk, "latest"]))
    expect(overlay.locator('[data-live-fragment][data-live="live"]')).to_be_attached()
    expect(overlay.locator(".overlay-row")).to_have_count(1)

    write(rnd, ben, Status.FINISHED, time_seconds=3100)
    expect(overlay.locator(".overlay-row").first).to_contain_text("Ben Berg")
    expect(live_page.locator("[data-round-charts]")).to_contain_text(
        "2 of 2 entrants have finished.")
    overlay.close()
