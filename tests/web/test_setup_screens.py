"""Setup screens: the championship, ruleset settings, floor plan, events, rounds, puzzles and the
teams' choice of models; every change saved and audited, bad input refused with a message."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from puzzlecomp.championships.models import AuditEntry, Entry, Puzzle, Role, RoundState
from puzzlecomp.championships.selectors.lists import entry_models_chosen, puzzle_motif_visible
from puzzlecomp.championships.services.settings import (
    SetupError,
    championship_settings_set,
    entry_models_choose,
)


def url(name: str, championship, *args) -> str:
    return reverse(f"control:setup:{name}", args=[championship.slug, *args])


@pytest.fixture
def organiser(championship, client_as):
    return client_as(championship, Role.ORGANISER)


def test_the_setup_overview_shows_every_event_round_and_puzzle(championship, organiser):
    page = organiser.get(url("index", championship)).content.decode()
    assert "Qualifying round" in page
    assert url("puzzle", championship, "teams", "first", 1) in page
    assert url("team_models", championship, "teams", "first") in page


def test_the_overview_says_there_is_no_floor_plan_yet_instead_of_empty_rows(make_championship,
                                                                            client_as):
    """The Czech rulebook gives no hall: until the organiser sets one, the overview says so."""
    czech = make_championship("czech-championship")
    page = client_as(czech, Role.ORGANISER).get(url("index", czech)).content.decode()
    assert "Tables per row: ;" not in page
    assert "No floor plan yet" in page


def test_the_organiser_edits_the_championship_and_the_change_is_audited(championship,
                                                                        organiser):
    response = organiser.post(url("championship", championship), {
        "name": "WJPC 2026", "starts_at": "2026-09-20T09:00", "ends_on": "2026-09-22",
        "venue": "Valladolid",
    })
    assert response.status_code == 302
    championship.refresh_from_db()
    assert (championship.name, championship.venue, championship.published) == (
        "WJPC 2026", "Valladolid", False)
    assert championship.starts_at == dt.datetime(2026, 9, 20, 9, 0, tzinfo=dt.UTC)
    assert championship.ends_on == dt.date(2026, 9, 22)
    audit = AuditEntry.objects.get(action="puzzlecomp.championship.changed")
    assert audit.data["changes"]["name"][1] == "WJPC 2026"
    assert audit.data["changes"]["published"] == [True, False]


def test_a_championship_cannot_end_before_it_starts(championship, organiser):
    response = organiser.post(url("championship", championship), {
        "name": "X", "starts_at": "2026-09-20T09:00", "ends_on": "2026-09-19",
    })
    assert response.status_code == 200
    assert "cannot end before it starts" in response.content.decode()
    assert not AuditEntry.objects.filter(action="puzzlecomp.championship.changed").exists()


def test_a_floor_plan_is_saved_from_tables_per_row(championship, organiser):
    response = organiser.post(url("floor_plan", championship),
                              {"rows": "6, 8,10", "guest_tables": "2"})
    assert response.status_code == 302
    championship.refresh_from_db()
    assert (championship.floor_rows, championship.guest_tables) == ([6, 8, 10], 2)
    assert AuditEntry.objects.filter(action="puzzlecomp.championship.floor_plan_changed").exists()


@pytest.mark.parametrize(("rows", "guests", "message"), [
    ("6,0,8", "0", "Every row of the hall needs at least one table."),
    ("6,8", "20", "Guest tables must be between 0 and 14, not 20."),
    ("6;8", "0", "whole numbers separated by commas"),
])
def test_a_floor_plan_that_cannot_be_is_refused_and_nothing_changes(championship, organiser,
                                                                    rows, guests, message):
    before = list(championship.floor_rows)
    response = organiser.post(url("floor_plan", championship),
                              {"rows": rows, "guest_tables": guests})
    assert response.status_code == 200
    assert message in response.content.decode()
    championship.refresh_from_db()
    assert championship.floor_rows == before


def test_the_ruleset_settings_are_the_ones_the_ruleset_names(make_championship, client_as):
    """australia-state-national.txt: state awards go to residents of the host state."""
    championship = make_championship("australia-state")
    client = client_as(championship, Role.ORGANISER)
    page = client.get(url("settings", championship)).content.decode()
    assert "host_region" in page
    assert "The state or territory holding the competition" in page
    assert '<option value="NT">NT: Northern Territory</option>' in page
    assert client.post(url("settings", championship), {
        "host_region": "NSW", "act_state_competition": "held"}).status_code == 302
    championship.refresh_from_db()
    assert championship.settings == {"host_region": "NSW", "act_state_competition": "held"}
    assert AuditEntry.objects.filter(action="puzzlecomp.championship.settings_changed").exists()


def test_a_setting_value_the_ruleset_does_not_declare_is_refused(make_championship, client_as):
    """australia-state.toml: host_region takes the declared states and territories only."""
    championship = make_championship("australia-state")
    client = client_as(championship, Role.ORGANISER)
    response = client.post(url("settings", championship), {"host_region": "XYZ"})
    assert response.status_code == 200
    championship.refresh_from_db()
    assert "host_region" not in championship.settings


def test_the_settings_service_refuses_unknown_names_and_values_and_a_missing_setting(
    make_championship,
):
    """docs/rulesets.md, Settings: the same engine check as the CLI's, with its codes."""
    championship = make_championship("australia-state")
    for values, code in (({"host_regoin": "NSW"}, "setting.unknown"),
                         ({"host_region": "XYZ"}, "setting.value_unknown"),
                         ({"host_region": ""}, "setting.required")):
        with pytest.raises(SetupError) as caught:
            championship_settings_set(championship=championship, by=None, values=values)
        assert caught.value.code == code
    championship_settings_set(championship=championship, by=None, values={"HOST_REGION": "vic"})
    assert championship.settings == {"host_region": "VIC", "act_state_competition": "held"}


