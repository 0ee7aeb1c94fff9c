"""axe-core on every public, judge and control page of the demo championship: no serious or
critical violation of WCAG 2.1 A and AA. The pages are found by walking the URL patterns, so a
new page is checked without being listed here."""

from __future__ import annotations

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.test import Client
from playwright.sync_api import expect

from puzzlecomp.championships.demo import DEMO_PASSWORD, DEMO_SLUG, DEMO_USER, demo_load
from puzzlecomp.championships.models import Championship, EntryMember, Membership, Round
from puzzlecomp.championships.selectors.rankings import ranking_events
from tests.browser.conftest import SCREENSHOTS
from tests.browser.test_judge_phone import pairing_link
from tests.support import url_routes

pytestmark = pytest.mark.django_db(transaction=True)
WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
AUDIENCES = ("", "c/", "control/<slug:slug>/")


@pytest.fixture
def demo() -> Championship:
    demo_load(individuals=24, pairs=8, teams=4)
    return Championship.objects.get(slug=DEMO_SLUG)


def _routes() -> list[str]:
    return [r for r in url_routes() if r == "" or r.startswith(
        ("c/", "control/", "people/", "countries/", "rankings/", "records/"))]


def page_urls(championship: Championship) -> list[str]:
    """Every page a GET shows as a whole HTML document, its arguments taken from the demo
    championship."""
    first = Round.objects.get(event__championship=championship, event__code="individual",
                              code="first")
    values = {"slug": championship.slug, "event": "individual", "event_code": "individual",
              "round": "first", "round_id": str(first.pk), "number": "1", "position": "1",
              "membership_id": str(Membership.objects.filter(championship=championship)
                                   .values_list("pk", flat=True).first()),
              # The people's pages, from the archive the demo loads.
              "person_id": str(EntryMember.objects.filter(
                  entry__event__championship=championship, consent_publish=True)
                  .values_list("person_id", flat=True).first()),
              "code": "CZE",
              "series": next((e.series for e in ranking_events()), "wjpc")}
    client = Client()
    client.force_login(Membership.objects.get(championship=championship,
                                              user__username=DEMO_USER).user)
    urls: list[str] = []
    for route in _routes():
        names = re.findall(r"<(?:\w+:)?(\w+)>", route)
        if any(name not in values for name in names):
            continue
        url = "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: values[m.group(1)], route)
        response = client.get(url)
        # Whole documents only: fragments (a round's charts for results.js) live inside one.
        if (response.status_code == 200
                and response.get("Content-Type", "").startswith("text/html")
                and b"<html" in response.content[:1000]):
            urls.append(url)
    return urls


def serious_violations(page) -> list[str]:
    results = Axe().run(page, options={"runOnly": {"type": "tag", "values": WCAG_21_AA}})
    return [f"{page.url} {v['id']} ({v['impact']}): {v['help']}: "
            + ", ".join(str(n["target"]) for n in v["nodes"][:5])
            for v in results.response["violations"] if v["impact"] in ("serious", "critical")]


def sign_in(page) -> None:
    page.goto("/accounts/login/")
    page.fill("#id_username", DEMO_USER)
    page.fill("#id_password", DEMO_PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url("**/control/")


@pytest.mark.parametrize("language", ["en", "cs"])
def test_every_public_and_control_page_has_no_serious_violation(page, demo, language):
    urls = page_urls(demo)
    assert len(urls) >= 30, urls
    sign_in(page)
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "domain": "localhost", "path": "/"}])
    found: list[str] = []
    for url in urls:
        page.goto(url)
        assert page.locator("html").get_attribute("lang") == language, url
        found += serious_violations(page)
    report(f"axe-{language}", urls, found)
    assert found == [], "\n".join(found)


def report(name: str, urls: list[str], found: list[str]) -> None:
    """The pages checked and what axe found, kept beside the screenshots."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    (SCREENSHOTS / f"{name}.txt").write_text(
        f"{len(urls)} pages checked, {len(found)} serious or critical violations\n"
        + "".join(f"checked {url}\n" for url in urls) + "".join(f"{v}\n" for v in found))


def test_the_judge_phone_and_its_count_sheet_have_no_serious_violation(page, demo):
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(pairing_link(demo))
    page.locator("#pair-button").click()
    page.wait_for_url(f"**/judge/{demo.slug}/")
    expect(page.locator("article.entry").first).to_be_visible()
    found = serious_violations(page)
    sheet_button = page.locator('article.entry button[data-action="count"]')
    expect(sheet_button.first).to_be_visible()
    sheet_button.first.click()
    expect(page.locator("#sheet-form")).to_be_visible()
    found += serious_violations(page)
    report("axe-judge", [page.url], found)
    assert found == [], "\n".join(found)


def test_the_live_results_and_projector_drawn_by_their_scripts_have_no_serious_violation(
        live_page, demo):
    """The public results as spectators see them: rows drawn from the live feed (ASGI)."""
    found: list[str] = []
    urls: list[str] = []
    for rnd in Round.objects.filter(event__championship=demo, starts_at__isnull=False):
        for url in (f"/c/{demo.slug}/results/{rnd.pk}/",
                    f"/c/{demo.slug}/results/{rnd.pk}/projector/"):
            live_page.goto(url)
            expect(live_page.locator("tr[data-entry]").first).to_be_attached()
            urls.append(url)
            found += serious_violations(live_page)
    report("axe-live", urls, found)
    assert found == [], "\n".join(found)
