"""A dispute from filing to the corrected result, in Chromium: the competitor files it through
their private link, it appears in the head judge's queue without a reload, the head judge
upholds it with a correction, and the competitor's page shows the corrected result."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail
from django.utils import timezone
from playwright.sync_api import expect

from puzzlecomp.championships.models import (
    Dispute,
    DisputeStatus,
    Entry,
    EntryMember,
    EntryStatus,
    Person,
    Result,
    Role,
    Round,
    RoundState,
    Seat,
)
from puzzlecomp.championships.services.results import ResultValues, result_submit
from puzzlecomp.championships.services.rounds import round_state_set
from puzzlecomp.live.snapshot import snapshot_cache_clear
from puzzlecomp.rules.results import Status
from tests.browser.conftest import screenshot
from tests.browser.test_round_clock import signed_in_context, watch_errors
from tests.support import published_championship, round_of

pytestmark = pytest.mark.django_db(transaction=True)


def competitor(rnd: Round, number: int, name: str, table: int, seconds: int) -> Entry:
    entry = Entry.objects.create(event=rnd.event, number=number, name=name, group="A",
                                 status=EntryStatus.CONFIRMED,
                                 contact_email=f"entry{number}@example.org")
    person = Person.objects.create(first_name=name.split()[0], last_name=name.split()[1],
                                   nationality="CZ")
    EntryMember.objects.create(entry=entry, person=person)
    Seat.objects.create(round=rnd, entry=entry, group="A", table=table)
    result_submit(round=rnd, entry=entry, action="tap",
                  values=ResultValues(status=Status.FINISHED, time_seconds=seconds))
    return entry


@pytest.fixture
def published_round() -> Round:
    """Group A's results, published an hour ago (the WJPC window is still open)."""
    snapshot_cache_clear()
    rnd = round_of(published_championship(
        "Dispute Test", starts_at=timezone.now() - dt.timedelta(hours=3)))
    round_state_set(round=rnd, state=RoundState.COUNTING,
                    starts_at=timezone.now() - dt.timedelta(hours=3))
    competitor(rnd, 1, "Ana Novak", 1, 2950)
    competitor(rnd, 2, "Ben Berg", 2, 3100)
    round_state_set(round=rnd, state=RoundState.PUBLISHED)
    rnd.published_at = timezone.now() - dt.timedelta(hours=1)
    rnd.save(update_fields=["published_at"])
    return rnd


def test_a_competitor_files_a_dispute_and_the_head_judge_upholds_it(
        browser, asgi_server, live_page, published_round):
    """wjpc-2025.txt, Disputes and Reviews: a participant disputes their recorded time within 4
    hours of the results being posted; the head judge reviews it and the ranking follows."""
    championship = published_round.event.championship
    ben = Entry.objects.get(event=published_round.event, number=2)

    head = signed_in_context(browser, asgi_server, championship, Role.HEAD_JUDGE)
    queue = head.new_page()
    queue.set_default_timeout(15_000)
    errors = watch_errors(queue)
    queue.goto(f"/control/{championship.slug}/live/{published_round.pk}/map/")
    expect(queue.locator("[data-panel=disputes]")).to_contain_text("No dispute is open.")
    expect(queue.locator("[data-live-status]")).to_have_text("Live: updates as they happen.")

    page = live_page
    page.goto(f"/c/{championship.slug}/disputes/{ben.token}/")
    expect(page.locator(".final-time")).to_have_text("0:51:40")
    expect(page.locator(".place")).to_have_text("2")
    expect(page.locator("main")).to_contain_text("You may dispute this result until")
    page.fill("textarea[name=text]", "I called TIME at 49:00; the judge wrote 51:40.")
    page.click("text=File the dispute")
    expect(page.locator(".messages")).to_contain_text("is filed")
    dispute = Dispute.objects.get(entry=ben)
    screenshot(page, "dispute-filed")

    # The queue shows it without a reload (live notice, then the panel's data).
    item = queue.locator(f'[data-dispute="{dispute.pk}"]')
    expect(item).to_contain_text("I called TIME at 49:00")
    item.locator("details.resolve > summary").click()
    prefix = f"#id_dispute-{dispute.pk}"
    item.locator(f"{prefix}-decision_2").check()  # uphold and correct
    item.locator(f"{prefix}-resolution").fill("The video confirms 49:00.")
    item.locator(f"{prefix}-time").fill("49:00")
    screenshot(queue, "dispute-resolving")
    item.locator("text=Resolve the dispute").click()
    expect(queue.locator(".messages")).to_contain_text(f"Dispute #{dispute.pk} is resolved")
    expect(queue.locator("[data-panel=disputes]")).to_contain_text("No dispute is open.")

    dispute.refresh_from_db()
    assert dispute.status == DisputeStatus.UPHELD
    assert Result.objects.get(round=published_round, entry=ben).time_seconds == 49 * 60
    assert any("Your dispute was upheld." in m.body for m in mail.outbox)

    page.reload()
    expect(page.locator(".final-time")).to_have_text("0:49:00")
    expect(page.locator(".place")).to_have_text("1")
    expect(page.locator(".resolution")).to_contain_text("The video confirms 49:00.")
    screenshot(page, "dispute-upheld")
    assert errors == []
    head.close()
