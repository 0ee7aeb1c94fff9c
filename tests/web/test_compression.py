"""Public pages travel gzipped over a hall's Wi-Fi; pages with a visitor's secrets never do
(BREACH: web/compression.py)."""

from __future__ import annotations

import gzip

from django.urls import reverse

from puzzlecomp.championships.models import Role
from tests.support import round_of

GZIP = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br"}


def test_an_anonymous_results_page_is_gzipped(client, championship):
    rnd = round_of(championship, "individual", "first")
    response = client.get(reverse("public:live:round", args=[championship.slug, rnd.pk]), **GZIP)
    assert response.status_code == 200
    assert response["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in response["Vary"]
    assert b"</html>" in gzip.decompress(response.content)


def test_a_signed_in_page_is_not_compressed(client_as, championship):
    rnd = round_of(championship, "individual", "first")
    client = client_as(championship, Role.ORGANISER)
    for address in (reverse("public:live:round", args=[championship.slug, rnd.pk]),
                    reverse("control:live:index", args=[championship.slug])):
        response = client.get(address, **GZIP)
        assert response.status_code == 200
        assert not response.has_header("Content-Encoding")


def test_a_registration_form_is_not_compressed(client, championship):
    response = client.get(reverse("public:registration:index", args=[championship.slug]),
                          **GZIP)
    assert response.status_code == 200
    assert not response.has_header("Content-Encoding")


def test_public_standings_rankings_and_records_are_gzipped(client, championship):
    """Issue 24: the public standings (356 KB) and the rankings travelled uncompressed."""
    for address in (reverse("public:standings:index", args=[championship.slug]),
                    reverse("public:people:rankings"), reverse("public:people:records")):
        response = client.get(address, **GZIP)
        assert response.status_code == 200, address
        assert response["Content-Encoding"] == "gzip", address
