"""Guards before steps that cannot be taken back quietly (issue 24, item 1): results made
provisional or public while seated entrants have none, qualifiers confirmed while the dispute
window is open, standings published before the event's last round is final. Each names what
it guards, passes only when the organiser confirms knowingly, and is audited."""

from __future__ import annotations

import datetime as dt
import html

import pytest
from django.urls import reverse

from puzzlecomp.championships.models import AuditEntry, Entry, Qualifier, Role, RoundState
from puzzlecomp.championships.services.qualifiers import qualifiers_confirm
from puzzlecomp.championships.services.results import result_record
from puzzlecomp.championships.services.rounds import round_move, round_state_set
from puzzlecomp.championships.services.standings import event_standings_publish
from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.results import Status
from tests.web import test_live_control as live
from tests.web.test_live_control import START, live_url
from tests.web.test_qualifiers import Field

seated = live.seated
running = live.running
head_judge = live.head_judge


def page_of(response) -> str:
    return html.unescape(response.content.decode())


def codes(refused: pytest.ExceptionInfo[RulesError]) -> list[str]:
    return [v.code for v in refused.value.violations]


def test_provisional_results_with_entrants_missing_name_them_and_pass_only_knowingly(
        head_judge, running, clock):
    """wjpc-2025.txt, Unfinished Puzzles: every unfinished puzzle is counted, so a seated
    entrant without a result is a place that would vanish."""
    entries = list(Entry.objects.filter(event=running.event).order_by("number"))
    for entry in entries[2:]:
        result_record(round=running, entry=entry, status=Status.FINISHED, time_seconds=3000)
    head_judge.post(live_url("move", running, "counting"))
    page = page_of(head_judge.get(live_url("move", running, "provisional")))
    assert "2 seated entrants have no result" in page
    assert f"{entries[0].number} {entries[0].name}" in page
    assert f"{entries[1].number} {entries[1].name}" in page
    assert 'name="knowingly" value="2" required' in page

    refused = head_judge.post(live_url("move", running, "provisional"), follow=True)
    assert "2 seated entrants have no result" in page_of(refused)
    running.refresh_from_db()
    assert running.state == RoundState.COUNTING
    # A confirmation given for another count does not pass.
    head_judge.post(live_url("move", running, "provisional"), {"knowingly": "1"})
    running.refresh_from_db()
    assert running.state == RoundState.COUNTING

    head_judge.post(live_url("move", running, "provisional"), {"knowingly": "2"})
    running.refresh_from_db()
    assert running.state == RoundState.PROVISIONAL
    audit = AuditEntry.objects.filter(action="puzzlecomp.round.state_set").latest("pk")
    assert audit.data["without_result"] == [f"{e.number} {e.name}" for e in entries[:2]]


def test_publishing_asks_again_and_going_back_asks_nothing(running, clock):
    round_state_set(round=running, state=RoundState.PROVISIONAL)
    with pytest.raises(RulesError) as refused:
        round_move(round=running, to=RoundState.PUBLISHED)
    assert codes(refused) == ["guard.results_missing"]
    assert refused.value.violations[0].params["count"] == 36
    running.refresh_from_db()
    assert running.published_at is None
    assert round_move(round=running, to=RoundState.COUNTING).state == RoundState.COUNTING


def test_every_entrant_with_a_result_needs_no_confirmation(running, clock):
    for entry in Entry.objects.filter(event=running.event):
        result_record(round=running, entry=entry, status=Status.UNFINISHED, pieces=400)
    round_move(round=running, to=RoundState.COUNTING)
    assert round_move(round=running, to=RoundState.PROVISIONAL).state == "provisional"


@pytest.fixture
def field(championship) -> Field:
    return Field(championship)


def test_confirming_qualifiers_in_the_dispute_window_says_until_when(championship, field,
                                                                     client_as, clock):
    """wjpc-2025.txt, Disputes and Reviews: 4 hours from the results being posted."""
    published = field.round.published_at
    ends = published + dt.timedelta(hours=4)
    with pytest.raises(RulesError) as refused:
        qualifiers_confirm(round=field.round, now=published + dt.timedelta(hours=1))
    assert codes(refused) == ["guard.dispute_window_open"]
    assert refused.value.violations[0].params["ends"] == ends
    assert not Qualifier.objects.filter(from_round=field.round).exists()

    organiser = client_as(championship, Role.ORGANISER)
    url = reverse("control:rounds:qualifiers", args=[championship.slug, field.round.pk])
    clock(published.replace(tzinfo=None).isoformat())
    page = page_of(organiser.get(url))
    assert "Competitors may dispute this round's results until" in page
    # The confirmation carries the window it showed, so a stale page does not pass.
    assert f'name="knowingly" value="{ends.isoformat()}" required' in page
    confirm = reverse("control:rounds:qualifiers_confirm",
                      args=[championship.slug, field.round.pk])
    refused_page = page_of(organiser.post(confirm, follow=True))
    assert "Tick that you know to confirm now." in refused_page
    assert not Qualifier.objects.filter(from_round=field.round).exists()

    organiser.post(confirm, {"knowingly": ends.isoformat()})
    assert Qualifier.objects.filter(from_round=field.round).exists()
    audit = AuditEntry.objects.filter(action="puzzlecomp.qualifiers.confirmed").latest("pk")
    assert audit.data["dispute_window_open_until"] == ends.isoformat()


