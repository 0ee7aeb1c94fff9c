"""The head judge's live screens in Chromium: starting a round, the page's clock drawn from the
server's time (even when the browser's own clock is wrong) and running on with the network
gone, and the floor map recoloured as results arrive."""

from __future__ import annotations

import datetime as dt
import re
import time

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone
from playwright.sync_api import expect

from puzzlecomp.championships.models import (
    Entry,
    EntryStatus,
    Membership,
    Role,
    Round,
    RoundState,
    Seat,
)
from puzzlecomp.championships.services.results import ResultValues, result_submit
from puzzlecomp.championships.services.rounds import round_state_set
from puzzlecomp.live.snapshot import snapshot_cache_clear
from puzzlecomp.rules.results import Status
from tests.browser.conftest import screenshot, wait_until
from tests.support import published_championship, round_of

pytestmark = pytest.mark.django_db(transaction=True)

# The browser's own clock is this far off: the page must not trust it.
BROWSER_SKEW_MS = -(47 * 60 * 1000 + 3210)
TOLERANCE_MS = 250


@pytest.fixture
def planned_round() -> Round:
    snapshot_cache_clear()
    return round_of(published_championship("Clock Test"))


@pytest.fixture
def ready_round(planned_round) -> Round:
    """The planned round with two entrants in group A at table 1: ready to start."""
    for number in (1, 2):
        seated_entry(planned_round, number, table=1, seat=number)
    return planned_round


def watch_errors(page) -> list[str]:
    """Collect the page's script errors (a test ends by asserting there were none)."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


def signed_in_context(browser, base_url: str, championship, role: Role, **options):
    """A browser context whose session belongs to a user with `role` in the championship."""
    user = get_user_model().objects.create_user(f"{role.name.lower()}-{championship.slug}",
                                                password="pw-12345678")
    Membership.objects.create(user=user, championship=championship, role=role)
    client = Client()
    client.force_login(user)
    context = browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 900},
                                  **options)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                          "url": base_url}])
    return context


def page_vs_server_ms(page, rnd: Round) -> float:
    """How far the page's elapsed time is from the server's, measured around one read."""
    before = time.time()
    shown = page.evaluate("window.headjudge.elapsedMs()")
    after = time.time()
    server = ((before + after) / 2 - rnd.starts_at.timestamp()) * 1000
    return abs(shown - server)


def test_the_head_judge_starts_the_round_and_the_clock_runs_from_the_servers_time(
        browser, asgi_server, ready_round):
    """wjpc-2025.txt, Start of the round: the main judge signals the start and the stopwatch
    starts; every screen shows the same clock, to within 250 ms of the server's."""
    championship = ready_round.event.championship
    context = signed_in_context(browser, asgi_server, championship, Role.HEAD_JUDGE)
    # A browser whose clock is 47 minutes slow: only the server's time may count.
    context.add_init_script(f"""(() => {{
        const realNow = Date.now.bind(Date);
        Date.now = () => realNow() + ({BROWSER_SKEW_MS});
    }})();""")
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors = watch_errors(page)
    page.goto(f"/control/{championship.slug}/live/{ready_round.pk}/")
    expect(page.locator("[data-clock-remaining]")).to_have_text("1:30:00")

    page.click("text=Start the round")
    expect(page.locator("h3")).to_have_text("Start the round?")
    page.click("button.move-confirm")
    expect(page.locator("[data-round-state]")).to_have_text("Running")
    ready_round.refresh_from_db()
    assert ready_round.state == RoundState.RUNNING
    assert abs(ready_round.starts_at - timezone.now()) < dt.timedelta(seconds=10)

    wait_until(page, "window.headjudge && window.headjudge.serverClock.synced")
    expect(page.locator("[data-live-status]")).to_have_text("Live: updates as they happen.")
    offset = page.evaluate("window.headjudge.serverClock.offsetMs")
    assert abs(offset + BROWSER_SKEW_MS) < TOLERANCE_MS  # it measured the browser's skew
    for _ in range(3):
        assert page_vs_server_ms(page, ready_round) < TOLERANCE_MS
        page.wait_for_timeout(300)
    elapsed = page.locator("[data-clock-elapsed]")
    first = elapsed.inner_text()
    expect(elapsed).not_to_have_text(first)  # it ticks
    assert page.locator("[data-clock-remaining]").inner_text().startswith("1:29:")
    screenshot(page, "head-judge-round-running")

    # The network drops: the clock runs on from the last measured offset.
    context.set_offline(True)
    expect(page.locator("[data-live-status]")).to_contain_text("Offline")
    shown = elapsed.inner_text()
    expect(elapsed).not_to_have_text(shown)
    assert page_vs_server_ms(page, ready_round) < TOLERANCE_MS
    screenshot(page, "head-judge-round-offline")
    context.set_offline(False)
    expect(page.locator("[data-live-status]")).to_have_text("Live: updates as they happen.")
    assert page_vs_server_ms(page, ready_round) < TOLERANCE_MS
    assert errors == []
    context.close()