def test_an_event_capacity_is_saved_and_audited(championship, organiser):
    assert organiser.post(url("event", championship, "pairs"),
                          {"name": "Pairs", "capacity": "150"}).status_code \
        == 302
    assert championship.events.get(code="pairs").capacity == 150
    audit = AuditEntry.objects.get(action="puzzlecomp.event.changed")
    assert audit.data["event"] == "pairs"


def test_a_round_gets_its_name_time_limit_start_and_groups(championship, organiser):
    response = organiser.post(url("round", championship, "individual", "first"), {
        "name": "Heats", "time_limit_minutes": "90", "starts_at": "2026-09-20T10:00",
        "groups": "A, B ,C",
    })
    assert response.status_code == 302
    rnd = championship.events.get(code="individual").rounds.get(code="first")
    assert (rnd.name, rnd.time_limit_minutes, rnd.groups) == ("Heats", 90, ["A", "B", "C"])
    assert rnd.starts_at == dt.datetime(2026, 9, 20, 10, 0, tzinfo=dt.UTC)
    assert AuditEntry.objects.filter(action="puzzlecomp.round.changed").exists()


def test_a_group_label_may_appear_once_in_a_round(championship, organiser):
    response = organiser.post(url("round", championship, "individual", "first"),
                              {"name": "Heats", "groups": "A,B,A"})
    assert "Each group may appear once; repeated: A." in response.content.decode()


def test_a_puzzle_gets_its_brand_size_motif_and_box_picture(championship, organiser):
    response = organiser.post(url("puzzle", championship, "individual", "first", 0), {
        "brand": "Ravensburger", "pieces": "500", "motif": "Lighthouse at dusk",
    })
    assert response.status_code == 302
    puzzle = Puzzle.objects.get(round__event__championship=championship,
                                round__event__code="individual", round__code="first")
    assert (puzzle.brand, puzzle.motif, puzzle.picture) == ("Ravensburger",
                                                            "Lighthouse at dusk", False)
    assert AuditEntry.objects.filter(action="puzzlecomp.puzzle.changed").exists()


def test_the_motif_is_hidden_before_the_round_starts_and_visible_after(championship):
    puzzle = Puzzle.objects.filter(round__event__championship=championship).first()
    start = timezone.now() + dt.timedelta(hours=1)
    puzzle.round.starts_at = start
    assert not puzzle_motif_visible(puzzle, start - dt.timedelta(seconds=1))
    assert puzzle_motif_visible(puzzle, start)
    puzzle.round.starts_at = None
    assert not puzzle_motif_visible(puzzle, start)
    puzzle.round.state = RoundState.RUNNING
    assert puzzle_motif_visible(puzzle, start)


@pytest.fixture
def teams_round(championship):
    rnd = championship.events.get(code="teams").rounds.get(code="first")
    rnd.starts_at = timezone.now() + dt.timedelta(hours=2)
    rnd.save()
    return rnd


@pytest.fixture
def team(teams_round):
    return Entry.objects.create(event=teams_round.event, number=7, name="Puzzle Pals")


def test_a_team_chooses_two_of_the_four_models_before_the_start(championship, organiser,
                                                                teams_round, team):
    """wjpc-2025.txt: teams choose 2 of 4 models a few minutes before the start."""
    path = url("team_models", championship, "teams", "first")
    response = organiser.post(path, {"entry": "7", "models": ["1", "3"]})
    assert response.status_code == 302
    organiser.post(path, {"entry": "7", "models": ["2", "4"]})
    assert entry_models_chosen(rnd=teams_round) == {team.pk: (2, 4)}
    assert "Puzzle Pals" in organiser.get(path).content.decode()


def test_a_team_cannot_change_its_models_after_the_start(championship, organiser,
                                                         teams_round, team):
    """wjpc-2025.txt: "During the test, it is not possible to modify the 2 chosen puzzles"."""
    entry_models_choose(entry=team, rnd=teams_round, models=[1, 2], by=None)
    with pytest.raises(SetupError) as refused:
        entry_models_choose(entry=team, rnd=teams_round, models=[3, 4], by=None,
                            now=teams_round.starts_at)
    assert refused.value.code == "models.round_started"
    teams_round.starts_at = timezone.now() - dt.timedelta(minutes=1)
    teams_round.save()
    path = url("team_models", championship, "teams", "first")
    response = organiser.post(path, {"entry": "7", "models": ["3", "4"]})
    assert "cannot change" in response.content.decode()
    assert entry_models_chosen(rnd=teams_round) == {team.pk: (1, 2)}


def test_a_team_chooses_exactly_as_many_models_as_the_round_has_puzzles(teams_round, team):
    with pytest.raises(SetupError) as refused:
        entry_models_choose(entry=team, rnd=teams_round, models=[1, 1], by=None)
    assert refused.value.code == "models.bad_choice"
    with pytest.raises(SetupError):
        entry_models_choose(entry=team, rnd=teams_round, models=[1, 5], by=None)


def test_rounds_without_a_choice_of_models_have_no_models_page(championship, organiser):
    assert organiser.get(url("team_models", championship, "teams", "final")).status_code == 404