def test_a_bare_or_stale_window_confirmation_does_not_pass(championship, field, client_as,
                                                          clock):
    """Issue 24 review: posting only knowingly=1, or the end of a window that is no longer
    the round's (results withdrawn and published again since the page was drawn), passes
    nothing; the guard asks again with the window as it is now."""
    published = field.round.published_at
    ends = published + dt.timedelta(hours=4)
    clock(published.replace(tzinfo=None).isoformat())
    organiser = client_as(championship, Role.ORGANISER)
    confirm = reverse("control:rounds:qualifiers_confirm",
                      args=[championship.slug, field.round.pk])
    stale = (ends - dt.timedelta(hours=1)).isoformat()
    for posted in ("1", "on", ends.replace(tzinfo=None).isoformat()):
        page = page_of(organiser.post(confirm, {"knowingly": posted}, follow=True))
        assert "Tick that you know to confirm now." in page, posted
    # Ticked on a page drawn before the window moved: said so, with the new end.
    page = page_of(organiser.post(confirm, {"knowingly": stale}, follow=True))
    assert "Tick that you know" not in page
    assert ("The dispute window changed since the page was loaded: competitors may now "
            "dispute this round's results until") in page
    assert "Nothing was confirmed; tick again to confirm now." in page
    assert not Qualifier.objects.filter(from_round=field.round).exists()
    with pytest.raises(RulesError):
        qualifiers_confirm(round=field.round, knowingly=ends - dt.timedelta(minutes=5),
                           now=published + dt.timedelta(hours=1))
    # The same instant written in the championship's own offset passes.
    madrid = ends.astimezone(dt.timezone(dt.timedelta(hours=2))).isoformat()
    organiser.post(confirm, {"knowingly": madrid})
    assert Qualifier.objects.filter(from_round=field.round).exists()


def test_confirming_after_the_window_asks_nothing(field):
    later = field.round.published_at + dt.timedelta(hours=4, seconds=1)
    assert qualifiers_confirm(round=field.round, now=later) > 0


def test_standings_before_the_final_name_the_rounds_still_to_come(championship, client_as):
    """wjpc-2025.txt, Final Pairs: the final decides the champions."""
    event = championship.events.get(code="individual")
    to_come = [r.name for r in event.rounds.order_by("position")]
    with pytest.raises(RulesError) as refused:
        event_standings_publish(event=event, published=True)
    assert codes(refused) == ["guard.event_not_final"]
    assert refused.value.violations[0].params["rounds"] == tuple(to_come)
    event.refresh_from_db()
    assert event.standings_published_at is None

    organiser = client_as(championship, Role.ORGANISER)
    page_url = reverse("control:standings:standings", args=[championship.slug, "individual"])
    page = page_of(organiser.get(page_url))
    assert f"Still to come: {len(to_come)} rounds are not final" in page
    publish = reverse("control:standings:publish", args=[championship.slug, "individual"])
    answer = page_of(organiser.post(publish, {"published": "yes"}, follow=True))
    assert "rounds of the event are not final" in answer
    event.refresh_from_db()
    assert event.standings_published_at is None

    organiser.post(publish, {"published": "yes", "knowingly": str(len(to_come))})
    event.refresh_from_db()
    assert event.standings_published_at is not None
    audit = AuditEntry.objects.filter(action="puzzlecomp.event.standings_published").latest("pk")
    assert audit.data["rounds_not_final"] == to_come


def test_standings_of_a_finished_event_publish_without_asking(championship):
    event = championship.events.get(code="individual")
    for rnd in event.rounds.all():
        round_state_set(round=rnd, state=RoundState.FINAL, starts_at=START)
    event_standings_publish(event=event, published=True)
    event.refresh_from_db()
    assert event.standings_published_at is not None
