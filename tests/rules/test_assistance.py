"""Australia, assistance: help asked for finishes with no time recorded; outside help, no time."""

from __future__ import annotations

import pytest

from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.ranking import rank_round
from puzzlecomp.rules.results import Result, Status
from puzzlecomp.rules.scoring import score_result
from puzzlecomp.rules.standings import event_standings
from tests.conftest import results, round_of

STATE = round_of("australia-state", "individual", time_limit_minutes=90, pieces=500)


def test_assisted_competitors_rank_after_every_unaided_one_sharing_one_place():
    """australia-state-national.txt: "If you would like help to complete your puzzle let an
    officiator know and we will find someone to help you" and "No time will be recorded";
    docs/rulesets.md, Assistance: after every unaided finisher and count, before a dnf."""
    ranking = rank_round(results(
        ("helped-1", Result(Status.ASSISTED)),
        ("counted", Result(Status.UNFINISHED, pieces=12)),
        ("stopped", Result(Status.DNF)),
        ("fast", Result(Status.FINISHED, time=3000)),
        ("helped-2", Result(Status.ASSISTED)),
    ), STATE)
    assert [(line.entry.id, line.rank) for line in ranking] == [
        ("fast", 1), ("counted", 2), ("helped-1", 3), ("helped-2", 3), ("stopped", 5)]
    assert ranking[2].score.final_time is None


def test_outside_assistance_means_no_time_and_no_place():
    """australia-state-national.txt: "No time will be recorded for any competitor who receives
    outside assistance in completing their puzzle": listed after the ranked, like a dsq."""
    ranking = rank_round(results(
        ("outside", Result(Status.OUTSIDE_HELP)),
        ("out", Result(Status.DNS)),
        ("fast", Result(Status.FINISHED, time=3000)),
        ("dsq", Result(Status.DSQ)),
    ), STATE)
    assert [(line.entry.id, line.rank) for line in ranking] == [
        ("fast", 1), ("dsq", None), ("outside", None), ("out", None)]
    standings = event_standings({"final": ranking}, STATE.event)
    assert [line.place for line in standings] == [1, None, None, None]


def test_an_assisted_result_carries_no_time():
    """australia-state-national.txt: no time is recorded for an assisted competitor."""
    with pytest.raises(RulesError) as caught:
        score_result(Result(Status.ASSISTED, time=3000), STATE, entry="A1")
    assert caught.value.code == "result.count_without_unfinished"


@pytest.mark.parametrize("status", [Status.ASSISTED, Status.OUTSIDE_HELP])
def test_rulesets_without_assistance_refuse_its_statuses(status):
    """wjpc-2025.txt knows finished, counted, dnf, dsq and dns results only."""
    with pytest.raises(RulesError) as caught:
        score_result(Result(status), round_of("wjpc-2025", "individual", "first"), entry="E1")
    assert [(v.code, v.field) for v in caught.value.violations] == [
        ("result.status_not_in_ruleset", "status")]
