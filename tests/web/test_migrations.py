"""Upgrades keep what was recorded: data moved by a migration arrives where the code reads it."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from puzzlecomp.championships.models import RoundState, Seat
from puzzlecomp.championships.services.disputes import time_credit_grant
from puzzlecomp.championships.services.rounds import round_state_set
from tests.web.test_live_control import START, group_entries, seated  # noqa: F401 (fixture)

BEFORE = [("championships", "0002_live_rounds")]


def migrate(target: list[tuple[str, str]] | None) -> MigrationExecutor:
    """Migrate to `target`; None: to the latest migration, as the other tests expect."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target or executor.loader.graph.leaf_nodes("championships"))
    return executor


@pytest.mark.django_db(transaction=True)
def test_time_credits_granted_before_the_upgrade_move_from_the_audit_log_to_the_seats(
        seated, clock):  # noqa: F811 (the fixture)
    """wjpc-2025.txt, Start of the round (a wrong puzzle handed out): a credit granted on an
    earlier version, kept only in the audit log, still counts after the upgrade."""
    round_state_set(round=seated, state=RoundState.RUNNING, starts_at=START)
    credited, untouched = group_entries(seated)[:2]
    try:
        apps = migrate(BEFORE).loader.project_state(BEFORE).apps
        audit = apps.get_model("championships", "AuditEntry")
        championship_id = seated.event.championship_id
        for seconds in (60, 90):  # the later grant is the one that holds
            audit.objects.create(championship_id=championship_id,
                                 action="puzzlecomp.result.time_credit",
                                 data={"round": seated.pk, "entry": credited.number,
                                       "seconds": seconds, "reason": "Wrong puzzle"})
    finally:
        migrate(None)
    seats = dict(Seat.objects.filter(round=seated).values_list("entry_id", "time_credit"))
    assert seats[credited.pk] == 90
    assert seats[untouched.pk] is None
    # And the code reads it from there.
    time_credit_grant(round=seated, entry=untouched, seconds=30, reason="Late start")
    assert Seat.objects.get(round=seated, entry=untouched).time_credit == 30
