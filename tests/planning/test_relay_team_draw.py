"""czech-blind-and-relay.txt, 3.1: "teams of four", "Team composition is determined randomly"."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from puzzlecomp.planning import PlanningError, draw_teams

PEOPLE = [f"person-{i:02d}" for i in range(1, 23)]


def test_czech_relay_draw_forms_teams_of_exactly_four() -> None:
    """czech-blind-and-relay.txt, 3.1: "The competition is for teams of four"."""
    draw = draw_teams(PEOPLE, team_size=4, seed=2025)

    assert len(draw.teams) == 5
    assert {len(team) for team in draw.teams} == {4}


def test_czech_relay_draw_returns_people_who_cannot_fill_a_team_instead_of_dropping_them() -> None:
    """22 registrations make 5 teams of four; the other 2 are handed back to the organiser."""
    draw = draw_teams(PEOPLE, team_size=4, seed=2025)

    assert len(draw.left_over) == 2
    drawn = [person for team in draw.teams for person in team] + list(draw.left_over)
    assert sorted(drawn) == PEOPLE


def test_czech_relay_draw_is_repeatable_from_the_recorded_seed_and_random_across_seeds() -> None:
    """czech-blind-and-relay.txt, 3.1: drawn "randomly by the organizer", and checkable later."""
    first = draw_teams(PEOPLE, team_size=4, seed=7)

    assert draw_teams(list(reversed(PEOPLE)), team_size=4, seed=7) == first
    assert draw_teams(PEOPLE, team_size=4, seed=8).teams != first.teams
    assert (first.seed, first.team_size) == (7, 4)


@pytest.mark.parametrize(
    ("people", "team_size", "code"),
    [
        (PEOPLE, 0, "team_draw.invalid_team_size"),
        (["Ann", "Bob", "Ann"], 4, "team_draw.duplicate_person"),
    ],
)
def test_czech_relay_draw_refuses_impossible_input_with_a_code(
    people: list[str], team_size: int, code: str
) -> None:
    """A person registered twice or a team of nobody is an error, not a quiet draw."""
    with pytest.raises(PlanningError) as caught:
        draw_teams(people, team_size=team_size, seed=1)

    assert caught.value.code == code


@given(
    people=st.sets(st.text(min_size=1, max_size=8), max_size=90),
    team_size=st.integers(1, 6),
    seed=st.integers(0, 2**32),
    reverse=st.booleans(),
)
def test_every_registration_is_drawn_exactly_once_into_a_team_or_left_over(
    people: set[str], team_size: int, seed: int, reverse: bool
) -> None:
    """Nobody is lost or doubled, and fewer than a team's worth are left over."""
    ordered = sorted(people, reverse=reverse)
    draw = draw_teams(ordered, team_size=team_size, seed=seed)

    drawn = [person for team in draw.teams for person in team] + list(draw.left_over)
    assert sorted(drawn) == sorted(people)
    assert all(len(team) == team_size for team in draw.teams)
    assert len(draw.left_over) < team_size
    assert draw == draw_teams(sorted(people), team_size=team_size, seed=seed)
