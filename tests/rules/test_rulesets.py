"""The ruleset files: every rulebook loads, with the events, rounds and limits of its rulebook."""

from __future__ import annotations

import pytest

from puzzlecomp.rules.describe import describe_ruleset
from puzzlecomp.rules.errors import RulesError, RulesetError
from puzzlecomp.rules.loading import load_ruleset, parse_ruleset, ruleset_ids
from tests.conftest import round_of

ROUNDS = {
    "wjpc-2025": {
        "individual": [("first", 90, (500,)), ("second", 75, (500,)), ("final", 75, (500,))],
        "pairs": [("first", 75, (500,)), ("semifinal", 60, (500,)), ("final", 120, (1000,))],
        "teams": [("first", 180, (1000, 1000)), ("final", 180, (1000, 1000))],
    },
    "czech-championship": {
        "individual": [("qualification", 90, (500,)), ("final", 75, (500,))],
        "pairs": [("qualification", 75, (500,)), ("final", 120, (1000,))],
        "teams": [("final", 150, (1000, 500))],
    },
    "czech-blind-relay": {
        "individual": [("final", 90, (500,))],
        "relay": [("final", 300, (500,) * 7 + (1000,))],
    },
}


def test_every_rulebook_has_a_ruleset():
    assert ruleset_ids() == [
        "australia-national", "australia-state", "czech-blind-relay", "czech-championship",
        "norway-nm-2025", "wjpc-2025",
    ]


@pytest.mark.parametrize("ruleset_id", sorted(ROUNDS))
def test_rounds_time_limits_and_puzzle_sizes_follow_the_rulebook(ruleset_id):
    """Each rulebook's rounds, limits and puzzle sizes (see the issue's list)."""
    ruleset = load_ruleset(ruleset_id)
    for event_id, rounds in ROUNDS[ruleset_id].items():
        event = ruleset.event(event_id)
        assert [(r.id, r.time_limit_minutes, r.puzzle_sizes) for r in event.rounds] == rounds


def test_wjpc_2025_groups_and_where_they_go():
    """wjpc-2025.txt: groups A-F; S1 from A+B, S2 from C+D, S3 from E+F; pairs A-D to S1, S2."""
    event = load_ruleset("wjpc-2025").event("individual")
    first = event.round("first")
    assert first.groups == ("A", "B", "C", "D", "E", "F")
    assert first.qualification.to_group == {
        "A": "S1", "B": "S1", "C": "S2", "D": "S2", "E": "S3", "F": "S3"
    }
    pairs = load_ruleset("wjpc-2025").event("pairs").round("first")
    assert pairs.groups == ("A", "B", "C", "D")
    assert set(pairs.qualification.to_group.values()) == {"S1", "S2"}


def test_the_blind_contest_gives_no_picture():
    """czech-blind-and-relay.txt, 2.1: only an opaque bag; the box comes after the run."""
    puzzle = load_ruleset("czech-blind-relay").event("individual").rounds[0].puzzles[0]
    assert puzzle.picture is False


@pytest.mark.parametrize("ruleset_id", ["australia-state", "australia-national",
                                        "norway-nm-2025"])
def test_rulebooks_without_a_limit_or_size_require_them_from_the_organiser(ruleset_id):
    """australia-state-national.txt and norway-nm-2025.txt state no time limit or puzzle size."""
    for event in ("individual", "pairs", "teams"):
        with pytest.raises(RulesError) as caught:
            round_of(ruleset_id, event)
        assert {v.code for v in caught.value.violations} == {
            "round.time_limit_required", "round.pieces_required"
        }
        rules = round_of(ruleset_id, event, time_limit_minutes=120, pieces=1000)
        assert (rules.time_limit_seconds, rules.puzzle_sizes) == (7200, (1000,))


def test_overrides_replace_the_rulesets_limit_and_size():
    rules = round_of("wjpc-2025", "individual", "final", time_limit_minutes=80, pieces=1000)
    assert (rules.time_limit_seconds, rules.puzzle_sizes) == (4800, (1000,))


def test_unknown_ruleset_event_and_round_are_named():
    with pytest.raises(RulesetError, match="unknown ruleset 'nope'"):
        load_ruleset("nope")
    with pytest.raises(RulesError, match="no event 'solo'"):
        round_of("wjpc-2025", "solo")
    with pytest.raises(RulesError, match="no round 'semifinal'"):
        round_of("wjpc-2025", "individual", "semifinal")


def test_a_malformed_ruleset_file_names_the_file_and_the_field():
    text = load_ruleset_text("wjpc-2025").replace("time_limit_minutes = 90",
                                                  'time_limit_minutes = "ninety"')
    with pytest.raises(RulesetError) as caught:
        parse_ruleset(text, filename="broken.toml")
    message = str(caught.value)
    assert "broken.toml" in message
    assert "events[individual].rounds[first].time_limit_minutes" in message


def test_a_ruleset_file_with_bad_syntax_names_the_file():
    with pytest.raises(RulesetError, match=r"^broken\.toml: "):
        parse_ruleset("id = ", filename="broken.toml")


def test_an_unknown_key_is_refused_rather_than_ignored():
    text = load_ruleset_text("wjpc-2025").replace("seconds_per_piece = 5",
                                                  "seconds_per_piece = 5\nsecond_per_piece = 5")
    with pytest.raises(RulesetError, match=r"penalty\.second_per_piece"):
        parse_ruleset(text, filename="typo.toml")


def test_a_play_off_within_the_group_maximum_needs_the_next_rounds_maximum():
    """wjpc-2025.txt, Second round: the play-off fills what "a maximum of 180 participants per
    group" leaves, so a ruleset that asks for it without the next round's maximum is refused."""
    text = load_ruleset_text("wjpc-2025").replace("max_per_group = 180\n", "", 1)
    with pytest.raises(RulesetError, match="within_group_maximum needs max_per_group in round "
                                           "'second'"):
        parse_ruleset(text, filename="no-maximum.toml")


def test_the_wjpc_play_off_reads_within_the_semifinals_maximum():
    """wjpc-2025.txt, Second round and Semifinal Pairs (docs/qualification.md, WJPC semifinal
    sizes): the description names both maxima of the play-off."""
    lines = describe_ruleset(load_ruleset("wjpc-2025"))
    assert sum("at most 15 entrants and the places the next round's group maximum leaves"
               in line for line in lines) == 1
    assert sum("at most 20 entrants and the places the next round's group maximum leaves"
               in line for line in lines) == 1


@pytest.mark.parametrize("ruleset_id", ruleset_ids())
def test_every_ruleset_reads_in_plain_words(ruleset_id):
    lines = describe_ruleset(load_ruleset(ruleset_id))
    assert lines[0].startswith(load_ruleset(ruleset_id).name)
    assert any(line.startswith("Penalty: ") for line in lines)


def load_ruleset_text(ruleset_id: str) -> str:
    from importlib import resources

    return resources.files("puzzlecomp.rules.rulesets").joinpath(f"{ruleset_id}.toml").read_text()
