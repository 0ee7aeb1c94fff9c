"""The verification page in a browser (issue 29): a certificate's code read as valid, then as
replaced after a correction, on a wide screen and a phone, in English and Czech."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from puzzlecomp.championships.demo import DEMO_SLUG, demo_load
from puzzlecomp.championships.models import Championship, Result
from puzzlecomp.championships.services.results_package import results_package_issue
from tests.browser.conftest import SCREENSHOTS, screenshot

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def signing_key(settings, tmp_path):
    settings.RESULTS_KEY_FILE = tmp_path / "results-signing-key"


def test_a_code_is_valid_then_replaced_and_the_form_fits_a_phone(page, live_server, tmp_path):
    demo_load(individuals=30, pairs=10, teams=6)
    championship = Championship.objects.get(slug=DEMO_SLUG)
    Championship.objects.filter(pk=championship.pk).update(published=True)
    package = results_package_issue(championship=championship, event_code="teams")
    result = json.loads(package.content)["events"][0]["rounds"][0]["results"][0]
    for language in ("en", "cs"):
        page.context.add_cookies([{"name": "django_language", "value": language,
                                   "url": live_server.url}])
        for width in (1280, 390):
            page.set_viewport_size({"width": width, "height": 900})
            page.goto(f"/verify/?code={result['code'][:20]}")
            assert page.locator("[data-verdict]").get_attribute("data-verdict") == "valid"
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            screenshot(page, f"verify-valid-{language}-{width}")
    path = tmp_path / "package.json"
    path.write_text(package.content, encoding="utf-8")
    Result.objects.filter(round__event__championship=championship, round__event__code="teams",
                          entry__number=result["entry"]).update(status="dsq", puzzles=[])
    results_package_issue(championship=championship, event_code="teams")
    page.set_viewport_size({"width": 390, "height": 900})
    page.goto("/verify/")
    page.set_input_files("#package", str(path))
    page.locator("form[enctype] button").click()
    assert page.locator("[data-verdict]").get_attribute("data-verdict") == "replaced"
    screenshot(page, "verify-replaced-cs-390")
    page.goto(f"/c/{DEMO_SLUG}/")
    assert page.locator(".signed-results .fingerprint").first.is_visible()
    screenshot(page, "championship-key-cs-390")
    for shot in SCREENSHOTS.glob("*.png"):
        if shot.name.startswith(("verify-", "championship-key")):
            Path("/tmp/shots-h29", shot.name).write_bytes(shot.read_bytes())
