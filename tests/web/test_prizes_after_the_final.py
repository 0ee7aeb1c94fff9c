"""No title or prize money before the final is final (wjpc-2025.txt, Individual Final: the World
Champion is decided in the final; Prizes: the ceremony follows the finals): the organiser's and
the public's pages, the ceremony papers and the API say which round is still to come."""

from __future__ import annotations

import html

import pytest
from django.test import Client

from puzzlecomp.championships.demo import DEMO_SLUG, demo_load
from puzzlecomp.championships.models import Championship, Role, Round, RoundState
from puzzlecomp.championships.services.rounds import round_state_set
from tests.standings_support import played_championship

pytestmark = pytest.mark.django_db
STILL_TO_COME = "titles and prizes are decided by the round “Final”, which is not final yet"


def page(client: Client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def final_of(championship: Championship) -> Round:
    return Round.objects.get(event__championship=championship, event__code="individual",
                             code="final")


def test_the_demos_public_standings_name_no_prize_for_a_first_round_leader():
    """wjpc-2025.txt, Prizes: the demo has played its first round only; its leader is no
    champion yet, so no trophy and no euro is shown, and the page says the final is to come."""
    demo_load(individuals=60, pairs=8, teams=4)
    public = page(Client(), f"/c/{DEMO_SLUG}/standings/individual/")
    assert "Trophy" not in public
    assert "EUR" not in public
    assert STILL_TO_COME in public
    api = Client().get(f"/api/v1/championships/{DEMO_SLUG}/events/individual/awards").json()
    assert (api["provisional"], api["prize_round"], api["lines"]) == (True, "final", [])
    standings = Client().get(
        f"/api/v1/championships/{DEMO_SLUG}/events/individual/standings").json()
    assert (standings["provisional"], standings["prize_round"]) == (True, "final")
    assert standings["lines"][0]["place"] == 1


def test_a_published_final_still_open_to_disputes_names_no_prize(client_as):
    """wjpc-2025.txt, Individual Final: the final's results are only final once its disputes
    are over; until then the awards page, the public page and the papers name no prize."""
    played = played_championship()
    round_state_set(round=final_of(played), state=RoundState.PUBLISHED)
    organiser = client_as(played, Role.ORGANISER)
    base = f"/control/{played.slug}/standings/individual/"
    awards = page(organiser, base + "awards/")
    assert STILL_TO_COME in awards
    assert "2,000 EUR" not in awards
    assert STILL_TO_COME in page(organiser, base)
    for paper in ("ceremony.pdf", "certificates.pdf"):
        response = organiser.get(base + paper)
        assert response.status_code == 302
        assert response["Location"].endswith("/awards/")
    public = page(Client(), f"/c/{played.slug}/standings/individual/")
    assert "Trophy" not in public
    assert STILL_TO_COME in public


def test_once_the_final_is_final_the_prizes_and_the_papers_come(client_as):
    """wjpc-2025.txt, Prizes: individual 1st place trophy and EUR 2,000, once the final is."""
    played = played_championship()
    organiser = client_as(played, Role.ORGANISER)
    awards = page(organiser, f"/control/{played.slug}/standings/individual/awards/")
    assert "Trophy · 2,000 EUR" in awards
    assert STILL_TO_COME not in awards
    ceremony = organiser.get(f"/control/{played.slug}/standings/individual/ceremony.pdf")
    assert ceremony["Content-Type"] == "application/pdf"
    api = Client().get(f"/api/v1/championships/{played.slug}/events/individual/awards").json()
    assert api["provisional"] is False
    assert api["lines"][0]["money"] == 2000


def test_the_czech_page_speaks_czech_about_the_round_to_come():
    demo_load(individuals=60, pairs=8, teams=4)
    public = page(Client(HTTP_ACCEPT_LANGUAGE="cs"), f"/c/{DEMO_SLUG}/standings/individual/")
    assert 'id="prizes-to-come"' in public
    assert "Trophy" not in public


def test_a_final_round_with_no_results_names_no_champion(client_as):
    """wjpc-2025.txt, Individual Final: the champion is the winner of the final. A final in the
    state final whose results are gone decides nothing: the semifinalists get no title or
    money, and the pages say the final is still to come."""
    played = played_championship()
    final_of(played).results.all().delete()
    organiser = client_as(played, Role.ORGANISER)
    awards = page(organiser, f"/control/{played.slug}/standings/individual/awards/")
    assert STILL_TO_COME in awards
    assert "2,000 EUR" not in awards
    api = Client().get(f"/api/v1/championships/{played.slug}/events/individual/awards").json()
    assert (api["provisional"], api["lines"]) == (True, [])
