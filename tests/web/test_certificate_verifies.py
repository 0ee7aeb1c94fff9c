"""Certificates that verify themselves (issue 29): each carries a QR code to the verification
page with the code of the winner's result in the event's signed package."""

from __future__ import annotations

import re
from urllib.parse import unquote, urlsplit

import pytest
from django.test import Client

from puzzlecomp.championships.models import Championship, ResultsPackage, Role
from puzzlecomp.championships.selectors.standings import event_standings_get
from tests.standings_support import played_championship


@pytest.fixture(autouse=True)
def signing_key(settings, tmp_path):
    settings.RESULTS_KEY_FILE = tmp_path / "results-signing-key"


@pytest.fixture
def played(db) -> Championship:
    return played_championship(individuals=40)


def test_a_certificates_qr_code_opens_the_verification_of_its_result(played, client_as):
    organiser = client_as(played, Role.ORGANISER)
    found = event_standings_get(event=played.events.get(code="individual"))
    winner = found.award_rows(public=False)[0]
    url = f"/control/{played.slug}/standings/individual/certificates/overall/{winner.entry}.pdf"
    pdf = organiser.get(url).content
    links = re.findall(rb"/URI \((http[^)]*/verify/\?code=[0-9a-f]{64})\)", pdf)
    assert len(links) == 1
    package = ResultsPackage.objects.get(championship=played, event_code="individual")
    # Printing again, nothing changed: the same package, the same code.
    organiser.get(url)
    assert ResultsPackage.objects.filter(championship=played).count() == 1
    target = urlsplit(unquote(links[0].decode()))
    page = Client().get(f"{target.path}?{target.query}").content.decode()
    assert 'data-verdict="valid"' in page
    assert f"#{winner.entry}" in page
    code = target.query.removeprefix("code=")
    assert package.results.filter(code=code, entry_number=winner.entry,
                                  round_code=found.prizes.round_id).exists()
