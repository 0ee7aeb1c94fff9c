"""A judge's phone in a real browser (phone-sized, touch, the whole ASGI app under uvicorn):
pairing by the QR link, finishes and counts recorded at the tables, and the offline outbox that
delivers every record exactly once."""

from __future__ import annotations

import json
import re
import time
from collections import Counter

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from playwright.sync_api import expect

from puzzlecomp.championships.models import (
    Championship,
    Membership,
    Result,
    ResultChange,
    Role,
    Round,
    RoundState,
)
from puzzlecomp.championships.services.rounds import round_state_set
from tests.browser.conftest import screenshot
from tests.judging.support import pair_device, seat_round, write
from tests.support import published_championship

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def running_round() -> Round:
    """WJPC's individual first round, running for 10 minutes; entries 1-4 at tables 1-2."""
    return seat_round(published_championship("WJPC Phone Test"), "individual", "first",
                      tables=2)


def pairing_link(championship: Championship, last_table: int = 2) -> str:
    """The head judge creates a device for tables 1-2 (or more); the link its QR code carries."""
    head = get_user_model().objects.create_user("head", password="pw-12345678")
    Membership.objects.create(user=head, championship=championship, role=Role.HEAD_JUDGE)
    client = Client()
    client.force_login(head)
    sheet = client.post(f"/control/{championship.slug}/judges/new/",
                        {"label": "Front tables", "table_from": 1, "table_to": last_table})
    assert "<svg" in sheet.content.decode()
    url = re.search(r'id="pairing-link"[^>]*>([^<]+)<', sheet.content.decode()).group(1)
    return url[url.index("/judge/"):]


def pair(page, championship: Championship, last_table: int = 2) -> None:
    page.goto(pairing_link(championship, last_table))
    expect(page.locator("#pair-button")).to_be_visible()
    screenshot(page, "judge-pair")
    page.locator("#pair-button").tap()
    page.wait_for_url(f"**/judge/{championship.slug}/")
    expect(page.locator("#sync")).to_have_attribute("data-state", "sent")


def entry(page, number: int):
    return page.locator(f'article.entry[data-entry="{number}"]')


def record_finish(page, number: int, *, missing: int = 0, contiguous: int = 0) -> None:
    """Tap TIME, then check: missing pieces with the steppers, both boxes ticked."""
    entry(page, number).locator('button[data-action="tap"]').tap()
    sheet = page.locator("#sheet-form")
    expect(sheet.locator("#sheet-time")).to_have_text(re.compile(r"\d\d:\d\d"))
    for _ in range(missing):
        sheet.get_by_role("button", name="Missing pieces +").tap()
    for _ in range(contiguous):
        sheet.get_by_role("button", name="Of these, in adjacent clusters +").tap()
    verify = sheet.locator('button[data-submit="verify"]')
    expect(verify).to_be_disabled()
    sheet.locator('input[name="complete_and_correct"]').check()
    sheet.locator('input[name="competitor_confirmed"]').check()
    verify.tap()
    expect(page.locator("#sheet")).not_to_be_visible()


def outbox_records(page, slug: str) -> list[dict]:
    return page.evaluate("""(name) => new Promise((resolve, reject) => {
        const open = indexedDB.open(name, 1);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const read = open.result.transaction("items").objectStore("items").getAll();
          read.onsuccess = () => { resolve(read.result); open.result.close(); };
        };
    })""", f"puzzlecomp-judge-{slug}")


def put_back(page, slug: str, records: list[dict]) -> None:
    """Put records into the outbox again, as a phone that never heard the answers would."""
    page.evaluate("""([name, records]) => new Promise((resolve, reject) => {
        const open = indexedDB.open(name, 1);
        open.onsuccess = () => {
          const tx = open.result.transaction("items", "readwrite");
          for (const record of records) tx.objectStore("items").put(record);
          tx.oncomplete = () => { resolve(); open.result.close(); };
          tx.onerror = () => reject(tx.error);
        };
    })""", [f"puzzlecomp-judge-{slug}", records])


