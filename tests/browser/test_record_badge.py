"""The record badge on live results (docs/archive.md, "Records") in a real browser: drawn by
results.js after a live notice exactly as the server draws it."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from puzzlecomp.championships.services.archive import archive_import
from puzzlecomp.formats.history_csv import read_history
from puzzlecomp.rules.results import Status
from tests.browser.test_live_results import (
    ROW_TEXTS,
    results_url,
    running_round,
    wait_until_live,
    write,
)
from tests.web.test_person_pages import HISTORY
from tests.web.test_public_results import enter

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_broken_record_is_marked_alike_by_the_script_and_the_server(
        browser, asgi_server, live_page):
    """World record 2,900 s (CZE), Spain's 3,000 s: a 2,800 s finish breaks the first, a
    2,950 s Spanish one the second."""
    archive_import(rows=read_history(HISTORY, source="history.csv"), source="history.csv",
                   ruleset_id="wjpc-2025", slug_prefix="wjpc", title="WJPC")
    rnd = running_round("wjpc-2025", "individual", "first")
    ana = enter(rnd, 1, "Ana Novak", "CZ", table=1)
    carla = enter(rnd, 2, "Carla Garcia", "ES", table=2)
    live_page.goto(results_url(rnd))
    wait_until_live(live_page)
    write(rnd, ana, Status.FINISHED, time_seconds=2800)
    write(rnd, carla, Status.FINISHED, time_seconds=2950)
    badge = live_page.locator('tr[data-entry="2"] abbr.record')
    expect(badge).to_have_text("NR")
    expect(badge).to_have_attribute("title", "National record")
    expect(live_page.locator('tr[data-entry="1"] abbr.record')).to_have_attribute(
        "title", "World record")
    drawn = live_page.evaluate(ROW_TEXTS)
    context = browser.new_context(java_script_enabled=False, base_url=asgi_server)
    try:
        plain = context.new_page()
        plain.goto(results_url(rnd))
        served = plain.evaluate(ROW_TEXTS)
        assert plain.locator('tr[data-entry="1"] abbr.record').get_attribute("title") == (
            "World record")
    finally:
        context.close()
    assert drawn == served
    assert {row[0]: row[4] for row in drawn} == {"1": "Ana Novak WR", "2": "Carla Garcia NR"}
