"""Czech teams on the judge's phone: the team chooses the order of its two puzzles."""

from __future__ import annotations

import pytest
from django.test import Client

from puzzlecomp.championships.models import Result, Round
from tests.judging.support import ME_URL, fields_of, pair_device, seat_round, write

pytestmark = pytest.mark.django_db

CHECKED = {"complete_and_correct": True, "competitor_confirmed": True}


@pytest.fixture
def czech_teams(make_championship) -> Round:
    """The Czech teams final (a 1000 and a 500), running for 100 minutes."""
    championship = make_championship("czech-championship")
    return seat_round(championship, "teams", "final", tables=1, per_table=1,
                      started_minutes_ago=100)


@pytest.fixture
def phone(czech_teams) -> Client:
    token = pair_device(czech_teams.event.championship, 1, 1)[1]
    return Client(HTTP_AUTHORIZATION=f"Bearer {token}")


def test_czech_teams_may_finish_the_500_first(phone, czech_teams):
    """czech-championship.txt, Stacking rules: teams choose the order of puzzles themselves, so
    both puzzles are open on the phone from the start and either is tapped and checked first."""
    shown = phone.get(ME_URL).json()["rounds"][0]
    assert shown["stages"] == [[1, 2]]
    number = czech_teams.seats.get().entry.number
    assert write(phone, czech_teams, number, "tap", puzzle=2, time_seconds=1500).status_code == 200
    assert write(phone, czech_teams, number, "verify", base=1, puzzle=2,
                 **CHECKED).status_code == 200
    opened = write(phone, czech_teams, number, "authorise", base=2, puzzle=1)
    assert fields_of(opened) == [("result.puzzle_open_already", "puzzle")]
    assert write(phone, czech_teams, number, "tap", base=2, puzzle=1,
                 time_seconds=4000).status_code == 200
    assert write(phone, czech_teams, number, "verify", base=3, puzzle=1,
                 **CHECKED).status_code == 200
    row = Result.objects.get(round=czech_teams)
    assert (row.status, row.checked) == ("finished", True)
    assert [p["time"] for p in row.puzzles] == [4000, 1500]


@pytest.mark.parametrize("second", [1499, 1501])
def test_czech_teams_never_finish_two_puzzles_at_the_same_second(phone, czech_teams, second):
    """czech-championship.txt, teams: one puzzle on the table at a time, so two finishes are at
    least the ruleset's next_finish_after_seconds (1) apart, whichever puzzle came first."""
    number = czech_teams.seats.get().entry.number
    assert write(phone, czech_teams, number, "tap", puzzle=1, time_seconds=1500).status_code == 200
    write(phone, czech_teams, number, "verify", base=1, puzzle=1, **CHECKED)
    same = write(phone, czech_teams, number, "tap", base=2, puzzle=2, time_seconds=1500)
    assert fields_of(same) == [("result.puzzle_before_previous", "time_seconds")]
    apart = write(phone, czech_teams, number, "tap", base=2, puzzle=2, time_seconds=second)
    assert apart.status_code == 200
