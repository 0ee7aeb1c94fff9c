"""Multi-puzzle rounds from the phone: each puzzle is tapped and checked, then the judge opens
the next one; at the limit each open puzzle is counted."""

from __future__ import annotations

import pytest
from django.test import Client

from puzzlecomp.championships.models import Result, Round, RoundState
from puzzlecomp.championships.services.rounds import round_state_set
from tests.judging.support import ME_URL, fields_of, pair_device, seat_round, write

pytestmark = pytest.mark.django_db

CHECKED = {"complete_and_correct": True, "competitor_confirmed": True}


@pytest.fixture
def teams_final(championship) -> Round:
    """WJPC teams final: two 1000-piece puzzles in 180 minutes, running for an hour."""
    return seat_round(championship, "teams", "final", tables=1, per_table=1,
                      started_minutes_ago=60)


@pytest.fixture
def team_phone(teams_final) -> Client:
    token = pair_device(teams_final.event.championship, 1, 1)[1]
    return Client(HTTP_AUTHORIZATION=f"Bearer {token}")


def puzzles_of(rnd: Round) -> list[dict]:
    return Result.objects.get(round=rnd).puzzles


def test_wjpc_teams_verify_each_puzzle_then_the_judge_opens_the_next(team_phone, teams_final):
    """wjpc-2025.txt, Authorized Logging and Puzzle Opening: only judges log the times and
    authorise the opening of the next puzzle in multi-puzzle rounds; the final time is the last
    finish and penalties of every puzzle are added."""
    number = teams_final.seats.get().entry.number
    assert write(team_phone, teams_final, number, "tap", puzzle=1,
                 time_seconds=1500).status_code == 200
    early = write(team_phone, teams_final, number, "tap", base=1, puzzle=2, time_seconds=1600)
    assert fields_of(early) == [("result.puzzle_not_open", "puzzle")]
    unchecked = write(team_phone, teams_final, number, "authorise", base=1, puzzle=2)
    assert fields_of(unchecked) == [("result.previous_puzzle_unchecked", "puzzle")]
    assert write(team_phone, teams_final, number, "verify", base=1, puzzle=1, missing=1,
                 **CHECKED).status_code == 200
    row = Result.objects.get(round=teams_final)
    assert (row.status, row.checked) == ("unfinished", True)
    assert write(team_phone, teams_final, number, "authorise", base=2,
                 puzzle=2).status_code == 200
    assert Result.objects.get(round=teams_final).checked is False
    twice = write(team_phone, teams_final, number, "authorise", base=3, puzzle=2)
    assert fields_of(twice) == [("result.puzzle_open_already", "puzzle")]
    before = write(team_phone, teams_final, number, "tap", base=3, puzzle=2, time_seconds=1400)
    assert fields_of(before) == [("result.puzzle_before_previous", "time_seconds")]
    assert write(team_phone, teams_final, number, "tap", base=3, puzzle=2,
                 time_seconds=3300).status_code == 200
    assert write(team_phone, teams_final, number, "verify", base=4, puzzle=2,
                 **CHECKED).status_code == 200
    row = Result.objects.get(round=teams_final)
    assert (row.status, row.checked, row.competitor_confirmed) == ("finished", True, True)
    assert [(p["time"], p["missing"], p["verified"]) for p in row.puzzles] == [
        (1500, 1, True), (3300, 0, True)]
    line = team_phone.get(ME_URL).json()["rounds"][0]["tables"][0]["entries"][0]
    assert line["version"] == 5


def test_a_multi_puzzle_write_names_its_puzzle(team_phone, teams_final):
    number = teams_final.seats.get().entry.number
    for puzzle in (None, 3):
        response = write(team_phone, teams_final, number, "tap", puzzle=puzzle,
                         time_seconds=100)
        assert fields_of(response) == [("result.puzzle_unknown", "puzzle")]


def test_an_open_puzzle_not_finished_is_counted_at_the_limit(team_phone, teams_final):
    """wjpc-2025.txt: without a finish, the pieces placed decide (of both puzzles)."""
    number = teams_final.seats.get().entry.number
    write(team_phone, teams_final, number, "tap", puzzle=1, time_seconds=1500)
    write(team_phone, teams_final, number, "verify", base=1, puzzle=1, **CHECKED)
    write(team_phone, teams_final, number, "authorise", base=2, puzzle=2)
    round_state_set(round=teams_final, state=RoundState.COUNTING)
    response = write(team_phone, teams_final, number, "count", base=3, puzzle=2, pieces=640)
    assert response.status_code == 200
    row = Result.objects.get(round=teams_final)
    assert (row.status, row.checked) == ("unfinished", True)
    assert [(p["time"], p["pieces"]) for p in row.puzzles] == [(1500, None), (None, 640)]


@pytest.fixture
def relay(make_championship) -> Round:
    """The Czech relay final: four 500-piece puzzles at once, then two, then one, then a
    1000-piece one, in 5 hours; running for two hours."""
    championship = make_championship("czech-blind-relay")
    return seat_round(championship, "relay", "final", tables=1, per_table=1,
                      started_minutes_ago=120)


def test_relay_part_one_opens_four_puzzles_and_part_two_needs_all_four_checked(relay):
    """czech-blind-and-relay.txt: part 1 ends when all four 500-piece puzzles are finished and
    checked; then both part-2 puzzles start at the same time."""
    phone = Client(HTTP_AUTHORIZATION="Bearer "
                   + pair_device(relay.event.championship, 1, 1)[1])
    shown = phone.get(ME_URL).json()["rounds"][0]
    assert shown["stages"] == [[1, 2, 3, 4], [5, 6], [7], [8]]
    number = relay.seats.get().entry.number
    version = 0
    for puzzle in (1, 2, 3, 4):
        assert write(phone, relay, number, "tap", base=version, puzzle=puzzle,
                     time_seconds=1000 + puzzle).status_code == 200
        version += 1
        if puzzle < 4:
            assert write(phone, relay, number, "verify", base=version, puzzle=puzzle,
                         **CHECKED).status_code == 200
            version += 1
    too_soon = write(phone, relay, number, "authorise", base=version, puzzle=5)
    assert fields_of(too_soon) == [("result.previous_puzzle_unchecked", "puzzle")]
    write(phone, relay, number, "verify", base=version, puzzle=4, **CHECKED)
    assert write(phone, relay, number, "authorise", base=version + 1,
                 puzzle=6).status_code == 200
    opened = [p["authorised"] for p in Result.objects.get(round=relay).puzzles]
    assert opened == [True] * 6 + [False] * 2
