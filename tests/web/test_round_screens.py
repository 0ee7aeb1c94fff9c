"""How a round unfolds (charts), the stream's overlays and the hall projector's scenes.

All are drawn on the server from the round's snapshot, so the HTML itself carries them.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from puzzlecomp.championships.models import (
    AuditEntry,
    Notice,
    ProjectorScene,
    Role,
    Round,
    RoundState,
)
from puzzlecomp.championships.services.projector import projector_scene_set
from puzzlecomp.championships.services.rounds import round_state_set
from puzzlecomp.live.snapshot import snapshot_cache_clear
from tests.live.entries import enter, finish
from tests.support import round_of


@pytest.fixture(autouse=True)
def _fresh_snapshots():
    snapshot_cache_clear()
    cache.clear()


@pytest.fixture
def running(championship) -> Round:
    """WJPC 2025 individual first round, running: three finishers in A, one in B, and Carla,
    who did not consent to publication, finished fastest of all."""
    rnd = round_of(championship, "individual", "first")
    round_state_set(round=rnd, state=RoundState.RUNNING,
                    starts_at=timezone.now() - dt.timedelta(minutes=90))
    finish(rnd, enter(rnd, 1, "Ana Novak", "CZ", table=1), 3000)
    finish(rnd, enter(rnd, 2, "Ben Berg", "NO", table=2), 3300)
    finish(rnd, enter(rnd, 3, "Carla Garcia", "ES", table=3, consent=False), 2700)
    enter(rnd, 4, "Dan Smith", "US", table=4)
    finish(rnd, enter(rnd, 5, "Filip Meyer", "DE", group="B", table=1), 3600)
    return rnd


def get(client, name: str, *args, **query) -> str:
    response = client.get(reverse(f"public:live:{name}", args=args), query)
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def charts_of(html: str) -> list[str]:
    return re.findall(r"<svg[^>]*>.*?</svg>", html, re.S)


def test_the_round_page_draws_three_charts_each_with_a_title_and_a_description(client,
                                                                                running):
    html = get(client, "round", running.event.championship.slug, running.pk)
    charts = charts_of(html)
    assert len(charts) == 3
    for svg in charts:
        assert 'role="img"' in svg
        assert re.search(r"<title [^>]*>[^<]+</title><desc [^>]*>[^<]+</desc>", svg)
        # The content security policy forbids inline styles: colours come from classes.
        assert "style=" not in svg
    assert "4 of 5 entrants have finished. Group A: 3, Group B: 1." in html
    assert "Fastest 45:00, median 52:30, slowest 1:00:00." in html


def test_the_finishers_chart_has_one_line_per_group(client, running):
    html = get(client, "charts", running.event.championship.slug, running.pk)
    finishers = charts_of(html)[0]
    assert len(re.findall(r'<path d="[^"]+" class="chart-line chart-series-\d"', finishers)) == 2


def test_an_entrants_page_charts_their_place_through_the_round(client, running):
    slug = running.event.championship.slug
    html = get(client, "entrant", slug, running.event.code, 2)
    assert "Place through the round" in html
    # Ben finished last of group A's three: third at the end, never better.
    assert "Place 3 at the end; best place 3." in html
    part = get(client, "entrant_charts", slug, running.event.code, 2)
    assert charts_of(part)
    assert f'data-follow-round="{running.pk}"' in part


@pytest.mark.parametrize("kind", ["clock", "latest", "top", "podium"])
def test_every_overlay_is_a_transparent_page_that_withholds_unpublished_names(client, running,
                                                                            kind):
    html = get(client, "overlay", running.event.championship.slug, running.pk, kind)
    assert 'class="screen screen-overlay' in html
    assert "Carla" not in html
    assert "Garcia" not in html
    if kind != "clock":
        assert "Name not published" in html


def test_the_latest_finishes_come_latest_first(client, running):
    html = get(client, "overlay", running.event.championship.slug, running.pk, "latest")
    assert re.findall(r'data-entry="(\d+)"', html) == ["5", "2", "1", "3"]
    # Listed by time of finish, so the number beside each is named as their place.
    places = re.findall(r'<span class="place">([^<]*)</span>', html)
    assert any(places)
    assert all(place.startswith("Place ") for place in places if place)


def test_the_top_overlay_shows_n_of_one_group(client, running):
    html = get(client, "overlay", running.event.championship.slug, running.pk, "top",
               group="A", n="2")
    assert re.findall(r'data-entry="(\d+)"', html) == ["3", "1"]


def test_a_lower_third_shows_one_entrant_and_refuses_an_unknown_number(client, running):
    slug = running.event.championship.slug
    html = get(client, "overlay", slug, running.pk, "lower-third", entry="1")
    assert "Ana Novak" in html
    assert "Place 2" in html
    assert "50:00" in html
    address = reverse("public:live:overlay", args=[slug, running.pk, "lower-third"])
    assert client.get(address, {"entry": "99"}).status_code == 404
    assert client.get(address, {"entry": "x"}).status_code == 404
    assert client.get(reverse("public:live:overlay", args=[slug, running.pk, "nothing"]),
                      ).status_code == 404


def test_an_overlay_fragment_is_the_part_its_script_puts_in_place(client, running):
    html = get(client, "overlay", running.event.championship.slug, running.pk, "clock",
               part="1")
    assert "<html" not in html
    assert "data-clock-box" in html
    assert f'data-follow-round="{running.pk}"' in html


def test_switching_the_scene_is_audited_and_announced(running):
    championship = running.event.championship
    before = championship.live_seq
    projector_scene_set(championship=championship, scene=ProjectorScene.PODIUM, round=running)
    championship.refresh_from_db()
    assert championship.projector_scene == ProjectorScene.PODIUM
    notice = Notice.objects.get(championship=championship, seq=before + 1)
    assert (notice.kind, notice.round_id) == ("scene", None)
    assert AuditEntry.objects.filter(championship=championship,
                                     action="puzzlecomp.projector.scene_set").exists()


def test_a_round_of_another_championship_cannot_be_put_on_the_projectors(running,
                                                                         make_championship):
    other = make_championship("wjpc-2025")
    with pytest.raises(ValueError, match="another championship"):
        projector_scene_set(championship=other, scene=ProjectorScene.CLOCK, round=running)


def test_the_hall_projector_shows_the_scene_the_head_judge_chose(client, client_as, running):
    championship = running.event.championship
    head_judge = client_as(championship, Role.HEAD_JUDGE)
    address = reverse("control:live:projector_scene", args=[championship.slug])
    head_judge.post(address, {"scene": "message", "message": "Lunch until 13:00"})
    assert "Lunch until 13:00" in get(client, "hall", championship.slug)

    head_judge.post(address, {"scene": "podium", "round": running.pk})
    html = get(client, "hall", championship.slug)
    assert 'data-scene="podium"' in html
    assert "podium-1" in html
    assert "Carla" not in html

    head_judge.post(address, {"scene": "qualifiers", "round": running.pk})
    assert 'data-scene="qualifiers"' in get(client, "hall", championship.slug)


def test_a_scene_without_its_round_or_message_is_refused(client_as, running):
    championship = running.event.championship
    address = reverse("control:live:projector_scene", args=[championship.slug])
    head_judge = client_as(championship, Role.HEAD_JUDGE)
    head_judge.post(address, {"scene": "results"})
    head_judge.post(address, {"scene": "message"})
    championship.refresh_from_db()
    assert championship.projector_scene == ProjectorScene.CLOCK


def test_a_judge_may_not_switch_the_projectors(client_as, running):
    championship = running.event.championship
    address = reverse("control:live:projector_scene", args=[championship.slug])
    response = client_as(championship, Role.JUDGE).post(address, {"scene": "message",
                                                                  "message": "Hi"})
    assert response.status_code == 403
    championship.refresh_from_db()
    assert championship.projector_message == ""


def scene_post(client, championship, **data) -> None:
    response = client.post(reverse("control:live:projector_scene", args=[championship.slug]),
                           data)
    assert response.status_code == 302


def test_the_projectors_show_one_group_of_the_round_the_head_judge_chose(client, client_as,
                                                                         running):
    championship = running.event.championship
    head_judge = client_as(championship, Role.HEAD_JUDGE)
    scene_post(head_judge, championship, scene="results", round=running.pk, group="B")
    html = get(client, "hall", championship.slug)
    assert html.count("Group B") == 1  # in the title, not again above the rows
    assert re.findall(r'data-entry="(\d+)"', html) == ["5"]
    scene_post(head_judge, championship, scene="results", round=running.pk, group="")
    assert re.findall(r'data-entry="(\d+)"', get(client, "hall", championship.slug)) == [
        "3", "1", "2", "5"]


def test_a_group_the_round_does_not_have_is_refused(client_as, running):
    championship = running.event.championship
    scene_post(client_as(championship, Role.HEAD_JUDGE), championship, scene="results",
               round=running.pk, group="Z")
    championship.refresh_from_db()
    assert (championship.projector_scene, championship.projector_group) == (
        ProjectorScene.CLOCK, "")


def test_a_message_leaves_the_projectors_with_its_scene(client, client_as, running):
    championship = running.event.championship
    head_judge = client_as(championship, Role.HEAD_JUDGE)
    scene_post(head_judge, championship, scene="clock", round=running.pk,
               message="Lunch until 13:00")
    assert "Lunch until 13:00" in get(client, "hall", championship.slug)
    # The control page offers the next scene without it: switching clears it.
    form = head_judge.get(reverse("control:live:index", args=[championship.slug]))
    assert form.context["scene_form"]["message"].value() in (None, "")
    scene_post(head_judge, championship, scene="results", round=running.pk)
    assert "Lunch until 13:00" not in get(client, "hall", championship.slug)
    scene_post(head_judge, championship, scene="podium", round=running.pk,
               message="Lunch until 13:00")
    assert "Lunch until 13:00" in get(client, "hall", championship.slug)


def test_the_control_page_says_what_the_hall_shows_now(client_as, running):
    championship = running.event.championship
    head_judge = client_as(championship, Role.HEAD_JUDGE)
    scene_post(head_judge, championship, scene="qualifiers", round=running.pk, group="A",
               message="Semifinal at 16:00")
    html = head_judge.get(reverse("control:live:index", args=[championship.slug])).content.decode()
    now = html[html.index("data-projector-now"):]
    assert re.search(r'data-now="scene">Qualifiers<', now)
    assert re.search(r'data-now="round">Individual · First round<', now)
    assert re.search(r'data-now="group">Group A<', now)
    assert "Semifinal at 16:00" in now


def line(entry: int, group: str, qualified: dict | None) -> dict:
    return {"entry": entry, "name": f"Entrant {entry}", "group": group, "status": "finished",
            "time_seconds": 3000, "final_seconds": 3000, "rank": entry, "qualified": qualified}


def test_the_qualifiers_scene_lists_only_those_going_on_and_the_confirmed_once_confirmed():
    from puzzlecomp.public.live.broadcast import qualifiers
    from puzzlecomp.public.live.display import page_words

    words = page_words(next_round="Semifinal")
    forecast = {"to_group": "", "reason": "place"}
    data = {"round": {"groups": ["A", "B"]},
            "lines": [line(1, "A", forecast), line(2, "A", None), line(3, "B", forecast)]}
    shown = qualifiers(data, words)
    assert [[r.entry for r in g.rows] for g in shown] == [[1], [3]]
    assert not any(r.qualification.confirmed for g in shown for r in g.rows)
    assert [[r.entry for r in g.rows] for g in qualifiers(data, words, group="B")] == [[3]]
    # Once the organiser confirmed, a forecast no longer stands beside the confirmed.
    data["lines"][0]["qualified"] = {**forecast, "confirmed": "1"}
    assert [[r.entry for r in g.rows] for g in qualifiers(data, words)] == [[1]]


def test_the_qualifiers_scene_says_a_forecast_is_expected(client, client_as, running):
    championship = running.event.championship
    scene_post(client_as(championship, Role.HEAD_JUDGE), championship, scene="qualifiers",
               round=running.pk, group="A")
    html = get(client, "hall", championship.slug)
    assert "expected, not yet confirmed" in html
    assert re.findall(r'data-entry="(\d+)"', html) == ["3", "1", "2"]


def test_the_clock_scene_says_which_group_is_at_the_tables(client, client_as, championship):
    from puzzlecomp.championships.services.rounds import group_start

    rnd = round_of(championship, "individual", "first")
    enter(rnd, 1, "Ana Novak", "CZ", table=1)
    enter(rnd, 2, "Filip Meyer", "DE", group="B", table=1)
    group_start(round=rnd, group="B")
    scene_post(client_as(championship, Role.HEAD_JUDGE), championship, scene="clock",
               round=rnd.pk)
    html = get(client, "hall", championship.slug)
    assert "Group B is at the tables" in html
    assert "Waiting to start: groups A, C, D, E, F" in html
    # The clock overlay of the whole round says it too.
    assert "Group B is at the tables" in get(client, "overlay", championship.slug, rnd.pk,
                                             "clock")


def test_the_qualifiers_scene_of_a_final_says_it_is_the_final(client, championship):
    """Issue 24 (review): the Qualifiers scene of a final said "No qualifiers yet"."""
    final = Round.objects.filter(event__championship=championship,
                                 event__code="individual").order_by("-position").first()
    projector_scene_set(championship=championship, scene=ProjectorScene.QUALIFIERS,
                        round=final)
    html = get(client, "hall", championship.slug)
    assert "This is the final: nobody qualifies from it." in html
    assert "No qualifiers yet" not in html


def test_no_message_reads_in_czech_as_a_message_none(client_as, running):
    """Issue 24 (review): "Zpráva: žádné" (the message is feminine): "žádná"."""
    championship = running.event.championship
    head_judge = client_as(championship, Role.HEAD_JUDGE)
    html = head_judge.get(reverse("control:live:index", args=[championship.slug]),
                          headers={"Accept-Language": "cs"}).content.decode()
    now = html[html.index('data-now="message"'):]
    assert now[:now.index("</dd>")].endswith('<span class="muted">žádná</span>')


def test_a_refused_switch_keeps_what_the_head_judge_filled_in(client_as, running):
    """Issue 24 (review): a refused switch threw the input away and named "First round"
    without its event; each round's own groups come with the form for its script."""
    championship = running.event.championship
    other = Round.objects.filter(event__championship=championship).exclude(pk=running.pk)[0]
    other.groups = ["Z"]
    other.save(update_fields=["groups"])
    head_judge = client_as(championship, Role.HEAD_JUDGE)
    response = head_judge.post(
        reverse("control:live:projector_scene", args=[championship.slug]),
        {"scene": "results", "round": running.pk, "group": "Z",
         "message": "Group C starts at 15:00"}, follow=True)
    html = response.content.decode()
    assert "Individual · First round has no group Z." in html
    form = response.context["scene_form"]
    assert form["message"].value() == "Group C starts at 15:00"
    assert str(form["scene"].value()) == "results"
    assert str(form["round"].value()) == str(running.pk)
    assert form.round_groups[str(running.pk)] == running.groups
    # The next visit shows the projectors as they stand again.
    again = head_judge.get(reverse("control:live:index", args=[championship.slug]))
    assert again.context["scene_form"]["message"].value() in (None, "")
