"""Issue 14, finding 4, and issue 22, finding 5: a record the server fails on (500) never holds
back the phone's outbox, and never waits for the judge: it stays waiting and goes again by
itself until it is stored; only a refusal from the application (4xx) needs the judge."""

from __future__ import annotations

import json
import time

import pytest
from playwright.sync_api import expect

from puzzlecomp.championships.models import Result, Round
from tests.browser.conftest import screenshot
from tests.browser.test_judge_phone import entry, pair, record_finish
from tests.judging.support import seat_round
from tests.support import published_championship

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def running_round() -> Round:
    return seat_round(published_championship("WJPC Outbox Test"), "individual", "first",
                      tables=2)


def stored(rnd: Round, number: int) -> bool:
    return Result.objects.filter(round=rnd, entry__number=number, checked=True).exists()


def test_a_record_the_server_fails_on_goes_again_by_itself_and_never_holds_back_the_others(
        phone_page, running_round):
    page = phone_page
    pair(page, running_round.event.championship)
    failed: list[str] = []

    def answer(route) -> None:
        if json.loads(route.request.post_data)["entry"] == 1 and len(failed) < 5:
            failed.append(route.request.post_data)
            route.fulfill(status=500, content_type="text/html", body="<h1>Server Error</h1>")
        else:
            route.continue_()

    page.route("**/api/v1/device/results", answer)
    record_finish(page, 1)
    record_finish(page, 2)
    record_finish(page, 3)
    # Checked marks come from the server's answers: entries 2 and 3 are stored.
    expect(entry(page, 2)).to_have_attribute("data-checked", "true")
    expect(entry(page, 3)).to_have_attribute("data-checked", "true")
    # Five server errors later entry 1 is stored too, without the judge doing anything.
    expect(entry(page, 1)).to_have_attribute("data-checked", "true", timeout=45_000)
    expect(page.locator("#sync")).to_have_attribute("data-state", "sent")
    assert len(failed) == 5
    assert page.locator("article.notice").count() == 0
    screenshot(page, "judge-server-failed-then-sent")
    page.wait_for_timeout(500)
    assert [stored(running_round, n) for n in (1, 2, 3)] == [True, True, True]


def test_a_refusal_from_the_application_waits_for_the_judge(phone_page, running_round):
    """A 4xx with the application's answer (here a 422) is no outage: it needs the judge."""
    page = phone_page
    pair(page, running_round.event.championship)

    def answer(route) -> None:
        if json.loads(route.request.post_data)["entry"] == 1:
            route.fulfill(status=422, content_type="application/json",
                          body=json.dumps({"detail": "No such table today."}))
        else:
            route.continue_()

    page.route("**/api/v1/device/results", answer)
    record_finish(page, 1)
    record_finish(page, 2)
    notice = page.locator("article.notice.refused").first
    expect(notice).to_contain_text("No such table today.")
    expect(page.locator("#sync")).to_have_attribute("data-state", "attention")
    expect(entry(page, 2)).to_have_attribute("data-checked", "true")
    assert not stored(running_round, 1)


@pytest.fixture
def five_entries() -> Round:
    """WJPC's individual first round, running: entries 1-6 at tables 1-3."""
    return seat_round(published_championship("WJPC Two Failing Test"), "individual", "first",
                      tables=3)


def test_two_records_the_server_fails_on_never_hold_back_the_other_entries(
        phone_page, five_entries):
    """Review finding 1 (values): entries 1 and 2 get 500s (an HTML page, then JSON) on every
    try; entries 3-5 are stored at once, the badge never says the server is away, and 1 and 2
    go again by themselves, each on its own back-off, once the server stores them."""
    page = phone_page
    pair(page, five_entries.event.championship, last_table=3)
    tries: dict[int, int] = {1: 0, 2: 0}
    failing = [True]

    def answer(route) -> None:
        number = json.loads(route.request.post_data)["entry"]
        if number in tries and failing[0]:
            tries[number] += 1
            if number == 1:
                route.fulfill(status=500, content_type="text/html", body="<h1>Server Error</h1>")
            else:
                route.fulfill(status=500, content_type="application/json",
                              body=json.dumps({"detail": "Internal server error"}))
        else:
            route.continue_()

    page.route("**/api/v1/device/results", answer)
    for number in range(1, 6):
        record_finish(page, number)
    # Entries 3-5 are stored while 1 and 2 still fail (the old phone stopped after two 500s).
    expect(page.locator("#sync")).to_have_attribute("data-waiting", "2", timeout=5_000)
    # The last one may still be on its way when the badge counts two.
    deadline = time.monotonic() + 10
    while not stored(five_entries, 5) and time.monotonic() < deadline:
        page.wait_for_timeout(200)
    assert [stored(five_entries, n) for n in range(1, 6)] == [False, False, True, True, True]
    expect(page.locator("#sync")).to_have_attribute("data-state", "waiting")
    page.wait_for_timeout(8_000)
    # Still failing: the two wait (never "refused", never "server not answering") and back off.
    expect(page.locator("#sync")).to_have_attribute("data-state", "waiting")
    assert page.locator("article.notice").count() == 0
    # Backing off: a handful of tries in 8 s (one after each record sent, then 1 s, 2 s, 4 s).
    assert 2 <= tries[1] <= 20, tries
    assert 2 <= tries[2] <= 20, tries
    screenshot(page, "judge-two-failing-entries")
    failing[0] = False
    # Each goes again within its back-off (at most 15 s) without a tap.
    expect(page.locator("#sync")).to_have_attribute("data-state", "sent", timeout=20_000)
    page.wait_for_timeout(500)
    assert [stored(five_entries, n) for n in range(1, 6)] == [True] * 5
