"""The 403, 404 and 500 pages carry the site's header, the reader's language and a link home:
a judge who mistypes an address, or meets a server error, is never left on a bare page."""

from __future__ import annotations

import pytest
from django.http import HttpRequest
from django.test import Client
from django.urls import include, path

from puzzlecomp.championships.models import Role

pytestmark = pytest.mark.django_db


def broken(request: HttpRequest) -> None:
    raise RuntimeError("a fault inside a view")


urlpatterns = [path("broken/", broken), path("", include("puzzlecomp.web.urls"))]
handler500 = "puzzlecomp.web.error_pages.server_error"


def test_a_missing_page_has_the_header_a_link_home_and_the_readers_language():
    response = Client(headers={"accept-language": "cs"}).get("/no-such-page/")
    assert response.status_code == 404
    html = response.content.decode()
    assert '<html lang="cs">' in html
    assert 'class="brand" href="/"' in html
    assert "Stránka nenalezena" in html
    assert 'href="/">Přejít na mistrovství</a>' in html


def test_a_page_without_the_role_says_so_in_the_sites_frame(championship, client_as):
    response = client_as(championship, Role.JUDGE).get(f"/control/{championship.slug}/setup/")
    assert response.status_code == 403
    html = response.content.decode()
    assert 'class="brand" href="/"' in html
    assert "Not allowed" in html


def test_a_server_error_page_has_the_header_and_a_link_home_without_touching_the_request(
        settings):
    settings.ROOT_URLCONF = __name__
    client = Client(raise_request_exception=False, headers={"accept-language": "nb"})
    response = client.get("/broken/")
    assert response.status_code == 500
    html = response.content.decode()
    assert '<html lang="nb">' in html
    assert 'class="brand" href="/"' in html
    assert "Noe gikk galt" in html
    assert "a fault inside a view" not in html


def test_a_500_page_that_cannot_be_drawn_is_answered_plainly(settings, monkeypatch):
    """Static files not collected (a manifest entry missing) must not turn the error page
    itself into a crash."""
    settings.ROOT_URLCONF = __name__

    def missing(name: str) -> None:
        raise ValueError("Missing staticfiles manifest entry")

    monkeypatch.setattr("puzzlecomp.web.error_pages.loader.get_template", missing)
    response = Client(raise_request_exception=False).get("/broken/")
    assert response.status_code == 500
    assert b"Something went wrong" in response.content
