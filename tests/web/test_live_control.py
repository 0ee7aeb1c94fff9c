"""The head judge's live screens: round moves and the clock, counting at the limit, time
credits, the floor map's table states, corrections with a reason and a version check, and an
entry's history."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.urls import reverse

from puzzlecomp.championships.models import (
    AuditEntry,
    Entry,
    EntryMember,
    EntryStatus,
    JudgeDevice,
    Notice,
    Person,
    Result,
    ResultChange,
    Role,
    Round,
    RoundState,
    Seat,
)
from puzzlecomp.championships.selectors.live import SeatState, seat_state, time_credit_of
from puzzlecomp.championships.selectors.rounds import round_results_missing_get
from puzzlecomp.championships.services.disputes import result_correct
from puzzlecomp.championships.services.groups import groups_assign
from puzzlecomp.championships.services.results import ResultValues, result_submit
from puzzlecomp.championships.services.rounds import round_state_set
from puzzlecomp.championships.services.seating import seating_assign
from puzzlecomp.live.reads import running_rounds_advance
from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.results import Status
from tests.web.test_groups import add_entries, first_round

START = dt.datetime(2027, 7, 1, 12, 0, tzinfo=dt.UTC)
LIMIT = 90 * 60  # wjpc-2025.txt: the first individual round lasts 90 minutes


def live_url(name: str, rnd: Round, *args: object) -> str:
    return reverse(f"control:live:{name}", args=[rnd.event.championship.slug, rnd.pk, *args])


@pytest.fixture
def seated(championship) -> Round:
    """The first individual round: 36 entries in groups A-F, seated two to a table."""
    rnd = first_round(championship)
    add_entries(rnd.event, {"ES": 18, "CZ": 9, "NO": 9}, email="example.org")
    groups_assign(round=rnd, seed=3)
    seating_assign(round=rnd)
    return rnd


@pytest.fixture
def head_judge(championship, client_as, clock):
    """Signed in at the site's (frozen) time, so the session outlives the clock's moves."""
    return client_as(championship, Role.HEAD_JUDGE)


@pytest.fixture
def running(seated, clock) -> Round:
    """The seated round, started at 12:00 (the site's clock stands at 12:00)."""
    round_state_set(round=seated, state=RoundState.RUNNING, starts_at=START)
    return seated


def group_entries(rnd: Round, group: str = "A") -> list[Entry]:
    return [s.entry for s in Seat.objects.filter(round=rnd, group=group)
            .select_related("entry").order_by("table", "seat")]


def finish(rnd: Round, entry: Entry, seconds: int, *, checked: bool = True,
           **fields: object) -> Result:
    values = ResultValues(status=Status.FINISHED, time_seconds=seconds, checked=checked,
                          time_credit=time_credit_of(rnd, entry), **fields)
    return result_submit(round=rnd, entry=entry, values=values, action="tap").result


def count(rnd: Round, entry: Entry, pieces: int) -> Result:
    return result_submit(round=rnd, entry=entry, action="count",
                         values=ResultValues(status=Status.UNFINISHED, pieces=pieces)).result


def state_json(client, rnd: Round, group: str = "A", **headers: str):
    return client.get(live_url("state", rnd) + f"?group={group}", headers=headers)


def seat_states(client, rnd: Round, group: str = "A") -> dict[int, str]:
    data = state_json(client, rnd, group).json()
    return {seat["entry"]: seat["state"] for table in data["tables"] for seat in table["seats"]}


# ---------------------------------------------------------------- round moves and the clock

def test_starting_asks_for_confirmation_first(head_judge, seated, clock):
    page = head_judge.get(live_url("move", seated, "running"))
    assert page.status_code == 200
    assert "Yes: Start the round" in page.content.decode()
    seated.refresh_from_db()
    assert seated.state == RoundState.PLANNED


def test_starting_stores_the_servers_time_and_the_clock_json_runs_from_it(
        head_judge, seated, clock):
    """wjpc-2025.txt, Start of the round: the main judge signals the start and the stopwatch
    starts; every screen draws the clock from the start stored on the server."""
    clock("2027-07-01T12:00:07")
    response = head_judge.post(live_url("move", seated, "running"))
    assert response.status_code == 302
    seated.refresh_from_db()
    assert seated.state == RoundState.RUNNING
    assert seated.starts_at == START + dt.timedelta(seconds=7)
    clock("2027-07-01T12:10:07")
    data = state_json(head_judge, seated).json()
    assert data["round"]["state"] == "running"
    assert data["clock"] == {
        "state": "running", "shows": "countdown", "started_at": "2027-07-01T12:00:07+00:00",
        "limit_seconds": LIMIT, "ends_at": "2027-07-01T13:30:07+00:00", "ended_at": None,
        "server_now": "2027-07-01T12:10:07Z",
    }
    page = head_judge.get(live_url("round", seated)).content.decode()
    assert "1:20:00" in page  # time left, drawn for pages without JavaScript
    assert "0:10:00" in page


def test_a_judge_watches_the_round_but_only_the_head_judge_moves_it(
        clock, championship, client_as, seated):
    judge = client_as(championship, Role.JUDGE)
    page = judge.get(live_url("round", seated)).content.decode()
    assert "Only the head judge moves the round." in page
    assert live_url("move", seated, "running") not in page
    assert judge.post(live_url("move", seated, "running")).status_code == 403
    seated.refresh_from_db()
    assert seated.state == RoundState.PLANNED


def test_a_move_out_of_order_is_refused_and_changes_nothing(head_judge, seated, clock):
    response = head_judge.post(live_url("move", seated, "published"), follow=True)
    assert "cannot make this move" in response.content.decode()
    seated.refresh_from_db()
    assert (seated.state, seated.published_at) == (RoundState.PLANNED, None)


def test_an_unknown_state_is_not_found(head_judge, seated):
    assert head_judge.get(live_url("move", seated, "paused")).status_code == 404


def test_the_round_reads_as_counting_at_its_limit_and_the_pump_writes_the_move(
        head_judge, running, clock):
    """wjpc-2025.txt, Unfinished Puzzles: when the maximum time is reached, pieces are counted.

    Every read shows it at once (a restarted server too); only the live pump writes it."""
    notices = Notice.objects.filter(round=running, kind="state")
    before = notices.count()
    clock("2027-07-01T13:29:59")
    assert state_json(head_judge, running).json()["round"]["state"] == "running"
    clock("2027-07-01T13:30:00")
    data = state_json(head_judge, running).json()
    assert data["round"]["state"] == "counting"
    assert "Counting" in head_judge.get(live_url("round", running)).content.decode()
    running.refresh_from_db()
    assert running.state == RoundState.RUNNING
    assert notices.count() == before

    running_rounds_advance()

    running.refresh_from_db()
    assert running.state == RoundState.COUNTING
    assert notices.count() == before + 1
    assert AuditEntry.objects.filter(action="puzzlecomp.round.counting").count() == 1


def test_the_round_page_offers_the_moves_of_its_state(head_judge, running, clock):
    page = head_judge.get(live_url("round", running)).content.decode()
    assert live_url("move", running, "counting") in page
    assert live_url("move", running, "published") not in page


def test_publishing_opens_the_dispute_window(head_judge, running, clock):
    """wjpc-2025.txt, Disputes and Reviews: 4 hours from the results being posted."""
    # The entrants without a result are passed knowingly (rules/guards.py).
    knowingly = {"knowingly": str(len(round_results_missing_get(running)))}
    for to in ("counting", "provisional"):
        head_judge.post(live_url("move", running, to), knowingly)
    clock("2027-07-01T14:00")
    head_judge.post(live_url("move", running, "published"), knowingly)
    running.refresh_from_db()
    assert running.published_at == START + dt.timedelta(hours=2)
    page = head_judge.get(live_url("round", running)).content.decode()
    assert "Disputes may be filed until" in page


# ---------------------------------------------------------------- time credits

def test_a_time_credit_before_the_finish_extends_the_entrys_own_limit(head_judge, running,
                                                                       clock):
    """wjpc-2025.txt, Start of the round: a participant handed the wrong puzzle gets the delay
    back: subtracted from the time, and as extra time if they cannot finish in time."""
    credited, other = group_entries(running)[:2]
    response = head_judge.post(live_url("credit", running), {
        "entry": credited.number, "credit": "2:00", "reason": "Wrong puzzle at table 1"})
    assert response.status_code == 302
    assert time_credit_of(running, credited) == 120
    assert Seat.objects.get(round=running, entry=credited).time_credit == 120
    assert not Result.objects.exists()
    grant = AuditEntry.objects.get(action="puzzlecomp.result.time_credit")
    assert grant.data == {"round": running.pk, "entry": credited.number, "seconds": 120,
                          "reason": "Wrong puzzle at table 1"}
    clock("2027-07-01T13:31:00")  # a minute past the round's limit
    states = seat_states(head_judge, running)
    assert states[credited.number] == "assembling"
    assert states[other.number] == "counting"
    page = head_judge.get(live_url("round", running)).content.decode()
    assert f'data-credit-entry="{credited.number}"' in page
    assert "0:01:00" in page  # the credited entry's own time left
    # The finish past the round's limit but within the entry's own is accepted and credited.
    row = finish(running, credited, LIMIT + 90)
    assert row.time_credit == 120
    clock("2027-07-01T13:32:01")
    assert seat_states(head_judge, running)[credited.number] == "verified"


def test_a_finish_past_the_limit_without_a_credit_is_refused(running, clock):
    entry = group_entries(running)[0]
    with pytest.raises(RulesError) as refused:
        finish(running, entry, LIMIT + 90)
    assert refused.value.code == "result.finish_past_limit"


def test_a_time_credit_after_the_finish_rewrites_the_result_and_its_history(
        head_judge, running, clock):
    entry = group_entries(running)[0]
    finish(running, entry, 50 * 60)
    head_judge.post(live_url("credit", running), {
        "entry": entry.number, "credit": "60", "reason": "Wrong puzzle handed out"})
    row = Result.objects.get(round=running, entry=entry)
    assert (row.time_credit, row.version) == (60, 2)
    change = ResultChange.objects.get(round=running, entry=entry, version=2)
    assert (change.action, change.reason) == ("credit", "Wrong puzzle handed out")
    assert (change.old["time_credit"], change.new["time_credit"]) == (0, 60)


def test_a_time_credit_needs_a_reason(head_judge, running, clock):
    entry = group_entries(running)[0]
    response = head_judge.post(live_url("credit", running),
                               {"entry": entry.number, "credit": "60", "reason": ""},
                               follow=True)
    assert "Reason" in response.content.decode()
    assert time_credit_of(running, entry) == 0
    assert not AuditEntry.objects.filter(action="puzzlecomp.result.time_credit").exists()


def test_a_time_credit_larger_than_the_time_is_refused_and_not_kept(head_judge, running,
                                                                     clock):
    entry = group_entries(running)[0]
    finish(running, entry, 30)
    response = head_judge.post(live_url("credit", running), {
        "entry": entry.number, "credit": "1:00", "reason": "Wrong puzzle"}, follow=True)
    assert "more than the recorded time" in response.content.decode()
    assert Result.objects.get(round=running, entry=entry).time_credit == 0
    assert time_credit_of(running, entry) == 0


def test_a_time_credit_taken_back_to_zero_outweighs_the_credit_the_result_carries(
        head_judge, running, clock):
    entry = group_entries(running)[0]
    finish(running, entry, 50 * 60)
    for credit in ("60", "0"):
        head_judge.post(live_url("credit", running), {
            "entry": entry.number, "credit": credit, "reason": "Wrong puzzle handed out"})
    assert Seat.objects.get(round=running, entry=entry).time_credit == 0
    assert Result.objects.get(round=running, entry=entry).time_credit == 0
    assert time_credit_of(running, entry) == 0


def test_a_time_credit_for_an_entry_without_a_seat_in_the_round_is_refused(running, clock):
    from puzzlecomp.championships.services.disputes import time_credit_grant

    entry = group_entries(running)[0]
    Seat.objects.filter(round=running, entry=entry).delete()
    with pytest.raises(RulesError) as refused:
        time_credit_grant(round=running, entry=entry, seconds=60, reason="Wrong puzzle")
    assert (refused.value.code, refused.value.violations[0].field) == ("result.not_seated",
                                                                      "entry")
    assert not AuditEntry.objects.filter(action="puzzlecomp.result.time_credit").exists()


# ---------------------------------------------------------------- the floor map

@pytest.mark.parametrize(("round_state", "result", "elapsed", "credit", "expected"), [
    ("planned", None, None, 0, SeatState.WAITING),
    ("running", None, 600, 0, SeatState.ASSEMBLING),
    ("running", Result(status="finished", checked=False), 600, 0, SeatState.AWAITING_CHECK),
    ("running", Result(status="finished", checked=True), 600, 0, SeatState.VERIFIED),
    ("counting", None, LIMIT, 0, SeatState.COUNTING),
    ("counting", None, LIMIT + 30, 60, SeatState.ASSEMBLING),
    ("counting", None, LIMIT + 60, 60, SeatState.COUNTING),
    ("counting", Result(status="unfinished"), LIMIT, 0, SeatState.COUNTED),
    ("running", Result(status="dsq"), 600, 0, SeatState.DISQUALIFIED),
    ("counting", Result(status="dnf"), LIMIT, 0, SeatState.COUNTED),
    ("published", None, LIMIT * 3, 0, SeatState.COUNTING),
])
def test_each_seat_state(round_state, result, elapsed, credit, expected):
    assert seat_state(round_state=round_state, result=result, elapsed=elapsed, limit=LIMIT,
                      credit=credit) is expected


def test_every_table_of_the_map_is_coloured_by_its_entries_states(head_judge, running, clock):
    a, b, c, d, e = group_entries(running)[:5]
    finish(running, a, 3000, checked=False)
    finish(running, b, 3100, checked=True)
    result_submit(round=running, entry=c, action="dsq",
                  values=ResultValues(status=Status.DSQ, note="Used a template"))
    clock("2027-07-01T12:55")
    states = seat_states(head_judge, running)
    assert (states[a.number], states[b.number], states[c.number], states[d.number]) == (
        "awaiting_check", "verified", "disqualified", "assembling")
    clock("2027-07-01T13:30")
    count(running, d, 320)
    data = state_json(head_judge, running).json()
    states = {s["entry"]: s["state"] for t in data["tables"] for s in t["seats"]}
    assert (states[d.number], states[e.number]) == ("counted", "counting")
    assert data["counts"]["awaiting_check"] == 1
    table_of_a = next(t for t in data["tables"] if any(s["entry"] == a.number
                                                       for s in t["seats"]))
    assert table_of_a["state"] == "awaiting_check"  # a shared table shows its most urgent
    # Without JavaScript the page itself is coloured, with the legend's counts.
    page = head_judge.get(live_url("map", running) + "?group=A").content.decode()
    assert f'class="seat state-awaiting_check" data-entry="{a.number}"' in page
    assert f'class="seat state-counting" data-entry="{e.number}"' in page
    assert 'data-count="awaiting_check">1<' in page


def test_a_disqualification_has_its_own_colour_count_and_legend_on_the_map(
        head_judge, running, clock):
    """wjpc-2025.txt, Disqualification: a disqualified entry is out of the ranking, so the
    floor map tells it apart from the counted ones (issue 24, item 6)."""
    a = group_entries(running)[0]
    result_submit(round=running, entry=a, action="dsq",
                  values=ResultValues(status=Status.DSQ, note="Used a template"))
    clock("2027-07-01T12:55")
    data = state_json(head_judge, running).json()
    assert (data["counts"]["disqualified"], data["counts"]["counted"]) == (1, 0)
    page = head_judge.get(live_url("map", running) + "?group=A").content.decode()
    assert f'class="seat state-disqualified" data-entry="{a.number}"' in page
    assert 'class="swatch state-disqualified"></span> disqualified' in page
    assert 'data-count="disqualified">1<' in page


def test_the_map_shows_one_group_at_a_time(head_judge, running, clock):
    states = seat_states(head_judge, running, "B")
    assert set(states) == {e.number for e in group_entries(running, "B")}
    assert head_judge.get(live_url("map", running) + "?group=Z").status_code == 404


def test_the_map_state_answers_304_to_its_etag_until_something_changes(head_judge, running,
                                                                       clock):
    first = state_json(head_judge, running)
    etag = first["ETag"]
    again = state_json(head_judge, running, **{"If-None-Match": etag})
    assert again.status_code == 304
    entry = group_entries(running)[0]
    finish(running, entry, 600, checked=False)
    changed = state_json(head_judge, running, **{"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed["ETag"] != etag
    assert [q["entry"] for q in changed.json()["queue"]] == [entry.number]
    assert f'data-queue-entry="{entry.number}"' in changed.json()["panels"]["queue"]


def test_the_queue_lists_finishes_awaiting_check_oldest_first(head_judge, running, clock):
    """wjpc-2025.txt, Recording Time: the judge verifies the completed puzzle before the time
    goes to the head judge's desk."""
    a, b, c = group_entries(running)[:3]
    finish(running, b, 2000, checked=False)
    finish(running, a, 1500, checked=False)
    finish(running, c, 1800, checked=True)
    data = state_json(head_judge, running).json()
    assert [q["entry"] for q in data["queue"]] == [a.number, b.number]
    page = head_judge.get(live_url("map", running)).content.decode()
    assert page.index(f'data-queue-entry="{a.number}"') < page.index(
        f'data-queue-entry="{b.number}"')
    assert f'data-queue-entry="{c.number}"' not in page


def test_the_head_judge_verifies_a_finish_from_the_queue(head_judge, running, clock):
    entry = group_entries(running)[0]
    finish(running, entry, 1500, checked=False)
    response = head_judge.post(live_url("verify", running, entry.number),
                               {"base_version": "1"})
    assert response.status_code == 302
    row = Result.objects.get(round=running, entry=entry)
    assert (row.checked, row.version, row.time_seconds) == (True, 2, 1500)
    stale = head_judge.post(live_url("verify", running, entry.number), {"base_version": "1"},
                            follow=True)
    assert "changed while you were correcting it" in stale.content.decode()
    assert Result.objects.get(round=running, entry=entry).version == 2


# ---------------------------------------------------------------- corrections and history

def correction(**fields: object) -> dict[str, object]:
    return {"status": "finished", "time": "45:10", "missing": "0", "missing_contiguous": "0",
            "missing_found": "0", "checked": "on", "base_version": "1",
            "reason": "Judge misread the clock", **fields}


def test_a_correction_needs_a_reason(head_judge, running, clock):
    entry = group_entries(running)[0]
    finish(running, entry, 45 * 60)
    response = head_judge.post(live_url("correct", running, entry.number),
                               correction(reason=""))
    assert response.status_code == 200
    assert "This field is required." in response.content.decode()
    assert Result.objects.get(round=running, entry=entry).version == 1


def test_the_correction_service_refuses_a_blank_reason_too(running, clock):
    entry = group_entries(running)[0]
    finish(running, entry, 45 * 60)
    with pytest.raises(RulesError) as refused:
        result_correct(round=running, entry=entry, reason="  ", base_version=1,
                       values=ResultValues(status=Status.FINISHED, time_seconds=100))
    assert refused.value.code == "result.reason_required"
    assert Result.objects.get(round=running, entry=entry).version == 1


def test_a_correction_records_the_old_and_new_values_with_the_reason(head_judge, running,
                                                                      clock):
    entry = group_entries(running)[0]
    finish(running, entry, 45 * 60)
    response = head_judge.post(live_url("correct", running, entry.number), correction())
    assert response.status_code == 302
    row = Result.objects.get(round=running, entry=entry)
    assert (row.time_seconds, row.version) == (45 * 60 + 10, 2)
    change = ResultChange.objects.get(round=running, entry=entry, version=2)
    assert (change.action, change.reason) == ("correct", "Judge misread the clock")
    assert change.user.username.startswith("head_judge")
    assert (change.old["time_seconds"], change.new["time_seconds"]) == (2700, 2710)


def test_a_correction_based_on_a_stale_version_is_refused_and_shows_the_current_result(
        head_judge, running, clock):
    """Two people never silently overwrite each other: the head judge's form was opened at
    version 1, a judge's phone wrote version 2 meanwhile."""
    entry = group_entries(running)[0]
    finish(running, entry, 45 * 60, checked=False)
    head_judge.get(live_url("correct", running, entry.number))
    finish(running, entry, 45 * 60 + 3, checked=True)
    response = head_judge.post(live_url("correct", running, entry.number), correction())
    page = response.content.decode()
    assert response.status_code == 200
    assert "The result changed while you were correcting it (now version 2" in page
    assert "Stored now (version 2)" in page
    assert 'name="base_version" value="2"' in page
    row = Result.objects.get(round=running, entry=entry)
    assert (row.time_seconds, row.version) == (45 * 60 + 3, 2)
    # Saving again on the version now shown is a conscious replacement.
    head_judge.post(live_url("correct", running, entry.number), correction(base_version="2"))
    assert Result.objects.get(round=running, entry=entry).time_seconds == 45 * 60 + 10


def test_a_correction_the_rules_refuse_is_shown_at_its_field(head_judge, running, clock):
    entry = group_entries(running)[0]
    finish(running, entry, 45 * 60)
    response = head_judge.post(live_url("correct", running, entry.number),
                               correction(time="", status="finished"))
    assert "A finished result needs its time." in response.content.decode()
    assert Result.objects.get(round=running, entry=entry).version == 1


def test_a_correction_keeps_the_entrys_time_credit(head_judge, running, clock):
    entry = group_entries(running)[0]
    finish(running, entry, 45 * 60)
    head_judge.post(live_url("credit", running),
                    {"entry": entry.number, "credit": "30", "reason": "Wrong puzzle"})
    head_judge.post(live_url("correct", running, entry.number), correction(base_version="2"))
    row = Result.objects.get(round=running, entry=entry)
    assert (row.time_seconds, row.time_credit, row.version) == (2710, 30, 3)


def test_final_results_are_not_corrected(head_judge, running, clock):
    entry = group_entries(running)[0]
    finish(running, entry, 45 * 60)
    round_state_set(round=running, state=RoundState.FINAL)
    response = head_judge.post(live_url("correct", running, entry.number), correction())
    assert "are final" in response.content.decode()
    assert Result.objects.get(round=running, entry=entry).version == 1


def test_the_history_shows_who_when_which_device_old_new_and_why(championship, head_judge,
                                                                 running, clock):
    entry = group_entries(running)[0]
    phone = JudgeDevice.objects.create(championship=championship, label="Phone tables 1-10",
                                       table_from=1, table_to=10, pairing_hash="p",
                                       expires_at=START + dt.timedelta(days=3))
    result_submit(round=running, entry=entry, device=phone, action="tap",
                  values=ResultValues(status=Status.FINISHED, time_seconds=2700,
                                      checked=False))
    clock("2027-07-01T13:00")
    head_judge.post(live_url("correct", running, entry.number), correction())
    page = head_judge.get(live_url("history", running, entry.number)).content.decode()
    assert page.count('class="change"') == 2
    assert "Phone tables 1-10" in page
    assert "Judge misread the clock" in page
    assert "<del>0:45:00</del> → <ins>0:45:10</ins>" in page
    assert "<del>no</del> → <ins>yes</ins>" in page  # checked
    assert "head_judge-" in page


@pytest.mark.parametrize(("role", "status"), [
    (Role.JUDGE, 403), (Role.HEAD_JUDGE, 200), (Role.ORGANISER, 200), (Role.OWNER, 200)])
def test_the_history_is_for_head_judges_and_organisers(championship, client_as, running,
                                                       role, status):
    entry = group_entries(running)[0]
    client = client_as(championship, role)
    assert client.get(live_url("history", running, entry.number)).status_code == status


def test_the_entries_page_links_each_entry_to_its_correction_and_history(head_judge, running,
                                                                         clock):
    entry = group_entries(running)[0]
    finish(running, entry, 2700)
    page = head_judge.get(live_url("entries", running)).content.decode()
    assert live_url("correct", running, entry.number) in page
    assert live_url("history", running, entry.number) in page
    assert "0:45:00" in page


# ---------------------------------------------------------------- the relay's rotation

@pytest.fixture
def relay_round(make_championship, clock) -> Round:
    """The Czech relay final with two teams of four, started at 12:00."""
    championship = make_championship("czech-blind-relay")
    rnd = Round.objects.get(event__championship=championship, event__code="relay")
    for number, names in ((1, ("Ana", "Ben", "Cyril", "Dana")),
                          (2, ("Eva", "Filip", "Gita", "Hana"))):
        team = Entry.objects.create(event=rnd.event, number=number, name=f"Team {number}",
                                    status=EntryStatus.CONFIRMED)
        for position, name in enumerate(names):
            person = Person.objects.create(first_name=name, last_name="Nováková",
                                           nationality="CZ")
            EntryMember.objects.create(entry=team, person=person, position=position)
    round_state_set(round=rnd, state=RoundState.RUNNING, starts_at=START)
    return rnd


def test_the_relay_round_shows_who_moves_to_which_puzzle_at_each_signal(
        clock, client_as, relay_round):
    """czech-blind-and-relay.txt, 3.2: a signal every 8 minutes; the active members move
    clockwise to the next unfinished puzzle."""
    client = client_as(relay_round.event.championship, Role.HEAD_JUDGE)
    clock("2027-07-01T12:05")
    page = client.get(live_url("round", relay_round)).content.decode()
    assert "a signal every 0:08:00" in page
    assert "Next signal at 0:08:00" in page
    assert "Team 1: Ana Nováková from puzzle 1 to puzzle 2" in page
    assert "Team 2: Hana Nováková from puzzle 4 to puzzle 1" in page
    data = client.get(live_url("state", relay_round)).json()
    assert data["relay"]["signals"][:3] == [480, 960, 1440]
    # Team 1 finishes puzzle 2 at 10:00: from the second signal on, its rotation skips it.
    team = Entry.objects.get(event=relay_round.event, number=1)
    puzzles = [{"time": 600} if i == 1 else {"pieces": 0} for i in range(8)]
    result_submit(round=relay_round, entry=team, action="count",
                  values=ResultValues(status=Status.UNFINISHED, puzzles=puzzles))
    clock("2027-07-01T12:10")
    page = client.get(live_url("round", relay_round)).content.decode()
    assert "Team 1: Dana Nováková from puzzle 1 to puzzle 3" in page
    assert "Team 1: Ana Nováková" not in page.split("Next signal at 0:16:00")[1].split(
        "</div>")[0]


def test_a_round_without_rotation_has_no_relay_panel(head_judge, running, clock):
    assert 'class="card relay"' not in head_judge.get(live_url("round", running)).content.decode()
    assert state_json(head_judge, running).json()["relay"] is None


def test_the_official_start_is_shown_to_the_second(running, head_judge):
    """Issue 24: the start is the server's time of the head judge's press, so a dispute can
    turn on its seconds; the round page showed it to the minute."""
    from puzzlecomp.championships.models import Round as RoundModel

    RoundModel.objects.filter(pk=running.pk).update(starts_at=START + dt.timedelta(seconds=7))
    page = head_judge.get(live_url("round", running)).content.decode()
    assert re.search(r"Started at [^<]*\d\d:\d\d:07 \(server time\)", page)
