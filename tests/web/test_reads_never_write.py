"""Reads never write: a round past its limit reads as counting on every page and in the API
without a single write; the live pump is the one place that writes the move."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from puzzlecomp.championships.models import AuditEntry, Notice, Role, Round, RoundState
from puzzlecomp.championships.services.groups import groups_assign
from puzzlecomp.championships.services.results import ResultValues, result_submit
from puzzlecomp.championships.services.rounds import round_state_set
from puzzlecomp.championships.services.seating import seating_assign
from puzzlecomp.live.pump import poll
from puzzlecomp.live.snapshot import snapshot_cache_clear
from puzzlecomp.rules.results import Status
from tests.web.test_groups import add_entries, first_round

START = dt.datetime(2027, 7, 1, 12, 0, tzinfo=dt.UTC)
WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")


@pytest.fixture
def past_its_limit(championship, clock) -> Round:
    """The first individual round, started at 12:00 with one finish; the site's clock stands
    a minute past its 90-minute limit and nobody has written the move to counting."""
    rnd = first_round(championship)
    entries = add_entries(rnd.event, {"CZ": 6, "NO": 6})
    groups_assign(round=rnd, seed=1)
    seating_assign(round=rnd)
    round_state_set(round=rnd, state=RoundState.RUNNING, starts_at=START)
    clock("2027-07-01T12:40")
    result_submit(round=rnd, entry=entries[0], action="tap",
                  values=ResultValues(status=Status.FINISHED, time_seconds=2400))
    clock("2027-07-01T13:31")
    snapshot_cache_clear()
    return rnd


def reads(rnd: Round) -> list[tuple[str, str]]:
    """(who, url) of every read that shows the round's state or clock."""
    slug = rnd.event.championship.slug
    api = f"/api/v1/championships/{slug}"
    live = [reverse(f"control:live:{name}", args=[slug, rnd.pk])
            for name in ("round", "map", "entries", "disputes", "state")]
    return [
        *(("public", url) for url in (
            f"{api}/rounds/{rnd.pk}/clock", f"{api}/rounds/{rnd.pk}/ranking", api,
            f"{api}/entries/individual/1", reverse("public:live:index", args=[slug]),
            reverse("public:live:round", args=[slug, rnd.pk]),
            reverse("public:live:projector", args=[slug, rnd.pk]),
            reverse("public:live:entrant", args=[slug, "individual", 1]),
            reverse("public:championship", args=[slug]),
            reverse("public:live_now", args=[slug]))),
        *(("head judge", url) for url in [*live, reverse("control:live:index", args=[slug])]),
    ]


def test_no_read_writes_and_every_read_shows_the_round_counting(client, client_as,
                                                                past_its_limit):
    head_judge = client_as(past_its_limit.event.championship, Role.HEAD_JUDGE)
    head_judge.get(reverse("control:live:index", args=[past_its_limit.event.championship.slug]))
    for who, url in reads(past_its_limit):
        reader = client if who == "public" else head_judge
        with CaptureQueriesContext(connection) as queries:
            response = reader.get(url)
        assert response.status_code == 200, url
        writes = [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith(WRITES)]
        assert writes == [], url
        # The state badge of a page, the state of a JSON answer.
        assert re.search(r'state-counting"|"state": ?"counting"', response.content.decode()), url
    past_its_limit.refresh_from_db()
    assert past_its_limit.state == RoundState.RUNNING
    assert not AuditEntry.objects.filter(action="puzzlecomp.round.counting").exists()


def test_the_live_pump_writes_the_move_once_and_announces_it(past_its_limit):
    before = Notice.objects.filter(round=past_its_limit, kind="state").count()
    seen, _ = poll(None, set())
    poll(seen, set())
    past_its_limit.refresh_from_db()
    assert past_its_limit.state == RoundState.COUNTING
    assert Notice.objects.filter(round=past_its_limit, kind="state").count() == before + 1
    assert AuditEntry.objects.filter(action="puzzlecomp.round.counting").count() == 1
