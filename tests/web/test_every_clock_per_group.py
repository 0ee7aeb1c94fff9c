"""Every clock of a round whose two groups share the tables, through every state (issue 24,
item 2): the head judge's floor map of each group, the public results page and projector of
each group, the streaming overlay, the API's clock and the judges' phones all show what
`rules.round_life.group_clock_at` decides: a group that waits shows "waiting" and its limit,
never the other group's countdown; "Stop assembling" shows counting everywhere at once; from
provisional on every clock shows the round's end.

wjpc-2025.txt, Group Assignment for First Round (groups), Unfinished Puzzles (counting at the
maximum time).
"""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.urls import reverse

from puzzlecomp.championships.models import Round, RoundState
from puzzlecomp.championships.selectors.rounds import round_results_missing_get
from puzzlecomp.championships.services.device_overview import device_overview
from puzzlecomp.championships.services.devices import device_create
from puzzlecomp.championships.services.rounds import group_start, round_move
from tests.web import test_live_control as live
from tests.web.test_live_control import LIMIT, START, live_url, state_json

seated = live.seated
head_judge = live.head_judge

B_START = START + dt.timedelta(seconds=LIMIT + 10 * 60)
STOP = B_START + dt.timedelta(minutes=60)


def shows_in(page: str) -> tuple[str, str, str]:
    """(shows, state words, what the face reads) of the one public clock on a page."""
    box = re.search(r'data-clock-box data-shows="(\w+)">\s*<span class="state state-\w+" '
                    r'data-state>([^<]*)</span>.*?<strong class="clock" data-clock>([^<]*)',
                    page, re.S)
    assert box is not None, page
    return box.group(1), box.group(2), box.group(3)


def every_clock(client, head_judge, rnd: Round, group: str) -> dict[str, object]:
    slug = rnd.event.championship.slug
    results = reverse("public:live:round", args=[slug, rnd.pk]) + f"?group={group}"
    projector = reverse("public:live:projector", args=[slug, rnd.pk]) + f"?group={group}"
    overlay = reverse("public:live:overlay", args=[slug, rnd.pk, "clock"]) + f"?group={group}"
    api = f"/api/v1/championships/{slug}/rounds/{rnd.pk}/clock?group={group}"
    floor_map = head_judge.get(live_url("map", rnd) + f"?group={group}").content.decode()
    return {
        "map.json": state_json(head_judge, rnd, group).json()["clock"]["shows"],
        "map": re.search(r'data-clock-box data-shows="(\w+)"', floor_map).group(1),
        "results": shows_in(client.get(results).content.decode())[0],
        "projector": shows_in(client.get(projector).content.decode())[0],
        "overlay": shows_in(client.get(overlay).content.decode())[0],
        "api": client.get(api).json()["shows"],
    }


def expect(shows: str) -> dict[str, str]:
    return dict.fromkeys(("map.json", "map", "results", "projector", "overlay", "api"), shows)


def knowingly(rnd: Round) -> int:
    return len(round_results_missing_get(rnd))


@pytest.mark.parametrize("step", ["planned", "A runs", "A at its limit", "B runs", "stopped",
                                  "provisional", "published", "final"])
def test_every_clock_of_each_group_through_every_state(step, seated, client, head_judge, clock):
    steps = ["planned", "A runs", "A at its limit", "B runs", "stopped", "provisional",
             "published", "final"]
    reached = steps.index(step)
    expected = {
        "planned": ("waiting", "waiting"),
        "A runs": ("countdown", "waiting"),
        "A at its limit": ("counting", "waiting"),
        "B runs": ("counting", "countdown"),
        "stopped": ("counting", "counting"),
        "provisional": ("ended", "ended"),
        "published": ("ended", "ended"),
        "final": ("ended", "ended"),
    }[step]
    moments = {
        "planned": START - dt.timedelta(minutes=5),
        "A runs": START + dt.timedelta(minutes=30),
        "A at its limit": START + dt.timedelta(seconds=LIMIT + 60),
        "B runs": B_START + dt.timedelta(minutes=30),
        "stopped": STOP + dt.timedelta(minutes=1),
        "provisional": STOP + dt.timedelta(minutes=20),
        "published": STOP + dt.timedelta(minutes=30),
        "final": STOP + dt.timedelta(hours=5),
    }
    seated.groups = ["A", "B"]
    seated.save(update_fields=["groups"])
    if reached >= 1:
        group_start(round=seated, group="A", now=START)
    if reached >= 3:
        group_start(round=seated, group="B", now=B_START)
    if reached >= 4:
        round_move(round=seated, to=RoundState.COUNTING, now=STOP)
    for state, at in (("provisional", 20), ("published", 30)):
        if reached >= steps.index(state):
            round_move(round=seated, to=RoundState(state), now=STOP + dt.timedelta(minutes=at),
                       knowingly=knowingly(seated))
    if reached >= steps.index("final"):
        round_move(round=seated, to=RoundState.FINAL, now=moments["final"])
    clock(moments[step].replace(tzinfo=None).isoformat())
    seated.refresh_from_db()
    assert every_clock(client, head_judge, seated, "A") == expect(expected[0])
    assert every_clock(client, head_judge, seated, "B") == expect(expected[1])


def test_a_waiting_group_shows_waiting_and_its_limit_not_the_other_groups_countdown(
        seated, client, clock):
    seated.groups = ["A", "B"]
    seated.save(update_fields=["groups"])
    group_start(round=seated, group="A", now=START)
    clock("2027-07-01T12:30")
    slug = seated.event.championship.slug
    overlay = reverse("public:live:overlay", args=[slug, seated.pk, "clock"])
    assert shows_in(client.get(overlay + "?group=B").content.decode()) == (
        "waiting", "Waiting", "1:30:00")
    assert shows_in(client.get(overlay + "?group=A").content.decode()) == (
        "countdown", "Running", "1:00:00")


def test_stop_assembling_shows_counting_and_when_it_stopped_not_a_countdown(
        seated, client, clock):
    group_start(round=seated, group="A", now=START)
    # Groups B-F wait: stopping now ends them too, passed knowingly (rules/guards.py).
    round_move(round=seated, to=RoundState.COUNTING, now=START + dt.timedelta(minutes=40),
               knowingly=len(seated.groups) - 1)
    clock("2027-07-01T12:45")
    slug = seated.event.championship.slug
    page = client.get(reverse("public:live:round", args=[slug, seated.pk]) + "?group=A")
    assert shows_in(page.content.decode()) == ("counting", "Counting", "12:40")
    seated.refresh_from_db()
    assert seated.assembly_stopped_at == START + dt.timedelta(minutes=40)


def test_the_judges_phone_shows_the_clock_the_rules_decide(seated, clock):
    championship = seated.event.championship
    championship.starts_at = START
    championship.save(update_fields=["starts_at"])
    device = device_create(championship=seated.event.championship, label="Tables 1-10",
                           table_from=1, table_to=10, user=None)[0]
    group_start(round=seated, group="A", now=START)
    # Groups B-F wait: stopping now ends them too, passed knowingly (rules/guards.py).
    round_move(round=seated, to=RoundState.COUNTING, now=START + dt.timedelta(minutes=40),
               knowingly=len(seated.groups) - 1)
    clock("2027-07-01T12:50")
    (shown,) = device_overview(device).rounds
    assert shown.clock["shows"] == "counting"
    assert shown.clock["ended_at"] == (START + dt.timedelta(minutes=40)).isoformat()
