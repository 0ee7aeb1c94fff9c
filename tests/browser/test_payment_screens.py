"""The treasurer's page and the entrant's payment box at a desk's and a phone's width, in
English and Czech: nothing wider than the screen, the QR code and the reference in view
(issue 28). Screenshots go to test-output/screenshots (or PUZZLECOMP_SHOTS)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.db.models import F

from puzzlecomp.championships.demo import DEMO_SLUG
from puzzlecomp.championships.models import Entry, EntryStatus
from puzzlecomp.championships.selectors.payments import entry_reference
from tests.browser.conftest import SCREENSHOTS
from tests.browser.test_accessibility import demo, sign_in  # noqa: F401 - the fixture

FITS = "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
SHOTS = Path(os.environ.get("PUZZLECOMP_SHOTS", SCREENSHOTS))


@pytest.mark.parametrize("language", ["en", "cs"])
@pytest.mark.parametrize("width", [1280, 390])
def test_the_treasurer_page_and_the_payment_box_fit_and_show_how_to_pay(page, demo,  # noqa: F811
                                                                         language, width):
    page.set_viewport_size({"width": width, "height": 900})
    sign_in(page)
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "domain": "localhost", "path": "/"}])
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.goto(f"/control/{DEMO_SLUG}/payments/")
    assert page.locator("#queue .queue-line").count() >= 1
    assert page.evaluate(FITS), page.evaluate("document.documentElement.scrollWidth")
    page.screenshot(path=str(SHOTS / f"treasurer-{language}-{width}.png"), full_page=True)
    entry = Entry.objects.filter(event__championship__slug=DEMO_SLUG,
                                 paid_amount__lt=F("fee_amount")).exclude(
        status=EntryStatus.CANCELLED).order_by("-paid_amount").first()
    page.goto(f"/c/{DEMO_SLUG}/disputes/{entry.token}/")
    box = page.locator("#payment")
    assert box.locator("svg").is_visible()
    assert entry_reference(entry) in box.inner_text()
    assert page.evaluate(FITS), page.evaluate("document.documentElement.scrollWidth")
    box.screenshot(path=str(SHOTS / f"payment-box-{language}-{width}.png"))
