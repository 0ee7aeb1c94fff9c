"""live.js in Chromium against the ASGI server: the notice feed, snapshots and the server clock."""

from __future__ import annotations

import datetime as dt
import time

import pytest
from django.utils import timezone

from puzzlecomp.championships.models import Round, RoundState
from puzzlecomp.championships.services.rounds import round_state_set
from puzzlecomp.live import broker, sse
from puzzlecomp.live.snapshot import snapshot_cache_clear
from tests.browser.conftest import wait_until
from tests.live.entries import enter, finish
from tests.support import published_championship, round_of

pytestmark = pytest.mark.django_db(transaction=True)

# The clock the test gives the server: an hour and a bit ahead of this machine's.
OFFSET_MS = 3_600_000 + 1234


@pytest.fixture
def running_round() -> Round:
    snapshot_cache_clear()
    rnd = round_of(published_championship("Feed Test"))
    round_state_set(round=rnd, state=RoundState.RUNNING,
                    starts_at=timezone.now() - dt.timedelta(minutes=5))
    finish(rnd, enter(rnd, 1, "Ana Novak", "CZ", table=1), 3000)
    return rnd


def load_live_js(page) -> None:
    """A same-origin page with live.js imported as `window.live`."""
    page.goto("/live/time")
    page.evaluate("async () => { window.live = await import('/static/puzzlecomp/live.js'); }")


def test_a_page_receives_each_notice_and_fetches_the_new_snapshot(live_page, running_round):
    slug = running_round.event.championship.slug
    load_live_js(live_page)
    live_page.evaluate("""([slug, roundId]) => {
        window.notices = []; window.gaps = 0; window.lines = null;
        const url = live.snapshotUrl(slug, roundId);
        let previous = null;
        const refresh = live.singleFlight(async () => {
            previous = await live.fetchSnapshot(url, previous);
            window.lines = previous.data.lines.map((line) => line.entry);
        });
        window.feed = new live.LiveFeed(slug, {
            onChange(notice) { window.notices.push(notice); refresh(); },
            onGap() { window.gaps += 1; refresh(); },
        });
        window.feed.start();
        return refresh();
    }""", [slug, running_round.pk])
    wait_until(live_page, "window.feed.lastSeq !== null")
    assert live_page.evaluate("window.lines") == [1]

    finish(running_round, enter(running_round, 2, "Ben Berg", "NO", table=2), 2900)

    wait_until(live_page, "window.notices.length === 1")
    notice = live_page.evaluate("window.notices[0]")
    assert (notice["round"], notice["kind"]) == (running_round.pk, "result")
    wait_until(live_page, "JSON.stringify(window.lines) === '[2,1]'")
    assert live_page.evaluate("window.gaps") == 0
    assert live_page.evaluate("window.feed.status") == "live"

    # A number lost in transit: the page is told to refetch rather than trust the notice.
    last = live_page.evaluate("window.feed.lastSeq")
    broker.publish(slug, {"championship": slug, "seq": last + 2, "round": running_round.pk,
                          "kind": "result"})
    wait_until(live_page, "window.gaps === 1")
    assert live_page.evaluate("window.notices.length") == 1
    live_page.evaluate("window.feed.stop()")


def test_the_server_clock_is_measured_within_250_ms_and_runs_on_offline(
        live_page, monkeypatch):
    """The issue: every screen shows the round clock from the server's time, correct within
    250 ms and through network drops."""
    monkeypatch.setattr(sse, "server_time_ms", lambda: time.time() * 1000 + OFFSET_MS)
    load_live_js(live_page)
    offset = live_page.evaluate("""async () => {
        window.clock = new live.ServerClock();
        await window.clock.start();
        return window.clock.offsetMs;
    }""")
    assert abs(offset - OFFSET_MS) < 250
    assert live_page.evaluate("window.clock.synced") is True
    assert abs(live_page.evaluate("window.clock.now()") - (time.time() * 1000 + OFFSET_MS)) < 250

    live_page.context.set_offline(True)
    assert live_page.evaluate("window.clock.sync()") is False
    started = live_page.evaluate("window.clock.now()")
    wait_until(live_page, f"window.clock.now() >= {started + 1000}")
    assert abs(live_page.evaluate("window.clock.offsetMs") - OFFSET_MS) < 250
    assert abs(live_page.evaluate("window.clock.now()") - (time.time() * 1000 + OFFSET_MS)) < 250
    live_page.context.set_offline(False)
    live_page.evaluate("window.clock.stop()")


def test_a_round_clock_counts_down_from_the_servers_start(live_page):
    """wjpc-2025.txt: the individual first round lasts 90 minutes."""
    load_live_js(live_page)
    drawn = live_page.evaluate("""() => {
        const clock = {now: () => Date.parse("2027-07-01T12:30:00.400Z")};
        const json = {state: "running", started_at: "2027-07-01T12:00:00+00:00",
                      limit_seconds: 5400, ends_at: "2027-07-01T13:30:00+00:00",
                      server_now: "2027-07-01T12:00:01+00:00"};
        const at = live.roundClock(json, clock);
        const credited = live.roundClock(json, clock, {creditSeconds: 120});
        const over = live.roundClock(json, {now: () => Date.parse("2027-07-01T13:30:00.001Z")});
        return [live.formatDuration(at.elapsedMs), live.formatDuration(at.remainingMs,
                {roundUp: true}), at.state, live.formatDuration(credited.remainingMs,
                {roundUp: true}), over.state, over.remainingMs,
                live.formatDuration(3723000)];
    }""")
    assert drawn == ["30:00", "1:00:00", "running", "1:02:00", "counting", 0, "1:02:03"]
