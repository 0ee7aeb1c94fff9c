"""Spectators of one group follow that group's clock: groups sharing the tables start apart
(wjpc-2025.txt, groups A-F on the same tables)."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from puzzlecomp.championships.models import GroupStart, Round, RoundState
from puzzlecomp.live.snapshot import round_snapshot
from tests.support import published_championship, round_of


def grouped_round() -> Round:
    rnd = round_of(published_championship("Group Clocks", venue="Hall"))
    rnd.groups = ["A", "B"]
    rnd.save()
    return rnd


def test_a_round_started_as_a_whole_has_no_group_clocks(transactional_db):
    rnd = grouped_round()
    assert round_snapshot(rnd)["group_clocks"] == {}


def test_each_started_group_has_its_own_clock_in_the_snapshot(transactional_db):
    rnd = grouped_round()
    a_start = timezone.now() - dt.timedelta(minutes=10)
    rnd.state, rnd.starts_at = RoundState.RUNNING, a_start
    rnd.save()
    GroupStart.objects.create(round=rnd, group="A", started_at=a_start,
                              state=RoundState.RUNNING)
    data = round_snapshot(rnd)
    a, b = data["group_clocks"]["A"], data["group_clocks"]["B"]
    assert a["state"] == "running"
    assert a["started_at"] == a_start.isoformat()
    assert b["state"] == "planned"
    assert b["started_at"] is None
    assert data["clock"]["started_at"] == a_start.isoformat()


def test_the_public_api_gives_a_groups_own_clock(transactional_db, client):
    rnd = grouped_round()
    a_start = timezone.now() - dt.timedelta(minutes=10)
    rnd.state, rnd.starts_at = RoundState.RUNNING, a_start
    rnd.save()
    GroupStart.objects.create(round=rnd, group="A", started_at=a_start,
                              state=RoundState.RUNNING)
    url = f"/api/v1/championships/{rnd.event.championship.slug}/rounds/{rnd.pk}/clock"
    assert client.get(url, {"group": "B"}).json()["state"] == "planned"
    started = client.get(url, {"group": "A"}).json()["started_at"]
    assert abs(dt.datetime.fromisoformat(started) - a_start) < dt.timedelta(milliseconds=1)
    assert client.get(url, {"group": "Z"}).status_code == 404
