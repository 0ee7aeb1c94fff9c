"""Issue 22, finding 8: NUL (`%00`) or another control character in a URL path parameter
answers 404 on both databases (web/path_guard.py); on PostgreSQL it answered 500, anonymously,
because the parameter reached a query. Run on PostgreSQL with TEST_DATABASE_URL (.ci/run)."""

from __future__ import annotations

import pytest
from django.test import Client

SLUG = "nul-test"
# Every URL whose parameter a `str` converter or the API takes as typed.
PATHS = [
    "/c/{slug}/register/confirm/{x}/",
    "/c/{slug}/disputes/{x}/",
    "/c/{slug}/disputes/{x}/emails/",
    "/countries/{x}/",
    "/judge/{slug}/pair/{x}",
    "/api/v1/championships/{x}",
    "/api/v1/championships/{x}/rounds/1/ranking",
    "/api/v1/championships/{slug}/events/{x}/standings",
    "/api/v1/championships/{slug}/events/{x}/awards",
    "/api/v1/championships/{slug}/entries/{x}/1",
]


@pytest.fixture
def published(make_championship):
    championship = make_championship("wjpc-2025", slug=SLUG)
    championship.published = True
    championship.save()
    return championship


@pytest.mark.parametrize("character", ["%00", "%01", "%0A", "%1F", "%7F"])
@pytest.mark.parametrize("path", PATHS)
def test_a_control_character_in_a_path_parameter_answers_404(published, path, character):
    client = Client(raise_request_exception=False)
    response = client.get(path.format(slug=SLUG, x=f"ab{character}cd"))
    assert response.status_code == 404
    if path.startswith("/api/"):
        # As documented for the API (schemathesis checks it): JSON, not the site's page.
        assert response.json() == {"detail": "Not Found"}


def test_a_path_without_control_characters_still_reaches_its_view(published):
    assert Client().get(f"/api/v1/championships/{SLUG}").status_code == 200
