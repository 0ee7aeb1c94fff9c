"""A time credit is at most the round's time limit (never over a day, rules/limits.py): the
head judge's form, the service and the engine refuse more, and an old oversized grant in the
log does not break the championship file."""

from __future__ import annotations

import pytest

from puzzlecomp.championships.models import Seat, TimeCreditGrant
from puzzlecomp.championships.selectors.live import time_credit_of
from puzzlecomp.championships.services.disputes import time_credit_grant
from puzzlecomp.championships.services.interchange import championship_export
from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.results import Result, Status
from puzzlecomp.rules.scoring import score_result
from tests.conftest import round_of
from tests.web.test_live_control import (
    LIMIT,
    group_entries,
    head_judge,
    live_url,
    running,
    seated,
)

__all__ = ["head_judge", "running", "seated"]  # fixtures


@pytest.mark.parametrize("credit", ["999999999999", "99999:59:59", "24:00:01"])
def test_the_head_judges_form_refuses_a_credit_over_a_day(head_judge, running, clock, credit):
    """wjpc-2025.txt, Start of the round: the credit is the time lost, at most a day."""
    entry = group_entries(running)[0]
    response = head_judge.post(live_url("credit", running), {
        "entry": entry.number, "credit": credit, "reason": "Wrong puzzle"}, follow=True)
    assert response.status_code == 200
    assert "A time credit is at most 24:00:00." in response.content.decode()
    assert Seat.objects.get(round=running, entry=entry).time_credit is None
    assert head_judge.get(live_url("round", running)).status_code == 200


def test_the_service_refuses_a_credit_over_the_rounds_limit(running, clock):
    """wjpc-2025.txt, Start of the round: the time lost cannot exceed the round's time."""
    entry = group_entries(running)[0]
    with pytest.raises(RulesError) as refused:
        time_credit_grant(round=running, entry=entry, seconds=LIMIT + 1, reason="Wrong puzzle")
    assert (refused.value.code, refused.value.violations[0].field) == (
        "result.credit_too_large", "time_credit")
    assert time_credit_grant(round=running, entry=entry, seconds=LIMIT,
                             reason="Wrong puzzle") == LIMIT
    assert time_credit_of(running, entry) == LIMIT


def test_the_engine_refuses_a_result_credit_over_the_limit():
    """wjpc-2025.txt, Start of the round; rules/credits.py."""
    rules = round_of("wjpc-2025", "individual", "final")
    with pytest.raises(RulesError) as refused:
        score_result(Result(Status.FINISHED, time=100,
                            time_credit=rules.time_limit_seconds + 1), rules)
    assert refused.value.code == "result.credit_too_large"


def test_an_old_oversized_grant_taken_back_does_not_break_the_championship_file(running, clock):
    """A grant stored before credits were bounded stays in the log; the file leaves it out."""
    entry = group_entries(running)[0]
    TimeCreditGrant.objects.create(round=running, entry=entry, seconds=999_999, reason="typo")
    time_credit_grant(round=running, entry=entry, seconds=0, reason="typo taken back")
    data = championship_export(running.event.championship)
    assert [g["seconds"] for g in data["time_credits"]] == [0]
