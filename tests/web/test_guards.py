"""Guards of the championship day: drawing groups or seating again asks to confirm and can be
undone until the round starts; an entrant who filed a dispute sees it instead of the form; the
correction form offers the ruleset's statuses only."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from puzzlecomp.championships.models import (
    AuditEntry,
    Dispute,
    Entry,
    GroupDraw,
    PlanningBackup,
    Result,
    Role,
    Round,
    RoundState,
    Seat,
)
from puzzlecomp.championships.services.disputes import (
    dispute_file,
    dispute_resolve,
    result_correct,
)
from puzzlecomp.championships.services.groups import groups_assign, groups_undo
from puzzlecomp.championships.services.results import ResultValues
from puzzlecomp.championships.services.rounds import round_state_set
from puzzlecomp.championships.services.seating import seating_assign, seating_undo
from puzzlecomp.live.snapshot import snapshot_cache_clear
from puzzlecomp.planning import PlanningError
from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.results import Status
from tests.web import test_disputes, test_live_control
from tests.web.test_disputes import entrant_url, file_through_link
from tests.web.test_groups import COUNTRIES, add_entries, first_round, url
from tests.web.test_live_control import START, finish, group_entries, live_url

pytestmark = pytest.mark.usefixtures("clock")

# The fixtures of the head judge's screens and of disputes.
seated = test_live_control.seated
running = test_live_control.running
head_judge = test_live_control.head_judge
published = test_disputes.published


@pytest.fixture(autouse=True)
def _fresh_snapshots():
    # Frozen clock and reused ids: a snapshot built by an earlier test would look current.
    snapshot_cache_clear()


@pytest.fixture
def organiser(championship, client_as, clock):
    return client_as(championship, Role.ORGANISER)


@pytest.fixture
def drawn(championship) -> Round:
    """The first individual round with groups drawn (seed 5) and every group seated."""
    rnd = first_round(championship)
    add_entries(rnd.event, COUNTRIES)
    groups_assign(round=rnd, seed=5)
    seating_assign(round=rnd)
    return rnd


def groups_now(rnd: Round) -> dict[int, str]:
    return dict(Entry.objects.filter(event=rnd.event).values_list("number", "group"))


def seats_now(rnd: Round) -> set[tuple]:
    return set(Seat.objects.filter(round=rnd).values_list(
        "entry__number", "group", "table", "seat", "no_show", "time_credit"))


# ---------------------------------------------------------------- groups and seating

def test_drawing_the_groups_again_asks_first_and_says_how_many_entries_change(organiser,
                                                                              drawn):
    before, seats = groups_now(drawn), seats_now(drawn)
    page = organiser.post(url("groups_assign", drawn), {"seed": "6"})
    assert page.status_code == 200
    text = html.unescape(page.content.decode())
    assert "Draw the groups again?" in text
    entries = sum(COUNTRIES.values())
    assert f"of {entries} entries in another group" in text
    assert f"It clears the round's {entries} seats." in text
    assert 'name="confirmed" value="1"' in text
    assert 'name="seed" value="6"' in text
    # Nothing changed yet.
    assert (groups_now(drawn), seats_now(drawn)) == (before, seats)
    organiser.post(url("groups_assign", drawn), {"seed": "6", "confirmed": "1"})
    assert groups_now(drawn) != before
    assert not Seat.objects.filter(round=drawn).exists()


def test_undoing_a_new_draw_puts_groups_and_seats_back_exactly(organiser, drawn):
    before, seats, seed = groups_now(drawn), seats_now(drawn), 5
    organiser.post(url("groups_assign", drawn), {"seed": "6", "confirmed": "1"})
    page = organiser.get(url("groups", drawn)).content.decode()
    assert 'id="groups-undo"' in page
    assert "seed 6" in page
    response = organiser.post(url("groups_undo", drawn), follow=True)
    assert "Draw undone:" in response.content.decode()
    assert (groups_now(drawn), seats_now(drawn)) == (before, seats)
    # The draw undone is gone: the seed shown is the one in force again.
    assert list(GroupDraw.objects.filter(round=drawn).values_list("seed", flat=True)) == [seed]
    assert f"seed {seed}" in response.content.decode()
    audit = AuditEntry.objects.get(action="puzzlecomp.groups.undone")
    assert audit.data["seed"] == 6
    # Undone once: nothing is left to undo.
    response = organiser.post(url("groups_undo", drawn), follow=True)
    assert "There is nothing to undo" in response.content.decode()


def test_the_first_draw_has_nothing_to_undo(championship, organiser):
    rnd = first_round(championship)
    add_entries(rnd.event, COUNTRIES)
    response = organiser.post(url("groups_assign", rnd), {"seed": "3"})
    assert response.status_code == 302  # no confirmation: nothing is replaced
    assert not PlanningBackup.objects.exists()
    with pytest.raises(PlanningError) as refused:
        groups_undo(round=rnd)
    assert refused.value.code == "planning.nothing_to_undo"


def test_seating_again_asks_first_and_can_be_undone_exactly(organiser, drawn):
    seats = seats_now(drawn)
    # A hand swap made after the seating is part of what Undo puts back.
    group_a = list(Seat.objects.filter(round=drawn, group="A").order_by("table", "seat"))
    a, b = group_a[0], group_a[2]  # tables 1 and 2
    organiser.post(url("seats_swap", drawn), {"entry_a": a.entry.number,
                                              "entry_b": b.entry.number, "group": "A"})
    swapped = seats_now(drawn)
    assert swapped != seats
    page = organiser.post(url("seating_assign", drawn), {"group": "A"})
    assert page.status_code == 200
    text = html.unescape(page.content.decode())
    assert "Seat again?" in text
    assert "Seating again moves 2 of the " in text
    assert seats_now(drawn) == swapped
    organiser.post(url("seating_assign", drawn), {"group": "A", "confirmed": "1"})
    assert seats_now(drawn) == seats
    response = organiser.post(url("seating_undo", drawn), {"group": "A"}, follow=True)
    assert "Seating undone: 2 entries are back at their previous table." in \
        response.content.decode()
    assert seats_now(drawn) == swapped


def test_once_the_round_has_started_nothing_is_drawn_seated_or_undone_again(organiser, drawn):
    groups_assign(round=drawn, seed=6)
    seating_assign(round=drawn)
    seating_assign(round=drawn, groups=["A"])
    round_state_set(round=drawn, state=RoundState.RUNNING, starts_at=START)
    before, seats = groups_now(drawn), seats_now(drawn)
    with pytest.raises(PlanningError) as refused:
        groups_undo(round=drawn)
    assert refused.value.code == "groups.round_started"
    for write in (lambda: seating_undo(round=drawn), lambda: seating_assign(round=drawn)):
        with pytest.raises(PlanningError) as refused:
            write()
        assert refused.value.code == "seating.round_started"
    response = organiser.post(url("seating_undo", drawn), {"group": "A"}, follow=True)
    assert "The round has started; its seating can no longer be redone or undone." in \
        html.unescape(response.content.decode())
    response = organiser.post(url("groups_assign", drawn), {"seed": "8"}, follow=True)
    assert "The round has started; its groups can no longer change." in \
        response.content.decode()
    assert (groups_now(drawn), seats_now(drawn)) == (before, seats)
    page = organiser.get(url("groups", drawn)).content.decode()
    assert 'id="groups-undo"' not in page
    assert 'id="groups-fixed"' in page


# ---------------------------------------------------------------- time credits
# The final's credits (wjpc-2025.txt gives them in every round): tests/judging/
# test_same_refusals_rules_edges.py.

def test_an_earlier_round_still_offers_time_credits(head_judge, running):
    page = head_judge.get(live_url("round", running)).content.decode()
    assert 'class="credit-form"' in page
    assert 'id="no-credits-in-final"' not in page


# ---------------------------------------------------------------- disputes

def test_after_filing_the_entrant_sees_the_dispute_not_the_form(client, published):
    entry = group_entries(published)[0]
    page = file_through_link(client, entry, published, "My time was 49:00").content.decode()
    dispute = Dispute.objects.get(entry=entry, round=published)
    assert f'id="dispute-{dispute.pk}"' in page
    assert f"Your dispute #{dispute.pk}" in page
    assert "Open" in page
    assert "My time was 49:00" in page
    assert "The head judge has not answered yet" in page
    assert 'name="text"' not in page  # no form for a second dispute
    assert "Disputes of this round close at" in page


def test_a_second_filing_for_the_same_entry_and_round_is_refused_even_after_the_ruling(
        client, published):
    """wjpc-2025.txt, Disputes and Reviews: a participant may dispute their recorded time; the
    head judge's answer settles it, so a result is disputed once."""
    entry = group_entries(published)[0]
    dispute = dispute_file(entry=entry, round=published, text="My time was 49:00")
    dispute_resolve(dispute=dispute, uphold=False, resolution="The sheet shows 50:00.")
    with pytest.raises(RulesError) as refused:
        dispute_file(entry=entry, round=published, text="Please look again")
    assert refused.value.code == "dispute.already_filed"
    page = file_through_link(client, entry, published, "Please look again").content.decode()
    assert f"You disputed this result already (dispute #{dispute.pk})" in page
    assert "Rejected" in page
    assert "The sheet shows 50:00." in page
    assert 'name="text"' not in page
    assert Dispute.objects.filter(entry=entry).count() == 1


