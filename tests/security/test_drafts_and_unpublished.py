"""Issue 14, low findings: draft groups and tables stay private until the organiser publishes
them; the judges' pages of an unpublished championship name nothing; /live/ gets the HTTPS
redirect, HSTS and nosniff under production settings."""

from __future__ import annotations

import pytest
from django.test import Client

from puzzlecomp.championships.models import Role
from puzzlecomp.championships.services.groups import groups_publish
from tests.live.conftest import AsgiApp
from tests.live.entries import enter
from tests.support import round_of


@pytest.fixture
def planned(championship):
    """WJPC's individual first round, not started: entry 1 drafted into group A, table 5."""
    rnd = round_of(championship, "individual", "first")
    enter(rnd, 1, "Ana Novak", "CZ", group="A", table=5)
    return rnd


def public_view(rnd) -> tuple[dict, str]:
    slug = rnd.event.championship.slug
    api = Client().get(f"/api/v1/championships/{slug}/entries/individual/1").json()
    page = Client().get(f"/c/{slug}/results/entries/individual/1/").content.decode()
    return api, page


def test_draft_groups_and_tables_are_not_public(planned):
    api, page = public_view(planned)
    assert api["group"] == ""
    assert [(r["group"], r["table"]) for r in api["rounds"]] == [("", None)]
    assert "Group A" not in page


def test_published_groups_then_seating_become_public(planned):
    groups_publish(round=planned)
    api, page = public_view(planned)
    assert api["group"] == "A"
    assert [(r["group"], r["table"]) for r in api["rounds"]] == [("A", None)]
    assert "Group A" in page
    planned.refresh_from_db()
    planned.seating_published = True  # as Planning > Seating > "Publish the seating" does
    planned.save()
    api, _page = public_view(planned)
    assert [(r["group"], r["table"]) for r in api["rounds"]] == [("A", 5)]


def test_the_organiser_publishes_the_seating_from_the_seating_screen(planned, client_as):
    client = client_as(planned.event.championship, Role.ORGANISER)
    slug = planned.event.championship.slug
    response = client.post(f"/control/{slug}/planning/{planned.pk}/seating/publish/",
                           {"group": "A"})
    assert response.status_code == 302
    planned.refresh_from_db()
    assert planned.seating_published


def test_the_judges_page_of_an_unpublished_championship_names_nothing(make_championship,
                                                                      client_as):
    hidden = make_championship("wjpc-2025", name="Secret Cup 2027")
    for path in (f"/judge/{hidden.slug}/", f"/judge/{hidden.slug}/pair/not-a-code"):
        response = Client().get(path)
        assert response.status_code == 404
        assert b"Secret Cup" not in response.content
    assert client_as(hidden, Role.JUDGE).get(f"/judge/{hidden.slug}/").status_code == 200
    hidden.published = True
    hidden.save()
    assert Client().get(f"/judge/{hidden.slug}/").status_code == 200


@pytest.fixture
def production_live(settings):
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_HSTS_SECONDS = 31_536_000
    settings.SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.ALLOWED_HOSTS = ["results.example.org"]
    app = AsgiApp()
    yield app
    app.close()


def test_live_redirects_to_https_under_production_settings(production_live):
    response = production_live.get("/live/time", host="results.example.org")
    assert response.status == 301
    assert response.headers["location"] == "https://results.example.org/live/time"
    assert production_live.get("/live/time", host="evil.example").status == 400


def test_live_sends_hsts_and_nosniff_over_https(production_live):
    response = production_live.get("/live/time", host="results.example.org",
                                   x_forwarded_proto="https")
    assert response.status == 200
    assert response.headers["strict-transport-security"] == \
        "max-age=31536000; includeSubDomains"
    assert response.headers["x-content-type-options"] == "nosniff"
