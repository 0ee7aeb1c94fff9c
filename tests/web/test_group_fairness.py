"""Issue 15, group fairness after a round: each group's puzzle difficulty from its entrants'
ratings and results, beside the qualifiers, and on the results page once the organiser
publishes it (docs/seeding.md, Group fairness)."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from puzzlecomp.championships.models import AuditEntry, Entry, Role, Round, RoundState
from puzzlecomp.championships.selectors.fairness import (
    round_group_difficulties,
    shown_difficulty,
    stored_difficulties,
)
from puzzlecomp.championships.services.fairness import group_difficulty_publish
from puzzlecomp.championships.services.results import result_record
from puzzlecomp.championships.services.rounds import round_state_set
from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.results import Status
from tests.web.test_archive import HEADER, entrants_of, imported

PEOPLE = [f"P{n}" for n in range(1, 13)]
# Everyone's 2023 time: P1 the fastest.
HISTORY = HEADER + "".join(
    f"2023,solo,A,{n},E{n},Spain,True,{2400 + 100 * n}.0,,500,5400,P{n}\n"
    for n in range(1, 13))


def page_of(response) -> str:
    return html.unescape(response.content.decode())


def played(championship, *, slower_b: float = 1.2) -> Round:
    """The twelve in groups A (odd) and B (even), B's puzzle `slower_b` times as slow; published."""
    imported(HISTORY)
    rnd = entrants_of(championship, PEOPLE)
    for n, entry in enumerate(Entry.objects.filter(event=rnd.event).order_by("number"), start=1):
        entry.group = "A" if n % 2 else "B"
        entry.save(update_fields=["group"])
        factor = 1.0 if n % 2 else slower_b
        result_record(round=rnd, entry=entry, status=Status.FINISHED,
                      time_seconds=round((2400 + 100 * n) * factor))
    round_state_set(round=rnd, state=RoundState.PUBLISHED)
    return Round.objects.get(pk=rnd.pk)


def texts(rnd: Round) -> list[str]:
    """The groups' difficulties as the pages write them: "+9.1 %", or with a minus sign."""
    return [shown_difficulty(figure)["text"]
            for figure in stored_difficulties(round_group_difficulties(rnd))]


def qualifiers_url(rnd: Round) -> str:
    return reverse("control:rounds:qualifiers", args=[rnd.event.championship.slug, rnd.pk])


def test_the_slower_groups_puzzle_is_the_harder_one(championship):
    """Issue 15 rule: each group's difficulty estimated from its entrants' ratings and their
    results; B's entrants took 20 % longer than A's of the same strength."""
    figures = {d.group: d for d in round_group_difficulties(played(championship))}
    assert set(figures) == {"A", "B"}
    assert (figures["A"].entrants, figures["A"].rated) == (6, 6)
    assert figures["B"].percent > 8
    assert figures["A"].percent < -8


def test_the_organiser_sees_the_difficulty_beside_the_qualifiers(championship, client_as):
    rnd = played(championship)
    page = page_of(client_as(championship, Role.ORGANISER).get(qualifiers_url(rnd)))
    assert 'id="group-difficulty"' in page
    for text in texts(rnd):
        assert text in page
    assert "Publish with the results" in page
    assert 'id="difficulty-not-apart"' not in page  # B's 20 % is told apart


def test_the_results_page_shows_it_only_once_published(championship, client_as):
    rnd = played(championship)
    public = reverse("public:live:round", args=[championship.slug, rnd.pk])
    organiser = client_as(championship, Role.ORGANISER)
    assert "group-difficulty" not in organiser.get(public).content.decode()
    response = organiser.post(reverse("control:rounds:group_difficulty",
                                      args=[championship.slug, rnd.pk]), {"publish": "1"})
    assert response.status_code == 302
    rnd.refresh_from_db()
    assert [f["group"] for f in rnd.group_difficulty] == ["A", "B"]
    assert texts(rnd)[1] in page_of(client_as(championship, None).get(public))
    audit = AuditEntry.objects.get(action="puzzlecomp.round.group_difficulty")
    assert audit.data["published"] is True
    assert "Published with the results." in page_of(organiser.get(qualifiers_url(rnd)))
    organiser.post(reverse("control:rounds:group_difficulty", args=[championship.slug, rnd.pk]),
                   {"publish": "0"})
    assert "group-difficulty" not in client_as(championship, None).get(public).content.decode()


def test_a_correction_after_publishing_asks_to_publish_again(championship, client_as):
    rnd = played(championship)
    group_difficulty_publish(round=rnd, publish=True)
    entry = Entry.objects.get(event=rnd.event, number=2)
    result_record(round=rnd, entry=entry, status=Status.DSQ, reason="Outside help")
    page = page_of(client_as(championship, Role.ORGANISER).get(qualifiers_url(rnd)))
    assert 'id="difficulty-outdated"' in page
    assert "Publish again" in page


def test_it_is_published_only_with_published_results_and_something_to_compare(championship):
    rnd = played(championship)
    round_state_set(round=rnd, state=RoundState.PROVISIONAL)
    with pytest.raises(RulesError) as refused:
        group_difficulty_publish(round=rnd, publish=True)
    assert refused.value.code == "fairness.results_not_published"
    round_state_set(round=rnd, state=RoundState.PUBLISHED)
    Entry.objects.filter(event=rnd.event, number__gt=6).update(group="A")
    with pytest.raises(RulesError) as refused:
        group_difficulty_publish(round=rnd, publish=True)
    assert refused.value.code == "fairness.nothing_to_compare"


def test_judges_cannot_publish_it(championship, client_as):
    rnd = played(championship)
    judge = client_as(championship, Role.JUDGE)
    response = judge.post(reverse("control:rounds:group_difficulty",
                                  args=[championship.slug, rnd.pk]), {"publish": "1"})
    assert response.status_code == 403
    rnd.refresh_from_db()
    assert rnd.group_difficulty == []


def test_each_figure_shows_its_interval_and_close_groups_are_said_to_be_alike(
        championship, client_as):
    """Issue 30: a figure with its uncertainty, and a plain statement when no group's
    interval leaves out the average group (here both puzzles were alike)."""
    rnd = played(championship, slower_b=1.0)
    figures = stored_difficulties(round_group_difficulties(rnd))
    assert all(f["low"] < f["percent"] < f["high"] for f in figures)
    organiser = client_as(championship, Role.ORGANISER)
    page = page_of(organiser.get(qualifiers_url(rnd)))
    assert "likely between" in page
    assert 'id="difficulty-not-apart"' in page
    organiser.cookies.load({"django_language": "cs"})
    assert "Skupiny nelze od sebe rozlišit" in page_of(organiser.get(qualifiers_url(rnd)))
