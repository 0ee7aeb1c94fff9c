"""Every main page runs under the content security policy without a single violation: the
public results, the projector, the judge's phone, the head judge's floor map, organiser pages
and the API's documentation."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from puzzlecomp.championships.models import Membership, Role
from tests.browser.conftest import wait_until
from tests.judging.support import pair_device, seat_round
from tests.support import published_championship

pytestmark = pytest.mark.django_db(transaction=True)

# Collects violations from the moment a document starts, before any of its own scripts run.
LISTEN = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
});
"""


def watch(page) -> list[str]:
    """Console errors that name the policy (the browser reports every violation there too)."""
    seen: list[str] = []
    page.add_init_script(LISTEN)
    page.on("console", lambda m: seen.append(m.text)
            if m.type == "error" and "Content Security Policy" in m.text else None)
    return seen


def visit(page, url: str, ready: str, console: list[str]) -> None:
    response = page.goto(url)
    assert response is not None, url
    assert response.ok, url
    assert "script-src 'self'" in response.headers["content-security-policy"], url
    expect(page.locator(ready).first).to_be_visible()
    # Let the page's scripts run their first fetches and redraws.
    page.wait_for_load_state("networkidle")
    assert page.evaluate("window.__csp") == [], url
    assert console == [], url


def test_no_page_violates_the_content_security_policy(browser, asgi_server):
    championship = published_championship("WJPC CSP Test")
    rnd = seat_round(championship, "individual", "first", tables=2)
    owner = get_user_model().objects.create_user("owner", password="pw-12345678")
    Membership.objects.create(user=owner, championship=championship, role=Role.OWNER)
    _device, token = pair_device(championship, 1, 2)
    slug = championship.slug

    context = browser.new_context(base_url=asgi_server, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    console = watch(page)
    visit(page, "/", "main", console)
    visit(page, f"/c/{slug}/results/{rnd.pk}/", "table", console)
    visit(page, f"/c/{slug}/results/{rnd.pk}/projector/", "body", console)
    # The charts (SVG with classes), the stream's overlays and the hall projector.
    visit(page, f"/c/{slug}/results/{rnd.pk}/", "svg.chart", console)
    for kind in ("clock", "latest", "top", "podium"):
        visit(page, f"/c/{slug}/results/{rnd.pk}/overlay/{kind}/", "main", console)
    visit(page, f"/c/{slug}/results/hall/", "[data-scene]", console)
    visit(page, "/api/v1/docs", ".swagger-ui .info", console)

    page.goto("/accounts/login/")
    page.fill("input[name=username]", "owner")
    page.fill("input[name=password]", "pw-12345678")
    page.locator("main form button[type=submit], main form input[type=submit]").first.click()
    page.wait_for_url("**/control/**")
    visit(page, f"/control/{slug}/", "main", console)
    visit(page, f"/control/{slug}/live/{rnd.pk}/", "main", console)
    visit(page, f"/control/{slug}/live/{rnd.pk}/map/", "main", console)
    visit(page, f"/control/{slug}/live/", "form.scene-form", console)
    visit(page, f"/control/{slug}/judges/", "main", console)
    # The language selector submits itself (its handler lives in site.js, not in the markup).
    page.select_option("#language", "cs")
    expect(page.locator("html")).to_have_attribute("lang", "cs")
    assert console == []

    context.add_cookies([{"name": f"judge-{slug}", "value": token, "domain": "127.0.0.1",
                          "path": "/judge/"}])
    visit(page, f"/judge/{slug}/", "#sync", console)
    # The screen's service worker and manifest (issue 31) under the same policy.
    wait_until(page, "navigator.serviceWorker.controller !== null")
    page.reload()
    expect(page.locator("#sync")).to_be_visible()
    page.wait_for_load_state("networkidle")
    assert page.evaluate("window.__csp") == []
    assert console == []
    context.close()
