"""Issue 30: an archived edition is never given an invented date. The published results carry
the year alone, so pages, the API and the championship file show the year alone, unless an
editions file gives the first day with the source that publishes it (docs/archive.md)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from puzzlecomp.championships.models import Championship, Round
from puzzlecomp.championships.services.interchange import championship_export
from puzzlecomp.formats.archive_sizes import read_edition_dates
from puzzlecomp.formats.results_csv import InputError
from tests.web.test_archive_truth import imported


@pytest.mark.django_db
def test_an_undated_edition_shows_its_year_alone_on_pages_api_and_file(client):
    imported()
    c2024 = Championship.objects.get(slug="wjpc-2024")
    assert c2024.date_known is False
    assert not Round.objects.filter(event__championship=c2024,
                                    published_at__isnull=False).exists()
    for path in (reverse("public:championship", args=["wjpc-2024"]), reverse("public:home")):
        html = client.get(path).content.decode()
        assert "2024" in html
        assert "Jan" not in html
    api = client.get("/api/v1/championships/wjpc-2024").json()
    assert (api["starts_at"], api["year"]) == (None, 2024)
    assert all(r["published_at"] is None for e in api["events"] for r in e["rounds"])
    assert championship_export(c2024)["championship"]["date_known"] is False


@pytest.mark.django_db
def test_an_editions_file_dates_an_edition_only_with_its_source(client):
    text = ('[[editions]]\nyear = 2024\nstarts = 2024-09-19\n'
            'source = "the organiser\'s published programme"\n')
    imported(dates=read_edition_dates(text, source="editions.toml"))
    c2024 = Championship.objects.get(slug="wjpc-2024")
    assert c2024.date_known is True
    assert c2024.starts_at.date() == dt.date(2024, 9, 19)
    assert Championship.objects.get(slug="wjpc-2023").date_known is False
    with pytest.raises(InputError) as refused:
        read_edition_dates("[[editions]]\nyear = 2024\nstarts = 2024-09-19\n",
                           source="editions.toml")
    assert "editions.toml" in str(refused.value)
    assert "source" in str(refused.value)
