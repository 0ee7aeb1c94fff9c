"""Time credits follow one rule in every path (issue 23, item 10; rules/credits.py)."""

from __future__ import annotations

import pytest

from puzzlecomp.rules.credits import time_credit_allowed, time_credit_refusal
from puzzlecomp.rules.describe import describe_ruleset
from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.loading import load_ruleset, ruleset_ids
from puzzlecomp.rules.results import Result, Status
from puzzlecomp.rules.rounds import RoundRules
from puzzlecomp.rules.ruleset import Ruleset
from puzzlecomp.rules.scoring import score_result
from tests.conftest import round_of

WJPC_FINAL = round_of("wjpc-2025", "individual", "final")


def before_final(rules: RoundRules) -> RoundRules:
    ruleset = Ruleset.model_validate({**rules.ruleset.model_dump(by_alias=True),
                                      "time_credits": "before_final"})
    event = ruleset.event(rules.event.id)
    return RoundRules(ruleset, event, event.round(rules.round.id), rules.time_limit_seconds,
                      rules.puzzle_sizes)


def test_the_wjpc_credit_for_a_wrong_puzzle_applies_in_the_final_too():
    """wjpc-2025.txt, Start of the round: "If the puzzle(s) provided do not match the models for
    the round, the Organization will correct the mistake by recording the time elapsed ... and
    subtracting it from the participant's final time" and gives it as extra time; no round,
    the final included, is named as an exception."""
    assert load_ruleset("wjpc-2025").time_credits == "every_round"
    score = score_result(Result(Status.FINISHED, time=4600, time_credit=120), WJPC_FINAL)
    assert score.final_time == 4480  # past the 75 minutes by 100 s, within the extra time


@pytest.mark.parametrize("ruleset_id", ruleset_ids())
def test_every_bundled_ruleset_keeps_the_rulebook_default_of_credits_in_every_round(ruleset_id):
    """docs/rulesets.md, Time credits: only the WJPC rulebook speaks of a credit, and names no
    round without it; the others are silent, and the default follows the WJPC's remedy."""
    ruleset = load_ruleset(ruleset_id)
    assert ruleset.time_credits == "every_round"
    for event in ruleset.events:
        assert all(time_credit_allowed(ruleset, event, rnd) for rnd in event.rounds)


def test_before_final_is_an_organisers_reading_refused_in_the_final_by_the_engine():
    """A ruleset that keeps credits out of the final (`time_credits = "before_final"`) has the
    engine refuse a credit there, whoever records the result; earlier rounds keep it."""
    final = before_final(WJPC_FINAL)
    with pytest.raises(RulesError) as refused:
        score_result(Result(Status.FINISHED, time=4000, time_credit=60), final, entry="7")
    assert [(v.code, v.field, v.entry) for v in refused.value.violations] == [
        ("result.credit_in_final", "time_credit", "7")]
    assert score_result(Result(Status.FINISHED, time=4000), final).final_time == 4000
    first = before_final(round_of("wjpc-2025", "individual", "first"))
    assert score_result(Result(Status.FINISHED, time=4000, time_credit=60),
                        first).final_time == 3940
    assert time_credit_refusal(final.ruleset, final.event, final.round, credit=0) is None


def test_rulesets_show_says_which_rounds_take_credits_and_the_finish_gap():
    """`puzzlecomp rulesets show` states the readings in plain words (docs/rulesets.md)."""
    lines = describe_ruleset(load_ruleset("wjpc-2025"))
    assert "Time credits: in every round." in lines
    assert "A puzzle that starts after another is checked finishes at least 1 s after it." in lines
    assert ("Ages (alone from 14): by birth date on 31 December before the competition year."
            in lines)
    australia = describe_ruleset(load_ruleset("australia-state"))
    assert any("every unaided entrant; takes no prize" in line for line in australia)
