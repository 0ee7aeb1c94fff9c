"""A subcategory tiebreaker is held as a round of its own in the web app and the championship
file (wjpc-2025.txt, Subcategories (*): "a tiebreaker will be held between the top 5 finishers
in the final round before they are eliminated"): the standings, the awards and the ceremony list
follow its order, and `puzzlecomp standings` reads it from the exported file."""

from __future__ import annotations

import datetime as dt
import html
import json

import pytest

from puzzlecomp.championships.models import AuditEntry, Person, Role, Round, RoundState
from puzzlecomp.championships.selectors.standings import event_standings_get
from puzzlecomp.championships.services.results import result_record
from puzzlecomp.championships.services.rounds import round_state_set
from puzzlecomp.championships.services.tiebreakers import tiebreaker_round_create
from puzzlecomp.cli.main import main
from puzzlecomp.public.championship.story import event_podium
from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.prizes import decided_tiebreakers
from puzzlecomp.rules.results import Status
from tests.web.test_groups import add_entries

pytestmark = pytest.mark.django_db


def juniors_called(make_championship):
    """Two finalists born 1990; three juniors (born 2010) out in the first round, so Junior 18
    calls its tiebreaker; they finish it in the reverse of their overall order."""
    played = make_championship("wjpc-2025")
    event = played.events.get(code="individual")
    entries = add_entries(event, {"CZE": 5})
    final = event.rounds.get(code="final")
    first = event.rounds.get(code="first")
    for n, entry in enumerate(entries):
        entry.group = "A"
        entry.save(update_fields=["group"])
        born = dt.date(1990 if n < 2 else 2010, 1, 1)
        Person.objects.filter(entries__entry=entry).update(birth_date=born)
        result_record(round=final if n < 2 else first, entry=entry, status=Status.FINISHED,
                      time_seconds=1800 + n)
    round_state_set(round=final, state=RoundState.FINAL)
    return played, event


def held_in_reverse(make_championship):
    """The tiebreaker of juniors_called, held; the called finish it in reverse order."""
    played, event = juniors_called(make_championship)
    found = event_standings_get(event=event)
    call = next(c for c in decided_tiebreakers(found.overall, found.spec,
                                              final_rounds=found.final_rounds,
                                              settings=found.settings)
                if c.category == "junior-18")
    rnd = tiebreaker_round_create(event=event, category=call.category)
    called = [int(line.entry.id) for line in call.entrants]
    for n, number in enumerate(reversed(called)):
        result_record(round=rnd, entry=event.entries.get(number=number),
                      status=Status.FINISHED, time_seconds=1800 + n)
    round_state_set(round=rnd, state=RoundState.FINAL)
    return played, event, call, rnd, called


def test_the_standings_awards_and_ceremony_follow_a_held_tiebreaker(make_championship, capsys,
                                                                    tmp_path):
    played, event, call, rnd, called = held_in_reverse(make_championship)
    assert rnd.code == f"tiebreaker-{call.category}"
    assert rnd.seats.count() == len(called)
    assert AuditEntry.objects.filter(action="puzzlecomp.round.tiebreaker_created").exists()
    found = event_standings_get(event=event)
    assert called == [3, 4, 5]
    after = [row.entry for row in found.rows(call.category, public=False)
             if row.entry in called and row.place is not None]
    assert after == list(reversed(called))
    prizes = [a.entry for a in found.award_rows(public=False) if a.category == call.category]
    assert prizes == after == [5, 4, 3]
    # The championship file carries the tiebreaker round; the CLI gives the same order.
    assert main(["championship", "export", played.slug]) == 0
    path = tmp_path / "demo.json"
    path.write_text(capsys.readouterr().out, encoding="utf-8")
    assert main(["standings", str(path), "--event", "individual", "--category", call.category,
                 "--format", "json"]) == 0
    lines = json.loads(capsys.readouterr().out)["standings"]
    assert [int(line["entry"]) for line in lines
            if int(line["entry"]) in called and line["place"] is not None] == after