def errors_of(page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


def test_a_judge_pairs_records_two_finishes_and_counts_at_the_limit(phone_page, running_round):
    """wjpc-2025.txt, Time Recording and Piece Count: the judge records the time, checks the
    puzzle (contiguous missing pieces cost nothing) and at the limit records the pieces
    placed; the count in piles of 10 comes from norway-nm-2025.txt."""
    page = phone_page
    errors = errors_of(page)
    championship = running_round.event.championship
    pair(page, championship)
    expect(page.locator("#table-1")).to_be_visible()
    expect(page.locator("#clock-elapsed")).to_have_text(re.compile(r"1\d:\d\d"))
    screenshot(page, "judge-screen")

    record_finish(page, 1)
    record_finish(page, 2, missing=3, contiguous=2)
    expect(entry(page, 2)).to_have_attribute("data-checked", "true")
    expect(page.locator("#sync")).to_have_attribute("data-state", "sent")
    expect(page.locator("#sync")).to_have_text("All sent")
    screenshot(page, "judge-two-finishes")

    round_state_set(round=running_round, state=RoundState.COUNTING)
    page.reload()
    expect(page.locator(".judge-clock")).to_have_attribute("data-state", "counting")
    entry(page, 3).locator('button[data-action="count"]').tap()
    sheet = page.locator("#sheet-form")
    sheet.locator('button[data-toggle="count-mode"]').tap()
    for _ in range(4):
        sheet.get_by_role("button", name="Piles of 10 +").tap()
    sheet.locator('input[name="loose"]').fill("7")
    expect(sheet.locator("#count-total")).to_have_text("47 left, 453 placed")
    screenshot(page, "judge-count-piles")
    sheet.locator('button[data-submit="count"]').tap()
    entry(page, 4).locator('button[data-action="count"]').tap()
    page.locator('#sheet-form input[name="pieces"]').fill("312")
    page.locator('#sheet-form button[data-submit="count"]').tap()
    expect(entry(page, 4)).to_have_attribute("data-status", "unfinished")
    expect(page.locator("#sync")).to_have_attribute("data-state", "sent")
    screenshot(page, "judge-counted")

    results = {r.entry.number: r for r in Result.objects.filter(round=running_round)
               .select_related("entry")}
    assert sorted(results) == [1, 2, 3, 4]
    first, second = results[1], results[2]
    assert (first.status, first.checked, first.competitor_confirmed) == ("finished", True, True)
    assert 10 * 60 <= first.time_seconds <= 12 * 60
    assert first.time_seconds <= second.time_seconds
    assert (second.missing, second.missing_contiguous, second.checked) == (3, 2, True)
    assert (results[3].status, results[3].remaining, results[3].pieces) == (
        "unfinished", 47, None)
    assert (results[4].status, results[4].pieces) == ("unfinished", 312)
    assert all(r.device is not None for r in results.values())
    assert errors == []


def test_offline_records_arrive_exactly_once_when_the_network_comes_back(phone_page,
                                                                        running_round):
    """The issue: the judge goes offline mid-round, records three results, comes back: all
    three arrive exactly once, even when the outbox sends them again."""
    page = phone_page
    errors = errors_of(page)
    championship = running_round.event.championship
    pair(page, championship)

    page.context.set_offline(True)
    record_finish(page, 1, missing=2, contiguous=2)
    entry(page, 2).locator('button[data-action="tap"]').tap()
    page.locator('#sheet-form button[data-submit="later"]').tap()
    entry(page, 3).locator('button[data-action="dsq"]').tap()
    page.locator("#sheet-note").fill("Help from a spectator")
    page.locator('#sheet-form button[data-submit="dsq"]').tap()
    expect(page.locator("#sync")).to_have_attribute("data-state", "offline")
    # Four records of three entrants (entry 1's finish and its check).
    expect(page.locator("#sync")).to_have_text("Offline: 3 entrants waiting to send")
    expect(entry(page, 3)).to_have_attribute("data-status", "dsq")
    screenshot(page, "judge-offline")
    waiting = outbox_records(page, championship.slug)
    assert len(waiting) == 4
    assert not Result.objects.exists()

    page.context.set_offline(False)
    expect(page.locator("#sync")).to_have_attribute("data-state", "sent")
    screenshot(page, "judge-back-online")
    assert outbox_records(page, championship.slug) == []
    sent = Counter(ResultChange.objects.values_list("client_id", flat=True))
    assert set(sent) == {record["client_id"] for record in waiting}
    assert set(sent.values()) == {1}

    # The answers "never arrived": the same records go again, and again after a reload.
    put_back(page, championship.slug, waiting)
    page.reload()
    # Right after the reload the page may say "sent" before it has read its outbox: wait for
    # the outbox itself to empty.
    deadline = time.monotonic() + 15
    while outbox_records(page, championship.slug) and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    expect(page.locator("#sync")).to_have_attribute("data-state", "sent")
    assert outbox_records(page, championship.slug) == []
    assert ResultChange.objects.count() == 4
    results = {r.entry.number: r for r in Result.objects.filter(round=running_round)
               .select_related("entry")}
    assert (results[1].status, results[1].missing, results[1].checked) == ("finished", 2, True)
    assert (results[2].status, results[2].checked) == ("finished", False)
    assert (results[3].status, results[3].note) == ("dsq", "Help from a spectator")
    assert errors == []


def test_an_answer_lost_on_the_way_back_is_sent_again_and_stored_once(phone_page,
                                                                     running_round):
    """The server stored the tap but the phone never got the answer: the outbox sends the same
    record again and the server answers with what it stored."""
    page = phone_page
    championship = running_round.event.championship
    pair(page, championship)
    lost: list[str] = []

    def lose_first_answer(route) -> None:
        if not lost:
            route.fetch()
            lost.append(json.loads(route.request.post_data)["client_id"])
            route.abort()
        else:
            route.continue_()

    page.route("**/api/v1/device/results", lose_first_answer)
    entry(page, 1).locator('button[data-action="tap"]').tap()
    page.locator('#sheet-form button[data-submit="later"]').tap()
    expect(page.locator("#sync")).to_have_attribute("data-state", "sent", timeout=20_000)
    assert lost
    assert ResultChange.objects.filter(client_id=lost[0]).count() == 1
    assert ResultChange.objects.count() == 1
    assert Result.objects.get(round=running_round, entry__number=1).version == 1


def test_two_judges_on_one_result_choose_explicitly_which_one_stays(phone_page, running_round):
    """The issue: two judges editing the same result never silently overwrite each other. The
    phone shows both values; the judge keeps theirs on one entry and sends theirs again on
    the other."""
    page = phone_page
    errors = errors_of(page)
    championship = running_round.event.championship
    pair(page, championship)
    page.context.set_offline(True)
    for number in (1, 2):
        entry(page, number).locator('button[data-action="tap"]').tap()
        page.locator('#sheet-form button[data-submit="later"]').tap()
    other = Client(HTTP_AUTHORIZATION="Bearer "
                   + pair_device(championship, 1, 2, label="Second phone")[1])
    for number in (1, 2):
        assert write(other, running_round, number, "tap", time_seconds=300).status_code == 200
    page.context.set_offline(False)
    expect(page.locator("#sync")).to_have_text("2 entrants need your decision")
    conflicts = page.locator(".notice.conflict")
    expect(conflicts).to_have_count(2)
    expect(conflicts.first.locator(".theirs")).to_have_text("Finished 05:00: check it")
    expect(conflicts.first.locator(".mine")).to_have_text(re.compile(r"time 10:\d\d"))
    screenshot(page, "judge-conflict")
    conflicts.first.locator('button[data-resolve="theirs"]').tap()
    expect(conflicts).to_have_count(1)
    conflicts.locator('button[data-resolve="mine"]').tap()
    expect(page.locator("#sync")).to_have_attribute("data-state", "sent")
    first = Result.objects.get(round=running_round, entry__number=1)
    second = Result.objects.get(round=running_round, entry__number=2)
    assert (first.time_seconds, first.version) == (300, 1)
    assert second.version == 2
    assert second.time_seconds >= 10 * 60
    expect(entry(page, 1)).to_contain_text("Finished 05:00")
    assert errors == []


def test_a_multi_puzzle_round_checks_each_puzzle_before_the_next_one_opens(phone_page):
    """wjpc-2025.txt, Authorized Logging and Puzzle Opening: judges log each completion and
    authorise the opening of the next puzzle (the teams' two 1000-piece puzzles)."""
    page = phone_page
    errors = errors_of(page)
    championship = published_championship("WJPC Teams Phone")
    final = seat_round(championship, "teams", "final", tables=1, per_table=1,
                       started_minutes_ago=40)
    pair(page, championship)
    team = entry(page, 1)
    second = team.locator('.puzzle[data-puzzle="2"]')
    expect(second).to_contain_text("Not open yet")
    team.locator('.puzzle[data-puzzle="1"] button[data-action="tap"]').tap()
    sheet = page.locator("#sheet-form")
    sheet.locator('input[name="complete_and_correct"]').check()
    sheet.locator('input[name="competitor_confirmed"]').check()
    sheet.locator('button[data-submit="verify"]').tap()
    second.locator('button[data-action="open"]').tap()
    expect(second.locator('button[data-action="tap"]')).to_be_visible()
    screenshot(page, "judge-multi-puzzle")
    expect(page.locator("#sync")).to_have_attribute("data-state", "sent")
    row = Result.objects.get(round=final)
    assert [(p["verified"], p["authorised"]) for p in row.puzzles] == [(True, True),
                                                                        (False, True)]
    assert 40 * 60 <= row.puzzles[0]["time"] <= 42 * 60
    assert (row.status, row.checked, row.version) == ("unfinished", False, 3)
    assert errors == []


def stored_when(page, rnd: Round, number: int, check) -> Result:
    """The entry's stored result once the phone's outbox is empty ("All sent" may still show
    from the record before); the database is read once, after (polling it from here would
    lock the in-memory database the server writes to)."""
    slug = rnd.event.championship.slug
    deadline = time.monotonic() + 15
    while outbox_records(page, slug):
        if time.monotonic() > deadline:
            raise AssertionError("the outbox never emptied")
        page.wait_for_timeout(100)
    result = Result.objects.get(round=rnd, entry__number=number)
    assert check(result), result
    return result


def test_with_pieces_missing_the_judge_confirms_the_count_and_may_correct_it(phone_page,
                                                                              running_round):
    """The issue: with 2 pieces missing the check stayed disabled until the judge ticked
    "complete and every piece correctly placed", which a careful judge won't."""
    page = phone_page
    pair(page, running_round.event.championship)
    entry(page, 1).locator('button[data-action="tap"]').tap()
    sheet = page.locator("#sheet-form")
    for _ in range(2):
        sheet.get_by_role("button", name="Missing pieces +").tap()
    expect(sheet.locator("#sheet-complete")).to_have_text(
        "Every placed piece is correctly placed and exactly 2 pieces are missing")
    sheet.locator('input[name="complete_and_correct"]').check()
    sheet.locator('input[name="competitor_confirmed"]').check()
    verify = sheet.locator('button[data-submit="verify"]')
    expect(verify).to_be_enabled()
    # Changing the count asks for the confirmation again.
    sheet.get_by_role("button", name="Missing pieces +").tap()
    expect(verify).to_be_disabled()
    sheet.get_by_role("button", name="Missing pieces \N{MINUS SIGN}").tap()
    sheet.locator('input[name="complete_and_correct"]').check()
    screenshot(page, "judge-check-missing")
    verify.tap()
    stored_when(page, running_round, 1, lambda r: r.checked and r.missing == 2)

    entry(page, 1).locator('button[data-action="correct"]').tap()
    expect(sheet.locator('input[name="missing"]')).to_have_value("2")
    sheet.get_by_role("button", name="Missing pieces \N{MINUS SIGN}").tap()
    expect(sheet.locator("#sheet-complete")).to_have_text(
        "Every placed piece is correctly placed and exactly 1 piece is missing")
    sheet.locator('input[name="complete_and_correct"]').check()
    sheet.locator('input[name="competitor_confirmed"]').check()
    sheet.locator('button[data-submit="verify"]').tap()
    stored_when(page, running_round, 1, lambda r: r.checked and r.missing == 1)


def test_the_judge_records_and_checks_a_finish_with_the_keyboard_alone(phone_page,
                                                                        running_round):
    page = phone_page
    pair(page, running_round.event.championship)
    tap = entry(page, 2).locator('button[data-action="tap"]')
    tap.focus()
    page.keyboard.press("Enter")
    sheet = page.locator("#sheet-form")
    expect(sheet).to_be_visible()
    # Tab through the sheet to the missing count, type it, tick both boxes with the space bar.
    page.keyboard.press("Tab")
    while page.evaluate("document.activeElement.name") != "missing":
        page.keyboard.press("Tab")
    page.keyboard.type("1")
    while page.evaluate("document.activeElement.name") != "complete_and_correct":
        page.keyboard.press("Tab")
    page.keyboard.press("Space")
    page.keyboard.press("Tab")
    page.keyboard.press("Space")
    while page.evaluate("document.activeElement.dataset.submit") != "verify":
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    expect(page.locator("#sheet")).not_to_be_visible()
    result = stored_when(page, running_round, 2, lambda r: r.checked)
    assert (result.status, result.missing) == ("finished", 1)


def test_a_section_of_many_tables_starts_as_a_compact_list(phone_page):
    rnd = seat_round(published_championship("WJPC Compact Test"), "individual", "first",
                     tables=8)
    page = phone_page
    pair(page, rnd.event.championship, last_table=8)
    expect(page.locator("#tables")).to_have_class(re.compile(r"\bcompact\b"))
    screenshot(page, "judge-compact")
    page.locator("#compact").tap()
    expect(page.locator("#tables")).not_to_have_class(re.compile(r"\bcompact\b"))
    expect(page.locator("#compact")).to_have_attribute("aria-pressed", "false")


def test_a_czech_team_finishes_the_500_first_on_the_phone(phone_page):
    """czech-championship.txt, Stacking rules: teams choose the order of puzzles themselves, so
    both puzzles are open on the phone and the 500 may be tapped and checked first."""
    page = phone_page
    errors = errors_of(page)
    championship = published_championship("Czech Teams Phone", ruleset_id="czech-championship")
    final = seat_round(championship, "teams", "final", tables=1, per_table=1,
                       started_minutes_ago=40)
    pair(page, championship)
    team = entry(page, 1)
    first = team.locator('.puzzle[data-puzzle="1"]')
    second = team.locator('.puzzle[data-puzzle="2"]')
    expect(first.locator('button[data-action="tap"]')).to_be_visible()
    second.locator('button[data-action="tap"]').tap()
    sheet = page.locator("#sheet-form")
    sheet.locator('input[name="complete_and_correct"]').check()
    sheet.locator('input[name="competitor_confirmed"]').check()
    sheet.locator('button[data-submit="verify"]').tap()
    expect(first.locator('button[data-action="tap"]')).to_be_visible()
    expect(team.locator('button[data-action="open"]')).to_have_count(0)
    screenshot(page, "judge-chosen-order")
    expect(page.locator("#sync")).to_have_attribute("data-state", "sent")
    row = Result.objects.get(round=final)
    assert [(p["verified"], p["authorised"]) for p in row.puzzles] == [(False, True),
                                                                        (True, True)]
    assert (row.status, row.version) == ("unfinished", 2)
    assert errors == []