def test_a_judge_sees_the_clock_but_no_start_button(browser, asgi_server, ready_round):
    championship = ready_round.event.championship
    context = signed_in_context(browser, asgi_server, championship, Role.JUDGE)
    page = context.new_page()
    page.goto(f"/control/{championship.slug}/live/{ready_round.pk}/")
    expect(page.locator("[data-clock-remaining]")).to_have_text("1:30:00")
    expect(page.locator("text=Start the round")).to_have_count(0)
    context.close()


def test_the_floor_map_recolours_a_table_when_a_finish_arrives(browser, asgi_server,
                                                                planned_round):
    """wjpc-2025.txt, Recording Time: a finish goes to the head judge's desk to be verified;
    the map shows it at once, and the head judge verifies it from the queue."""
    championship = planned_round.event.championship
    round_state_set(round=planned_round, state=RoundState.RUNNING,
                    starts_at=timezone.now() - dt.timedelta(minutes=30))
    ana, ben = (seated_entry(planned_round, number, table=1, seat=number)
                for number in (1, 2))
    context = signed_in_context(browser, asgi_server, championship, Role.HEAD_JUDGE)
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors = watch_errors(page)
    page.goto(f"/control/{championship.slug}/live/{planned_round.pk}/map/?group=A")
    seat = page.locator(f'rect.seat[data-entry="{ana.number}"]')
    expect(seat).to_have_class("seat state-assembling")
    expect(page.locator("[data-live-status]")).to_have_text("Live: updates as they happen.")

    result_submit(round=planned_round, entry=ana, action="tap",
                  values=ResultValues(status=Status.FINISHED, time_seconds=1790,
                                      checked=False))
    expect(seat).to_have_class(re.compile(r"\bstate-awaiting_check\b"))
    expect(page.locator('[data-count="awaiting_check"]')).to_have_text("1")
    expect(page.locator(f'[data-queue-entry="{ana.number}"]')).to_contain_text("29:50")
    expect(page.locator(f'rect.seat[data-entry="{ben.number}"]')).to_have_class(
        "seat state-assembling")
    screenshot(page, "head-judge-floor-map")

    page.locator(f'[data-queue-entry="{ana.number}"] button').click()
    expect(page.locator(".messages")).to_contain_text("is verified")
    expect(seat).to_have_class(re.compile(r"\bstate-verified\b"))
    assert errors == []
    context.close()


def seated_entry(rnd: Round, number: int, *, table: int, seat: int) -> Entry:
    entry = Entry.objects.create(event=rnd.event, number=number, name=f"Entrant {number}",
                                 group="A", status=EntryStatus.CONFIRMED)
    Seat.objects.create(round=rnd, entry=entry, group="A", table=table, seat=seat)
    return entry
