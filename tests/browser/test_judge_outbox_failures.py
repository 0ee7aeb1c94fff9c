"""Issue 14, finding 4: a record the server fails on (500) or refuses for good never holds back
the phone's outbox; the judge sees it as needing attention and the rest is sent."""

from __future__ import annotations

import json

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


def test_a_record_the_server_fails_on_never_holds_back_the_others(phone_page,
                                                                   running_round):
    page = phone_page
    pair(page, running_round.event.championship)
    failed: list[str] = []

    def answer(route) -> None:
        if json.loads(route.request.post_data)["entry"] == 1:
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
    # After a few tries the failing record waits for the judge instead of being sent forever.
    notice = page.locator("article.notice.refused")
    expect(notice).to_be_visible(timeout=30_000)
    expect(notice).to_contain_text("error 500")
    expect(page.locator("#sync")).to_have_attribute("data-state", "attention")
    screenshot(page, "judge-server-failed")
    tries = len(failed)
    page.wait_for_timeout(5_000)
    assert len(failed) == tries, "a record waiting for the judge is not sent again by itself"
    page.unroute("**/api/v1/device/results")
    notice.locator('button[data-resolve="retry"]').tap()
    expect(entry(page, 1)).to_have_attribute("data-checked", "true")
    expect(page.locator("#sync")).to_have_attribute("data-state", "sent")
    page.wait_for_timeout(500)
    assert [stored(running_round, n) for n in (1, 2, 3)] == [True, True, True]
