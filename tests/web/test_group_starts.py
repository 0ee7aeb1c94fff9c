"""A start and a clock per group: WJPC groups A-F share the tables and play one after another
(wjpc-2025.txt); the head judge starts each group, each has its own clock, and the public
schedule lists when each group starts."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from puzzlecomp.championships.models import AuditEntry, GroupStart, Round, RoundState
from puzzlecomp.championships.selectors.live import finishes_awaiting_check
from puzzlecomp.championships.selectors.rounds import (
    group_clock_get,
    group_schedule_get,
    round_clock_get,
)
from puzzlecomp.championships.services.rounds import group_plan, group_start, round_advance
from puzzlecomp.rules.errors import RulesError
from tests.web import test_live_control as live
from tests.web.test_live_control import LIMIT, START, finish, group_entries, live_url

# The live control tests' round of groups A-F, seated, and its head judge.
seated = live.seated
head_judge = live.head_judge


def at(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text).replace(tzinfo=dt.UTC)


def test_starting_a_group_starts_the_round_and_only_that_groups_clock(seated):
    group_start(round=seated, group="A", now=START)
    seated.refresh_from_db()
    assert seated.state == RoundState.RUNNING
    assert seated.starts_at == START
    later = START + dt.timedelta(minutes=10)
    assert group_clock_get(seated, "A", now=later).elapsed_seconds == 600
    b = group_clock_get(seated, "B", now=later)
    assert b.state == "planned"
    assert b.started_at is None
    assert AuditEntry.objects.filter(action="puzzlecomp.round.group_started").exists()


def test_the_next_group_waits_for_the_tables_then_has_its_own_clock(seated):
    group_start(round=seated, group="A", now=START)
    with pytest.raises(RulesError) as refused:
        group_start(round=seated, group="B", now=START + dt.timedelta(minutes=30))
    assert refused.value.violations[0].code == "round.group_playing"
    b_start = START + dt.timedelta(seconds=LIMIT + 15 * 60)
    group_start(round=seated, group="B", now=b_start)
    clock = group_clock_get(seated, "B", now=b_start + dt.timedelta(minutes=1))
    assert clock.started_at == b_start
    assert clock.elapsed_seconds == 60
    assert clock.ends_at == b_start + dt.timedelta(seconds=LIMIT)


def test_the_round_counts_only_after_the_last_group(seated):
    starts = {}
    now = START
    for group in seated.groups:
        group_start(round=seated, group=group, now=now)
        starts[group] = now
        now += dt.timedelta(seconds=LIMIT)
        round_advance(Round.objects.get(pk=seated.pk), now=now)
        rnd = Round.objects.get(pk=seated.pk)
        last = group == seated.groups[-1]
        assert rnd.state == (RoundState.COUNTING if last else RoundState.RUNNING)
    assert set(GroupStart.objects.filter(round=seated).values_list("state", flat=True)) \
        == {RoundState.COUNTING}


def test_a_round_started_as_a_whole_keeps_one_clock(seated):
    from puzzlecomp.championships.services.rounds import round_move
    round_move(round=seated, to=RoundState.RUNNING, now=START)
    later = START + dt.timedelta(minutes=5)
    assert not GroupStart.objects.filter(round=seated).exists()
    assert group_clock_get(seated, "B", now=later) == round_clock_get(seated, now=later)
    assert {g.started_at for g in group_schedule_get(seated, now=later)} == {START}


def test_the_head_judge_starts_a_group_after_confirming(head_judge, seated, clock):
    page = head_judge.get(live_url("round", seated)).content.decode()
    assert "Start group A" in page
    assert "Groups at the tables" in page
    confirm = head_judge.get(live_url("group_start", seated, "A"))
    assert b"Start group A?" in confirm.content
    assert not GroupStart.objects.filter(started_at__isnull=False).exists()
    head_judge.post(live_url("group_start", seated, "A"))
    assert GroupStart.objects.get(round=seated, group="A").started_at == START
    assert head_judge.get(live_url("group_start", seated, "Z")).status_code == 404


def test_starting_long_before_the_planned_start_asks_to_confirm(head_judge, seated, clock):
    group_plan(round=seated, planned={"A": at("2027-07-01T14:00")})
    page = head_judge.get(live_url("group_start", seated, "A")).content.decode()
    assert "long from now" in page
    seated.starts_at = at("2027-07-01T14:00")
    seated.save()
    assert "long from now" in head_judge.get(live_url("move", seated, "running")).content.decode()
    clock("2027-07-01T13:55")
    assert "long from now" not in head_judge.get(
        live_url("group_start", seated, "A")).content.decode()


def test_the_head_judge_plans_the_groups_and_the_public_schedule_lists_them(
        head_judge, seated, client):
    head_judge.post(live_url("groups_plan", seated),
                    {"A": "2027-07-01T09:00", "B": "2027-07-01T11:00"})
    assert GroupStart.objects.get(round=seated, group="B").planned_at is not None
    seated.event.championship.published = True
    seated.event.championship.save()
    page = client.get(reverse("public:schedule", args=[seated.event.championship.slug]))
    assert page.status_code == 200
    text = page.content.decode()
    assert 'data-schedule-group="A"' in text
    assert 'data-schedule-group="F"' in text


def test_the_schedule_of_a_draft_championship_stays_private(seated, client):
    seated.event.championship.published = False
    seated.event.championship.save()
    assert client.get(reverse("public:schedule",
                              args=[seated.event.championship.slug])).status_code == 404


def test_a_groups_floor_map_queue_lists_only_its_finishes_and_names_the_group(
        head_judge, seated):
    group_start(round=seated, group="A", now=START)
    a_entry = group_entries(seated, "A")[0]
    finish(seated, a_entry, 1200, checked=False)
    assert [q.group for q in finishes_awaiting_check(seated)] == ["A"]
    assert finishes_awaiting_check(seated, group="B") == []
    on_b = head_judge.get(live_url("map", seated) + "?group=B").content.decode()
    assert "Group B only." in on_b
    assert f'data-queue-entry="{a_entry.number}"' not in on_b
    on_a = head_judge.get(live_url("map", seated) + "?group=A").content.decode()
    assert f'data-queue-entry="{a_entry.number}"' in on_a
    assert "group A" in on_a


def test_public_results_show_when_the_dispute_window_closes(seated, client, clock):
    """wjpc-2025.txt, Disputes and Reviews: 4 hours from the published results."""
    from puzzlecomp.championships.services.rounds import round_state_set
    championship = seated.event.championship
    championship.published = True
    championship.save()
    seated.time_limit_minutes = 90
    seated.save()
    round_state_set(round=seated, state=RoundState.PUBLISHED, starts_at=START)
    page = client.get(reverse("public:live:round", args=[championship.slug, seated.pk]))
    assert "data-disputes-close" in page.content.decode()


def test_the_floor_map_of_each_group_follows_its_own_clock(seated):
    from puzzlecomp.championships.selectors.live import SeatState, live_floor_get
    group_start(round=seated, group="A", now=START)
    after_a = START + dt.timedelta(seconds=LIMIT + 60)

    def states(group: str) -> set[str]:
        floor = live_floor_get(Round.objects.get(pk=seated.pk), group, now=after_a)
        return {s.state for t in floor.tables for s in t.seats}

    assert states("A") == {SeatState.COUNTING}
    assert states("B") == {SeatState.WAITING}


def test_stopping_assembly_while_groups_wait_names_them_and_passes_only_knowingly(
        seated, head_judge):
    """Review of issue 24: "Stop assembling" with group A at the tables ended groups B-F too,
    before they ever sat down (wjpc-2025.txt: groups play one after another)."""
    from puzzlecomp.championships.services.rounds import round_move

    group_start(round=seated, group="A", now=START)
    waiting = [g for g in seated.groups if g != "A"]
    page = head_judge.get(live_url("move", seated, "counting")).content.decode()
    assert f"{len(waiting)} groups have not started ({', '.join(waiting)})" in page
    with pytest.raises(RulesError) as refused:
        round_move(round=seated, to=RoundState.COUNTING, now=START + dt.timedelta(minutes=5))
    assert refused.value.violations[0].code == "guard.groups_not_started"
    seated.refresh_from_db()
    assert seated.state == RoundState.RUNNING
    round_move(round=seated, to=RoundState.COUNTING, now=START + dt.timedelta(minutes=5),
               knowingly=len(waiting))
    seated.refresh_from_db()
    assert seated.state == RoundState.COUNTING
    assert AuditEntry.objects.filter(data__groups_not_started=waiting).exists()
