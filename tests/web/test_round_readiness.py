"""A round that is not ready says what it lacks in the organiser's words, on every page and in
the API: never a 500, never a command-line option; and it does not start until it is ready."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from puzzlecomp.championships.models import Puzzle, Role, Round, RoundState
from tests.support import url_routes
from tests.web.test_groups import add_entries

NO_LIMIT = "The ruleset names no time limit for this round"
NO_PIECES = "The ruleset names no puzzle size for this round"


@pytest.fixture
def australian(make_championship) -> Round:
    """australia-state-national.txt names no time limit or puzzle size: a planned final with
    entrants and neither given yet."""
    championship = make_championship("australia-state")
    championship.published = True
    championship.save()
    rnd = Round.objects.get(event__championship=championship, event__code="individual",
                            code="final")
    add_entries(rnd.event, {"AU": 4})
    return rnd


def live_url(name: str, rnd: Round, *args: object) -> str:
    return reverse(f"control:live:{name}", args=[rnd.event.championship.slug, rnd.pk, *args])


def text(response) -> str:
    return html.unescape(response.content.decode())


@pytest.mark.parametrize("page", ["round", "map", "entries", "disputes"])
def test_every_head_judge_page_of_a_round_without_a_time_limit_says_what_is_missing(
        client_as, australian, page):
    head_judge = client_as(australian.event.championship, Role.HEAD_JUDGE)
    response = head_judge.get(live_url(page, australian))
    assert response.status_code == 200
    assert NO_LIMIT in text(response)
    assert NO_PIECES in text(response)
    assert "--time-limit" not in text(response)


def test_the_head_judges_live_data_of_a_round_without_a_time_limit_answers(client_as,
                                                                           australian):
    head_judge = client_as(australian.event.championship, Role.HEAD_JUDGE)
    response = head_judge.get(live_url("state", australian))
    assert response.status_code == 200
    assert response.json()["clock"]["limit_seconds"] is None


def test_a_round_that_is_not_ready_does_not_start_and_says_why(client_as, australian):
    head_judge = client_as(australian.event.championship, Role.HEAD_JUDGE)
    waiting = text(head_judge.get(live_url("round", australian)))
    assert live_url("move", australian, "running") not in waiting
    assert "The round can start once it has what is listed above." in waiting
    confirm = head_judge.get(live_url("move", australian, "running"))
    assert NO_LIMIT in text(confirm)
    response = head_judge.post(live_url("move", australian, "running"), follow=True)
    assert NO_LIMIT in text(response)
    assert NO_PIECES in text(response)
    australian.refresh_from_db()
    assert australian.state == RoundState.PLANNED

    australian.time_limit_minutes = 120
    australian.save(update_fields=["time_limit_minutes"])
    Puzzle.objects.filter(round=australian).update(pieces=1000)
    page = text(head_judge.get(live_url("round", australian)))
    assert NO_LIMIT not in page
    assert "Not ready to start" not in page
    assert live_url("move", australian, "running") in page
    head_judge.post(live_url("move", australian, "running"))
    australian.refresh_from_db()
    assert australian.state == RoundState.RUNNING


def test_the_public_page_and_the_api_say_what_is_missing_in_words(client, australian):
    slug = australian.event.championship.slug
    page = client.get(reverse("public:live:round", args=[slug, australian.pk]))
    assert page.status_code == 200
    assert NO_LIMIT in text(page)

    ranking = client.get(f"/api/v1/championships/{slug}/rounds/{australian.pk}/ranking")
    assert ranking.status_code == 422
    body = ranking.json()
    assert [v["code"] for v in body["violations"]] == ["round.time_limit_required",
                                                       "round.pieces_required"]
    assert NO_LIMIT in body["detail"]
    assert "--" not in body["detail"]

    clock = client.get(f"/api/v1/championships/{slug}/rounds/{australian.pk}/clock")
    assert clock.status_code == 200
    assert clock.json()["limit_seconds"] is None
    listed = client.get(f"/api/v1/championships/{slug}").json()
    final = next(r for e in listed["events"] if e["code"] == "individual" for r in e["rounds"])
    assert final["time_limit_seconds"] is None


def test_the_messages_are_translated(client_as, australian):
    head_judge = client_as(australian.event.championship, Role.HEAD_JUDGE)
    page = text(head_judge.get(live_url("round", australian), headers={"accept-language": "cs"}))
    assert NO_LIMIT not in page
    assert "--time-limit" not in page


def test_no_page_of_a_championship_whose_round_lacks_its_time_limit_fails(client, client_as,
                                                                           australian):
    """Every organiser page and every public page of the championship, with the round, its
    event and its entries filled in, answers without a server error."""
    championship = australian.event.championship
    owner = client_as(championship, Role.OWNER)
    values = {"slug": championship.slug, "round_id": australian.pk, "event": "individual",
              "event_code": "individual", "round": "final", "fmt": "csv", "number": 1,
              "to": "running", "position": 0}
    walked = 0
    for route in url_routes():
        if not route.startswith(("control/<slug:slug>/", "c/<slug>/", "c/<slug:slug>/")):
            continue
        url = "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(values.get(m[1], 1)), route)
        for reader in (owner, client):
            response = reader.get(url)
            assert response.status_code < 500, url
        walked += 1
    assert walked > 40
