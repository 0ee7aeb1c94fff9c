"""Upgrades keep what was recorded: data moved by a migration arrives where the code reads it."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from puzzlecomp.championships.models import (
    GroupDraw,
    ModelChoice,
    RelayDraw,
    RoundState,
    Seat,
    TimeCreditGrant,
)
from puzzlecomp.championships.selectors.lists import entry_models_chosen
from puzzlecomp.championships.selectors.live import time_credit_grants
from puzzlecomp.championships.selectors.planning import groups_seed_get
from puzzlecomp.championships.selectors.registration import relay_draws
from puzzlecomp.championships.services.disputes import time_credit_grant
from puzzlecomp.championships.services.rounds import round_state_set
from tests.web.test_live_control import START, group_entries, seated  # noqa: F401 (fixture)

BEFORE = [("championships", "0002_live_rounds")]
BEFORE_FACT_TABLES = [("championships", "0005_archive")]


def migrate(target: list[tuple[str, str]] | None = None) -> MigrationExecutor:
    """Migrate to `target` (default: the latest migrations)."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target or executor.loader.graph.leaf_nodes())
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
        migrate()
    seats = dict(Seat.objects.filter(round=seated).values_list("entry_id", "time_credit"))
    assert seats[credited.pk] == 90
    assert seats[untouched.pk] is None
    # And the code reads it from there.
    time_credit_grant(round=seated, entry=untouched, seconds=30, reason="Late start")
    assert Seat.objects.get(round=seated, entry=untouched).time_credit == 30


@pytest.mark.django_db(transaction=True)
def test_facts_kept_in_the_audit_log_before_the_upgrade_move_to_their_tables(
        seated, clock):  # noqa: F811 (the fixture)
    """Model choices, group draws, relay draws and time credit grants recorded by an earlier
    version only in the audit log are read from their own tables after the upgrade."""
    round_state_set(round=seated, state=RoundState.RUNNING, starts_at=START)
    team, other = group_entries(seated)[:2]
    event = seated.event
    try:
        apps = migrate(BEFORE_FACT_TABLES).loader.project_state(BEFORE_FACT_TABLES).apps
        audit = apps.get_model("championships", "AuditEntry").objects
        c = event.championship_id
        for models in ([1, 2], [2, 4]):  # the later choice counts
            audit.create(championship_id=c, action="puzzlecomp.entry.models_chosen",
                         data={"entry_id": team.pk, "entry": team.number,
                               "round_id": seated.pk, "round": seated.code, "models": models})
        audit.create(championship_id=c, action="puzzlecomp.groups.assigned",
                     data={"round": seated.pk, "event": event.code, "seed": 2025,
                           "entries": 12})
        audit.create(championship_id=c, action="puzzlecomp.relay.drawn",
                     data={"event": event.code, "seed": 77, "team_size": 4,
                           "pool": ["A (#1)", "B (#2)"], "teams": [],
                           "left_over": ["A (#1)", "B (#2)"], "currency": "EUR"})
        audit.create(championship_id=c, action="puzzlecomp.result.time_credit",
                     data={"round": seated.pk, "entry": other.number, "seconds": 45,
                           "reason": "Wrong puzzle"})
    finally:
        migrate()
    assert entry_models_chosen(rnd=seated) == {team.pk: (2, 4)}
    assert ModelChoice.objects.count() == 1
    assert groups_seed_get(seated) == 2025
    assert GroupDraw.objects.get(seed=2025).entries == 12
    draw = relay_draws(event=event).get()
    assert (draw.seed, draw.team_size, draw.left_over) == (77, 4, ["A (#1)", "B (#2)"])
    assert RelayDraw.objects.count() == 1
    [grant] = time_credit_grants(seated)
    assert (grant.entry, grant.seconds, grant.reason) == (other.number, 45, "Wrong puzzle")
    assert TimeCreditGrant.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_an_archive_stored_before_the_upgrade_loses_its_invented_dates_and_sizes():
    """Issue 30: an archive imported by an earlier version has 1 January as each edition's
    date and the rules' 2 x 1000 pieces on the 2019 teams final, whose counts pass them; after
    the upgrade the editions show their year alone and the round is unsized."""
    import datetime as dt

    from puzzlecomp.championships.models import Championship, Puzzle, Round
    from tests.web.test_archive_truth import TEAMS_2019, imported

    imported(TEAMS_2019)
    final = Round.objects.get(event__championship__slug="wjpc-2019", code="final")
    new_year = dt.datetime(2019, 1, 1, tzinfo=dt.UTC)
    try:
        apps = migrate([("championships", "0022_bank_transfers")]).loader \
            .project_state([("championships", "0022_bank_transfers")]).apps
        old_round = apps.get_model("championships", "Round")
        old_round.objects.filter(pk=final.pk).update(published_at=new_year)
        apps.get_model("championships", "Puzzle").objects.bulk_create(
            apps.get_model("championships", "Puzzle")(round_id=final.pk, position=i,
                                                      pieces=1000) for i in range(2))
    finally:
        migrate()
    assert Championship.objects.get(slug="wjpc-2019").date_known is False
    final.refresh_from_db()
    assert (final.size_unknown, final.published_at) == (True, None)
    assert not Puzzle.objects.filter(round=final).exists()