def test_the_dispute_page_in_czech_shows_the_ruling(client, published):
    entry = group_entries(published)[0]
    dispute = dispute_file(entry=entry, round=published, text="Čas byl 49:00")
    dispute_resolve(dispute=dispute, uphold=True, resolution="Opraveno.")
    page = client.get(entrant_url(entry), headers={"accept-language": "cs"}).content.decode()
    assert f"Vaše námitka č. {dispute.pk}" in page
    assert "Rozhodnutí" in page
    assert "Opraveno." in page


# ---------------------------------------------------------------- the ruleset's statuses

def test_the_correction_form_offers_assistance_statuses_only_where_the_ruleset_has_them(
        head_judge, running, make_championship, client_as):
    """australia-state-national.txt: help asked for means no time recorded, outside assistance
    no time at all; WJPC has neither (docs/rulesets.md, Assistance)."""
    entry = group_entries(running)[0]
    finish(running, entry, 45 * 60)
    page = head_judge.get(live_url("correct", running, entry.number)).content.decode()
    assert 'value="dnf"' in page
    assert 'value="assisted"' not in page
    assert 'value="outside_help"' not in page
    response = head_judge.post(live_url("correct", running, entry.number), {
        "status": "assisted", "base_version": "1", "reason": "Helped"})
    assert "Select a valid choice." in response.content.decode()
    with pytest.raises(RulesError) as refused:
        result_correct(round=running, entry=entry, reason="Helped", base_version=1,
                       values=ResultValues(status=Status.ASSISTED))
    assert refused.value.code == "result.status_not_in_ruleset"
    assert Result.objects.get(round=running, entry=entry).status == "finished"
    australia = make_championship("australia-state")
    final = Round.objects.get(event__championship=australia, event__code="individual")
    Entry.objects.create(event=final.event, number=1, name="Solver", status="confirmed")
    page = client_as(australia, Role.HEAD_JUDGE).get(
        reverse("control:live:correct", args=[australia.slug, final.pk, 1])).content.decode()
    assert 'value="assisted"' in page
    assert 'value="outside_help"' in page
