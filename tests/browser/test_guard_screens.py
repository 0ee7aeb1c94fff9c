"""The guards' pages in Chromium, at 1280 and 390 px, in English and Czech: drawing groups and
seating again (confirm, then undo), the entrant's page after filing a dispute, and a running
round's public results with clinched and expected qualification marks. None scrolls sideways."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone
from playwright.sync_api import expect

from puzzlecomp.championships.models import (
    Championship,
    Entry,
    Membership,
    Role,
    Round,
    RoundState,
    Seat,
)
from puzzlecomp.championships.services.disputes import dispute_file, dispute_resolve
from puzzlecomp.championships.services.groups import groups_assign
from puzzlecomp.championships.services.results import ResultValues, result_submit
from puzzlecomp.championships.services.rounds import round_state_set
from puzzlecomp.championships.services.seating import seating_assign, seats_swap
from puzzlecomp.live.snapshot import snapshot_cache_clear
from puzzlecomp.rules.results import Status
from tests.browser.conftest import screenshot
from tests.support import published_championship, round_of
from tests.web.test_groups import add_entries

pytestmark = pytest.mark.django_db(transaction=True)

VIEWS = [(lang, width) for lang in ("en", "cs") for width in (1280, 390)]


def session_of(championship: Championship, role: Role | None) -> str:
    """The session cookie of a new user with `role` in the championship ("" for nobody)."""
    if role is None:
        return ""
    user = get_user_model().objects.create_user(f"{role.name.lower()}-{championship.slug}",
                                                password="pw-12345678")
    Membership.objects.create(user=user, championship=championship, role=role)
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def context_for(browser, base_url: str, session: str, lang: str, width: int):
    """A browser context in `lang` at `width` px, signed in with `session` when given."""
    context = browser.new_context(base_url=base_url,
                                  viewport={"width": width, "height": 900},
                                  extra_http_headers={"Accept-Language": lang})
    if session:
        context.add_cookies([{"name": "sessionid", "value": session, "url": base_url}])
    page = context.new_page()
    page.set_default_timeout(15_000)
    return context, page


def no_sideways_scroll(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def finish(rnd: Round, entry: Entry, seconds: int) -> None:
    result_submit(round=rnd, entry=entry, action="tap",
                  values=ResultValues(status=Status.FINISHED, time_seconds=seconds))


@pytest.fixture
def drawn() -> Round:
    """A WJPC first round with 36 entries drawn into groups (seed 5) and seated."""
    rnd = round_of(published_championship("Guard Screens"))
    add_entries(rnd.event, {"ES": 18, "CZ": 9, "NO": 9})
    groups_assign(round=rnd, seed=5)
    seating_assign(round=rnd)
    return rnd


def test_drawing_groups_and_seating_again_is_confirmed_then_undone(browser, live_server,
                                                                    drawn):
    championship = drawn.event.championship
    base = f"/control/{championship.slug}/planning/{drawn.pk}"
    group_a = list(Seat.objects.filter(round=drawn, group="A").order_by("table", "seat"))
    seats_swap(round=drawn, entry_a=group_a[0].entry, entry_b=group_a[2].entry, user=None)
    session = session_of(championship, Role.ORGANISER)
    for lang, width in VIEWS:
        context, page = context_for(browser, live_server.url, session, lang, width)
        page.goto(f"{base}/groups/")
        page.fill("input[name=seed]", "6")
        page.locator("form[action$='/groups/assign/'] button").click()
        expect(page.locator("#confirm-regenerate")).to_be_visible()
        no_sideways_scroll(page)
        screenshot(page, f"w13g-groups-confirm-{lang}-{width}")
        page.locator("#confirm-regenerate button").click()
        expect(page.locator("#groups-undo")).to_be_visible()
        no_sideways_scroll(page)
        screenshot(page, f"w13g-groups-undo-{lang}-{width}")
        page.locator("#groups-undo button").click()
        expect(page.locator(".messages")).to_contain_text(
            "Draw undone" if lang == "en" else "Losování vráceno")

        page.goto(f"{base}/seating/?group=A")
        page.locator("form[action$='/seating/assign/'] button").click()
        expect(page.locator("#confirm-regenerate")).to_contain_text(
            "2" if lang == "en" else "2 z")
        no_sideways_scroll(page)
        screenshot(page, f"w13g-seating-confirm-{lang}-{width}")
        page.locator("#confirm-regenerate button").click()
        expect(page.locator("#seating-undo")).to_be_visible()
        no_sideways_scroll(page)
        screenshot(page, f"w13g-seating-undo-{lang}-{width}")
        page.locator("#seating-undo button").click()
        expect(page.locator(".messages")).to_contain_text(
            "Seating undone" if lang == "en" else "Rozsazení vráceno")
        context.close()


@pytest.fixture
def disputed() -> tuple[Round, Entry, Entry]:
    """A published round: entry 1 has an open dispute, entry 2 a rejected one."""
    snapshot_cache_clear()
    rnd = round_of(published_championship(
        "Dispute Screens", starts_at=timezone.now() - dt.timedelta(hours=3)))
    round_state_set(round=rnd, state=RoundState.COUNTING,
                    starts_at=timezone.now() - dt.timedelta(hours=3))
    add_entries(rnd.event, {"CZ": 2})
    entries = list(Entry.objects.filter(event=rnd.event).order_by("number"))
    for table, entry in enumerate(entries, start=1):
        entry.group = "A"
        entry.save(update_fields=["group"])
        Seat.objects.create(round=rnd, entry=entry, group="A", table=table)
        finish(rnd, entry, 2900 + 100 * table)
    round_state_set(round=rnd, state=RoundState.PUBLISHED)
    open_one, answered = entries
    dispute_file(entry=open_one, round=rnd,
                 text="I called TIME at 47:30; the judge wrote 49:20. Please check the sheet.")
    rejected = dispute_file(entry=answered, round=rnd, text="Two pieces were not missing.")
    dispute_resolve(dispute=rejected, uphold=False,
                    resolution="The judge's photo shows both gaps; the penalty stands.")
    return rnd, open_one, answered


def test_the_entrants_page_shows_the_filed_dispute_instead_of_the_form(browser, live_server,
                                                                       disputed):
    rnd, open_one, answered = disputed
    championship = rnd.event.championship
    for lang, width in VIEWS:
        context, page = context_for(browser, live_server.url, "", lang, width)
        for entry, name in ((open_one, "open"), (answered, "answered")):
            page.goto(f"/c/{championship.slug}/disputes/{entry.token}/")
            expect(page.locator(".dispute")).to_be_visible()
            assert page.locator("textarea[name=text]").count() == 0
            no_sideways_scroll(page)
            screenshot(page, f"w13g-dispute-{name}-{lang}-{width}")
        context.close()


@pytest.fixture
def czech_running() -> Round:
    """The Czech qualification, group A running: 6 of 8 foreigners and every Czech finished."""
    snapshot_cache_clear()
    championship = published_championship("Mistrovství ČR", ruleset_id="czech-championship")
    Championship.objects.filter(pk=championship.pk).update(floor_rows=[10, 10, 10])
    rnd = round_of(championship, code="qualification")
    add_entries(rnd.event, {"CZ": 10, "SK": 16})
    groups_assign(round=rnd, seed=2)
    seating_assign(round=rnd)
    round_state_set(round=rnd, state=RoundState.RUNNING,
                    starts_at=timezone.now() - dt.timedelta(minutes=80))
    group_a = [s.entry for s in Seat.objects.filter(round=rnd, group="A")
               .select_related("entry").order_by("entry__number")]
    slovaks = [e for e in group_a if e.country == "SVK"]
    for place, entry in enumerate(slovaks[:6]):
        finish(rnd, entry, 2000 + 60 * place)
    for entry in group_a:
        if entry.country == "CZE":
            finish(rnd, entry, 3000 + entry.number)
    return rnd


def test_a_running_rounds_results_mark_clinched_and_expected_places(browser, live_server,
                                                                    czech_running):
    rnd = czech_running
    championship = rnd.event.championship
    for lang, width in VIEWS:
        context, page = context_for(browser, live_server.url, "", lang, width)
        page.goto(f"/c/{championship.slug}/results/{rnd.pk}/")
        if width > 700:
            expect(page.locator("td.next .clinched").first).to_be_visible()
            expect(page.locator("td.next .expected").first).to_be_visible()
        else:  # folded: the mark is with the rest of the row, a tap away
            expect(page.locator("td.more .clinched").first).to_be_attached()
            expect(page.locator("td.more .expected").first).to_be_attached()
        no_sideways_scroll(page)
        screenshot(page, f"w13g-results-clinched-{lang}-{width}")
        context.close()
    context, page = context_for(browser, live_server.url,
                                session_of(championship, Role.ORGANISER), "en", 1280)
    page.goto(f"/control/{championship.slug}/rounds/{rnd.pk}/qualifiers/")
    expect(page.locator("#standing-lines")).to_be_visible()
    screenshot(page, "w13g-qualifiers-standing-en-1280")
    page.goto(f"/c/{championship.slug}/results/{rnd.pk}/projector/")
    expect(page.locator(".clinched").first).to_be_visible()
    screenshot(page, "w13g-projector-clinched-en-1280")
    context.close()
