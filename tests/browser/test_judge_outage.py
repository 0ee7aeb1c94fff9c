"""Issue 22, finding 5: the server is away for 30 s mid-round (first answering 503, then
refusing connections, as a full disk or a database restart does). The judge goes on recording;
when the server is back every record is stored exactly once, without a tap, and nothing ever
asked the judge to send it again."""

from __future__ import annotations

import time
from collections import Counter

import pytest
from playwright.sync_api import expect

from puzzlecomp.championships.models import Result, ResultChange, Round
from tests.browser.conftest import screenshot
from tests.browser.test_judge_phone import entry, outbox_records, pair, record_finish
from tests.judging.support import seat_round
from tests.support import published_championship

pytestmark = pytest.mark.django_db(transaction=True)

OUTAGE_SECONDS = 30
# The phone's longest wait between two tries (judge-outbox.js, retryDelay: 15 s), and a margin:
# review finding 5 (values), records came ~20 s after the server was back with a 30 s cap.
LONGEST_WAIT_SECONDS = 15 + 3


@pytest.fixture
def running_round() -> Round:
    """WJPC's individual first round, running: entries 1-10 at tables 1-5."""
    return seat_round(published_championship("WJPC Outage Test"), "individual", "first",
                      tables=5)


@pytest.mark.parametrize("language", ["en", "cs"])
def test_every_record_is_stored_after_a_30_second_outage_without_a_tap(
        phone_page, asgi_server, running_round, language):
    page = phone_page
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "url": asgi_server}])
    championship = running_round.event.championship
    pair(page, championship, last_table=5)
    record_finish(page, 1)
    expect(entry(page, 1)).to_have_attribute("data-checked", "true")

    down_until = time.monotonic() + OUTAGE_SECONDS
    tries: list[float] = []

    def server_away(route) -> None:
        tries.append(time.monotonic())
        if time.monotonic() > down_until:
            route.continue_()
        elif down_until - time.monotonic() > OUTAGE_SECONDS / 2:
            route.fulfill(status=503, content_type="text/html", body="<h1>503</h1>")
        else:
            route.abort("connectionrefused")

    page.route("**/api/v1/device/**", server_away)
    made = 0
    for number in range(2, 11):
        record_finish(page, number)
        made += 2
        page.wait_for_timeout(1_500)
    assert time.monotonic() < down_until, "the records are made while the server is away"
    expect(page.locator("#sync")).to_have_attribute("data-state", "retrying")
    screenshot(page, f"judge-outage-waiting-{language}")
    assert page.locator("article.notice").count() == 0
    assert len(outbox_records(page, championship.slug)) == made

    # Nothing is tapped from here on: the phone sends everything once the server is back.
    page.wait_for_timeout(max(0, (down_until - time.monotonic()) * 1000))
    expect(page.locator("#sync")).to_have_attribute("data-state", "sent",
                                                     timeout=LONGEST_WAIT_SECONDS * 1000)
    delays = page.evaluate("""async () => {
        const src = document.querySelector('script[src*="judge.js"]').src;
        const outbox = await import(src.replace("judge.js", "judge-outbox.js"));
        return [1, 2, 3, 4, 5, 6, 20].map(outbox.retryDelay);
    }""")
    assert delays == [1_000, 2_000, 4_000, 8_000, 15_000, 15_000, 15_000]
    screenshot(page, f"judge-outage-after-{language}")
    assert page.locator("article.notice").count() == 0
    assert outbox_records(page, championship.slug) == []
    checked = set(Result.objects.filter(round=running_round, checked=True)
                  .values_list("entry__number", flat=True))
    assert checked == set(range(1, 11))
    sent = Counter(ResultChange.objects.values_list("client_id", flat=True))
    assert len(sent) == 2 + made
    assert set(sent.values()) == {1}
    # Backoff: each new record tries at once (one try: 503 and a refused connection stop a
    # round of sending); in between, 1 s doubling to 15 s, not a try every moment.
    during = [t for t in tries if t <= down_until]
    assert len(during) <= 2 * made + 10, len(during)
