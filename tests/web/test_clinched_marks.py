"""While a round runs, each qualification mark says whether the place is already certain
(clinched: "qualified") or only expected, in the snapshot lines, on the public results, the
entrant's page and the organiser's qualifiers page."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from puzzlecomp.championships.models import (
    Championship,
    Entry,
    Result,
    Role,
    Round,
    RoundState,
    Seat,
)
from puzzlecomp.championships.services.groups import groups_assign
from puzzlecomp.championships.services.qualifiers import qualifiers_confirm
from puzzlecomp.championships.services.rounds import round_state_set
from puzzlecomp.championships.services.seating import seating_assign
from puzzlecomp.live.snapshot import round_snapshot_cached, snapshot_cache_clear
from tests.web.test_groups import add_entries
from tests.web.test_live_control import START, finish

pytestmark = pytest.mark.usefixtures("clock")


@pytest.fixture(autouse=True)
def _fresh_snapshots():
    snapshot_cache_clear()


@pytest.fixture
def czech(make_championship) -> Round:
    """The Czech qualification, group A running: 8 foreign (Slovak) entrants, 6 finished one
    after another and 2 still puzzling; the Czech entrants all finished."""
    championship = make_championship("czech-championship")
    Championship.objects.filter(pk=championship.pk).update(floor_rows=[10, 10, 10],
                                                           published=True)
    rnd = Round.objects.get(event__championship=championship, event__code="individual",
                            code="qualification")
    add_entries(rnd.event, {"CZ": 6, "SK": 16})
    groups_assign(round=rnd, seed=2)
    seating_assign(round=rnd)
    round_state_set(round=rnd, state=RoundState.RUNNING, starts_at=START)
    group_a = [s.entry for s in Seat.objects.filter(round=rnd, group="A")
               .select_related("entry").order_by("entry__number")]
    slovaks = [e for e in group_a if e.country == "SVK"]
    assert len(slovaks) == 8
    for place, entry in enumerate(slovaks[:6]):
        finish(rnd, entry, 2000 + 60 * place)
    for entry in group_a:
        if entry.country == "CZE":
            finish(rnd, entry, 3000 + entry.number)
    return rnd


def lines_of(rnd: Round) -> dict[int, dict]:
    return {line["entry"]: line for line in json.loads(round_snapshot_cached(rnd).body)["lines"]}


def slovak_order(rnd: Round) -> list[int]:
    return [e.number for e in Entry.objects.filter(event=rnd.event, group="A", country="SVK")
            .order_by("number")][:6]


def test_foreign_places_no_one_still_puzzling_can_take_are_clinched(czech):
    """czech-championship.txt, Qualification: the 5 fastest foreign competitors of each group
    advance (a maximum). With 2 foreigners still puzzling, the 3 fastest are certain, the 4th
    and 5th only expected, and the 6th, behind 5 foreigners already, is out; a Czech entrant
    is certain among 50 places."""
    lines = lines_of(czech)
    order = slovak_order(czech)
    assert [lines[n]["certainty"] for n in order] == [
        "clinched", "clinched", "clinched", "provisional", "provisional", "out"]
    assert [bool(lines[n]["qualified"]) for n in order] == [True] * 5 + [False]
    czech_entrants = [n for n, line in lines.items() if line["flag"] == "CZE"
                      and line["group"] == "A"]
    assert czech_entrants
    assert {lines[n]["certainty"] for n in czech_entrants} == {"clinched"}


def test_foreigners_passed_by_the_last_finishers_are_out(czech):
    """czech-championship.txt: a maximum of 5 foreign competitors from each group; the two
    still puzzling finish first and take two of the places."""
    puzzling = [s.entry for s in Seat.objects.filter(round=czech, group="A")
                .select_related("entry") if not s.entry.results.exists()]
    for entry in puzzling:
        finish(czech, entry, 1000 + entry.number)
    snapshot_cache_clear()
    lines = lines_of(czech)
    order = slovak_order(czech)
    assert [lines[n]["certainty"] for n in order] == [
        "clinched", "clinched", "clinched", "out", "out", "out"]


def test_the_results_page_marks_clinched_places_qualified_with_a_legend(client, czech):
    page = client.get(reverse("public:live:round", args=[czech.event.championship.slug,
                                                         czech.pk])).content.decode()
    assert page.count('class="clinched"') >= 4  # three foreigners, Czechs and the legend
    assert "Certain whatever the entrants still puzzling and the pending checks do." in page
    assert '<span class="expected"' in page
    czech_page = client.get(reverse("public:live:round", args=[
        czech.event.championship.slug, czech.pk]), headers={"accept-language": "cs"})
    assert "✓ postupuje" in czech_page.content.decode()


def test_the_organisers_qualifiers_page_shows_where_everyone_stands(czech, client_as):
    organiser = client_as(czech.event.championship, Role.ORGANISER)
    page = organiser.get(reverse("control:rounds:qualifiers", args=[
        czech.event.championship.slug, czech.pk])).content.decode()
    assert 'id="standing-lines"' in page
    assert page.count('class="certainty-clinched"') >= 3
    assert page.count('class="certainty-provisional"') == 2
    assert page.count('class="certainty-out"') >= 1


def test_confirmed_qualifiers_carry_no_certainty_mark(czech):
    remaining = [s.entry for s in Seat.objects.filter(round=czech).select_related("entry")
                 if not s.entry.results.exists()]
    for entry in remaining:
        finish(czech, entry, 4000 + entry.number)
    for state in (RoundState.COUNTING, RoundState.PROVISIONAL, RoundState.PUBLISHED):
        round_state_set(round=czech, state=state)
    qualifiers_confirm(round=czech, knowingly=True)
    snapshot_cache_clear()
    assert {line["certainty"] for line in lines_of(czech).values()} == {None}


def test_a_finish_awaiting_its_check_keeps_its_place_expected_until_checked(championship):
    """wjpc-2025.txt, Teams First Round: the first 25 teams of each group go to the final;
    Time Recording and Piece Count: 5 s per missing piece, none for contiguous ones. Team 25's
    4 missing pieces, recorded as one cluster, await the judge's check: if none is contiguous
    they cost 20 s and team 26, 10 s behind, passes it."""
    rnd = Round.objects.get(event__championship=championship, event__code="teams",
                            code="first")
    for number in range(1, 27):
        entry = Entry.objects.create(event=rnd.event, number=number, name=f"Team {number}",
                                     country="ESP", group="A", status="confirmed")
        Result.objects.create(round=rnd, entry=entry, status="finished",
                              time_seconds=3000 + 10 * number,
                              missing=4 if number == 25 else 0,
                              missing_contiguous=4 if number == 25 else 0,
                              checked=number != 25)
    lines = lines_of(rnd)
    assert (lines[24]["certainty"], lines[25]["certainty"]) == ("clinched", "provisional")
    assert lines[25]["qualified"]["reason"] == "place"
    Result.objects.filter(round=rnd, entry__number=25).update(checked=True)
    snapshot_cache_clear()
    assert lines_of(rnd)[25]["certainty"] == "clinched"