def test_a_tiebreaker_is_created_once_and_only_when_called(make_championship):
    _, event, call, _, _ = held_in_reverse(make_championship)
    with pytest.raises(RulesError):
        tiebreaker_round_create(event=event, category=call.category)
    assert Round.objects.filter(event=event, code=f"tiebreaker-{call.category}").count() == 1


def test_the_organiser_holds_a_called_tiebreaker_from_the_awards_page(make_championship,
                                                                      client_as):
    played, event = juniors_called(make_championship)
    organiser = client_as(played, Role.ORGANISER)
    base = f"/control/{played.slug}/standings/individual/"
    page = organiser.get(base + "awards/").content.decode()
    assert 'id="tiebreakers-to-hold"' in page
    assert "Junior 18: the final leaves 3 prize places open; 3 entrants" in page
    response = organiser.post(base + "tiebreakers/junior-18/")
    assert response.status_code == 302
    rnd = Round.objects.get(event=event, code="tiebreaker-junior-18")
    assert sorted(rnd.seats.values_list("entry__number", flat=True)) == [3, 4, 5]
    assert "tiebreakers/junior-18/" not in organiser.get(base + "awards/").content.decode()


def test_a_tiebreaker_after_the_final_leaves_the_finals_podium_in_place(make_championship):
    """The podium is the final's (wjpc-2025.txt, Individual Final), whatever follows it."""
    _, event, _, _, _ = held_in_reverse(make_championship)
    rounds = list(event.rounds.select_related("event__championship").order_by("position"))
    assert rounds[-1].code == "tiebreaker-junior-18"
    podium = event_podium(rounds)
    assert podium is not None
    assert [place.place for place in podium.places][:2] == [1, 2]


PENDING = ("Junior 18: the places after the finalists are decided by the round "
           "“Subcategory tiebreaker: Junior 18”, which is not final yet; no prize is named "
           "for them.")


def test_no_prize_for_the_places_a_tiebreaker_decides_until_it_is_final(make_championship,
                                                                        client_as, capsys,
                                                                        tmp_path):
    """wjpc-2025.txt, Subcategories (*): once called, the tiebreaker decides the subcategory's
    open places. Held but planned, or with its results still counting, it decides nothing yet:
    the open places carry no prize (not by overall order either), and the pages, the ceremony
    paper and `awards` on the exported file say which round is pending."""
    played, event = juniors_called(make_championship)
    organiser = client_as(played, Role.ORGANISER)
    base = f"/control/{played.slug}/standings/individual/"
    organiser.post(base + "tiebreakers/junior-18/")
    rnd = Round.objects.get(event=event, code="tiebreaker-junior-18")

    def junior_prizes() -> list[int]:
        found = event_standings_get(event=event)
        return [a.entry for a in found.award_rows(public=False) if a.category == "junior-18"]

    assert junior_prizes() == []
    page = organiser.get(base + "awards/").content.decode()
    assert html.unescape(page).count(PENDING) == 1
    for number, seconds in ((5, 1800), (4, 1801), (3, 1802)):
        result_record(round=rnd, entry=event.entries.get(number=number),
                      status=Status.FINISHED, time_seconds=seconds)
    round_state_set(round=rnd, state=RoundState.COUNTING)
    assert junior_prizes() == []
    found = event_standings_get(event=event)
    assert [row.entry for row in found.rows("junior-18", public=False)
            if row.place is not None and row.entry in (3, 4, 5)] == [3, 4, 5]
    assert main(["championship", "export", played.slug]) == 0
    path = tmp_path / "counting.json"
    path.write_text(capsys.readouterr().out, encoding="utf-8")
    assert main(["awards", str(path), "--event", "individual", "--category", "junior-18",
                 "--format", "json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["awards"] == []
    assert json.loads(out)["pending_tiebreakers"] == ["tiebreaker-junior-18"]
    assert "pending: the tiebreaker-junior-18 round of individual decides 3 place(s)" in err
    round_state_set(round=rnd, state=RoundState.FINAL)
    assert junior_prizes() == [5, 4, 3]
