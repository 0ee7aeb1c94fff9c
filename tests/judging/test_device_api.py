"""The device API: what a phone reads (GET /device/me) and every answer of a write
(POST /device/results): 200 (also for a replay), 401, 403, 404, 409 and 422 naming the field."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest
from django.test import Client
from django.utils import timezone

from puzzlecomp.championships.models import (
    AuditEntry,
    JudgeDevice,
    Result,
    ResultChange,
    Round,
    RoundState,
)
from puzzlecomp.championships.services import recording
from puzzlecomp.championships.services.devices import device_revoke
from puzzlecomp.championships.services.disputes import time_credit_grant
from puzzlecomp.championships.services.results import ResultValues, result_submit
from puzzlecomp.championships.services.rounds import round_state_set
from puzzlecomp.rules.results import Status
from tests.judging.support import ME_URL, elapsed, fields_of, pair_device, seat_round, write

pytestmark = pytest.mark.django_db


def stored(rnd: Round, entry: int) -> Result:
    return Result.objects.get(round=rnd, entry__number=entry)


# ------------------------------------------------------------------ reading
def test_me_lists_the_devices_tables_in_live_rounds_with_clock_results_and_versions(
        phone, paired, live_round):
    result_submit(round=live_round, entry=live_round.seats.get(entry__number=3).entry,
                  values=ResultValues(status=Status.FINISHED, time_seconds=300, checked=False),
                  action="tap")
    response = phone.get(ME_URL)
    assert response.status_code == 200
    body = response.json()
    assert body["device"]["label"] == "North"
    assert (body["device"]["table_from"], body["device"]["table_to"]) == (1, 2)
    [shown] = body["rounds"]
    assert shown["id"] == live_round.pk
    assert shown["state"] == "running"
    assert shown["clock"]["limit_seconds"] == 90 * 60
    assert shown["clock"]["started_at"] is not None
    assert shown["counting_record"] == "pieces"
    # wjpc-2025.txt: adjacent missing pieces cost nothing, so the judge counts them.
    assert shown["missing_breakdown"] == ["contiguous"]
    assert [t["table"] for t in shown["tables"]] == [1, 2]
    entries = {e["number"]: e for t in shown["tables"] for e in t["entries"]}
    assert sorted(entries) == [1, 2, 3, 4]
    assert entries[1]["result"] is None
    assert entries[1]["version"] == 0
    assert entries[3]["result"]["time_seconds"] == 300
    assert entries[3]["version"] == entries[3]["result"]["version"] == 1
    paired[0].refresh_from_db()
    assert paired[0].last_seen_at is not None


def test_me_leaves_out_rounds_that_are_planned_or_published(phone, championship, live_round):
    round_state_set(round=live_round, state=RoundState.PUBLISHED)
    assert phone.get(ME_URL).json()["rounds"] == []


# ------------------------------------------------------------------ 401
def test_a_request_without_a_token_is_401(live_round):
    assert Client().get(ME_URL).status_code == 401
    assert write(Client(), live_round, 1, "tap", time_seconds=60).status_code == 401


def test_an_unknown_token_is_401_naming_the_reason(live_round):
    response = Client(HTTP_AUTHORIZATION="Bearer not-a-token").get(ME_URL)
    assert response.status_code == 401
    assert response.json()["code"] == "device.unknown"
    assert "invalid_token" in response["WWW-Authenticate"]


def test_a_revoked_device_is_401_and_stores_nothing(phone, paired, live_round):
    device_revoke(device=paired[0], user=None)
    response = write(phone, live_round, 1, "tap", time_seconds=60)
    assert response.status_code == 401
    assert response.json()["code"] == "device.revoked"
    assert not Result.objects.exists()


def test_an_expired_device_is_401(phone, paired, live_round):
    JudgeDevice.objects.filter(pk=paired[0].pk).update(
        expires_at=timezone.now() - dt.timedelta(seconds=1))
    response = phone.get(ME_URL)
    assert response.status_code == 401
    assert response.json()["code"] == "device.expired"


# ------------------------------------------------------------------ 403 and 404
def test_an_entry_at_another_table_is_403(phone, live_round):
    """Entries 5-8 sit at tables 3-4; the device looks after tables 1-2."""
    response = write(phone, live_round, 5, "tap", time_seconds=60)
    assert response.status_code == 403
    assert response.json() | {"detail": ""} == {
        "detail": "", "code": "device.entry_not_in_section", "field": "entry"}
    assert not Result.objects.exists()


def test_an_entry_that_does_not_exist_is_403_like_any_other_outside_the_section(phone,
                                                                              live_round):
    assert write(phone, live_round, 999, "tap", time_seconds=60).status_code == 403


def test_a_round_of_another_championship_is_404(phone, make_championship, live_round):
    other = make_championship("wjpc-2025", name="Other")
    other_round = Round.objects.get(event__championship=other, event__code="individual",
                                    code="first")
    assert write(phone, other_round, 1, "tap", time_seconds=60).status_code == 404


# ------------------------------------------------------------------ taps
def test_a_tap_stores_the_time_as_an_unchecked_finish_from_this_device(phone, paired,
                                                                        live_round):
    """wjpc-2025.txt, Time Recording: the judge records the time when the participant
    raises a hand or says TIME; the check follows."""
    client_id = str(uuid.uuid4())
    response = write(phone, live_round, 1, "tap", client_id=client_id, time_seconds=540)
    assert response.status_code == 200
    body = response.json()
    assert body["replayed"] is False
    assert body["result"]["status"] == "finished"
    assert body["result"]["time_seconds"] == 540
    assert body["result"]["checked"] is False
    assert body["result"]["version"] == 1
    row = stored(live_round, 1)
    assert row.device == paired[0]
    change = ResultChange.objects.get(client_id=client_id)
    assert (change.action, change.device, change.version) == ("tap", paired[0], 1)
    assert AuditEntry.objects.filter(action="puzzlecomp.result.recorded").count() == 1


def test_a_replayed_write_answers_200_with_the_stored_result_and_writes_nothing(phone,
                                                                                 live_round):
    client_id = str(uuid.uuid4())
    first = write(phone, live_round, 1, "tap", client_id=client_id, time_seconds=540)
    again = write(phone, live_round, 1, "tap", client_id=client_id, time_seconds=540)
    assert again.status_code == 200
    assert again.json()["replayed"] is True
    assert again.json()["result"] == first.json()["result"]
    assert ResultChange.objects.filter(client_id=client_id).count() == 1
    assert stored(live_round, 1).version == 1


def test_a_replay_still_answers_200_after_the_round_closed(phone, live_round):
    """A phone that was offline sends its outbox late: the stored answer comes back."""
    client_id = str(uuid.uuid4())
    write(phone, live_round, 1, "tap", client_id=client_id, time_seconds=540)
    round_state_set(round=live_round, state=RoundState.PUBLISHED)
    again = write(phone, live_round, 1, "tap", client_id=client_id, time_seconds=540)
    assert again.status_code == 200
    assert again.json()["replayed"] is True


def test_a_client_id_reused_for_another_entry_is_422_naming_client_id(phone, live_round):
    client_id = str(uuid.uuid4())
    write(phone, live_round, 1, "tap", client_id=client_id, time_seconds=540)
    response = write(phone, live_round, 2, "tap", client_id=client_id, time_seconds=540)
    assert response.status_code == 422
    assert fields_of(response) == [("result.client_id_reused", "client_id")]


def test_a_write_on_an_old_version_is_409_with_the_current_result(phone, live_round):
    """Two judges never silently overwrite each other: the second write names the version it
    saw, gets the stored result back and nothing changes."""
    write(phone, live_round, 1, "tap", time_seconds=540)
    other = pair_device(live_round.event.championship, 1, 1, label="South")[1]
    theirs = write(Client(HTTP_AUTHORIZATION=f"Bearer {other}"), live_round, 1, "tap",
                   base=1, time_seconds=550)
    assert theirs.status_code == 200
    response = write(phone, live_round, 1, "tap", base=1, time_seconds=545)
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "result.version_conflict"
    assert body["base_version"] == 1
    assert body["current"]["version"] == 2
    assert body["current"]["time_seconds"] == 550
    assert stored(live_round, 1).time_seconds == 550


def test_a_first_write_when_a_result_exists_is_409(phone, live_round):
    write(phone, live_round, 1, "tap", time_seconds=540)
    response = write(phone, live_round, 1, "tap", base=0, time_seconds=541)
    assert response.status_code == 409
    assert response.json()["current"]["time_seconds"] == 540


def test_a_tap_later_than_the_round_clock_is_refused(phone, live_round):
    """The phone sends the time at the tap from the synchronised clock; a time in the future
    (beyond 3 s of clock error) is a wrong clock, not a finish."""
    now = elapsed(live_round)
    response = write(phone, live_round, 1, "tap", time_seconds=now + 30)
    assert response.status_code == 422
    assert fields_of(response) == [("result.time_in_future", "time_seconds")]
    assert write(phone, live_round, 1, "tap", time_seconds=now + 1).status_code == 200


def test_a_finish_past_the_limit_is_refused_by_the_engine(phone, championship):
    """wjpc-2025.txt: 90 minutes in the first round; the engine's scoring refuses a finish
    past the entry's limit (the phone's tap goes through the same check)."""
    rnd = seat_round_late(championship)
    response = write(phone, rnd, 1, "tap", time_seconds=90 * 60 + 10)
    assert response.status_code == 422
    assert fields_of(response) == [("result.finish_past_limit", "time_seconds")]
    assert write(phone, rnd, 1, "tap", time_seconds=90 * 60).status_code == 200


def test_a_time_credit_extends_the_entrys_own_limit_and_is_kept_by_the_tap(phone, championship):
    """The issue: an entry's own time credit (a wrong puzzle handed out) extends its own limit;
    the round is counting for everyone else."""
    rnd = seat_round_late(championship)
    entry = rnd.seats.get(entry__number=1).entry
    result_submit(round=rnd, entry=entry, action="correct", reason="wrong puzzle handed out",
                  values=ResultValues(status=Status.FINISHED, time_seconds=600,
                                      time_credit=300, checked=False))
    ok = write(phone, rnd, 1, "tap", base=1, time_seconds=90 * 60 + 250)
    assert ok.status_code == 200
    assert ok.json()["result"]["time_credit"] == 300
    late = write(phone, rnd, 1, "tap", base=2, time_seconds=90 * 60 + 310)
    assert fields_of(late) == [("result.finish_past_limit", "time_seconds")]
    other = write(phone, rnd, 2, "tap", time_seconds=90 * 60 + 250)
    assert fields_of(other) == [("result.finish_past_limit", "time_seconds")]


def test_a_credit_granted_before_any_result_is_carried_by_the_phones_first_tap(phone,
                                                                             championship):
    """wjpc-2025.txt, Start of the round: time lost to a wrong puzzle is credited; the head
    judge grants it before the finish and the phone's tap past the round's limit is kept."""
    rnd = seat_round_late(championship)
    entry = rnd.seats.get(entry__number=1).entry
    time_credit_grant(round=rnd, entry=entry, seconds=300, reason="wrong puzzle handed out")
    ok = write(phone, rnd, 1, "tap", time_seconds=90 * 60 + 250)
    assert ok.status_code == 200, ok.json()
    assert ok.json()["result"]["time_credit"] == 300


def seat_round_late(championship) -> Round:
    """The first round started 97 minutes ago: past its 90-minute limit, so counting."""
    return seat_round(championship, "individual", "first", tables=2, started_minutes_ago=97)


@pytest.mark.parametrize("state", [RoundState.PLANNED, RoundState.PUBLISHED, RoundState.FINAL])
def test_a_round_that_is_not_live_refuses_writes_naming_round_id(phone, live_round, state):
    round_state_set(round=live_round, state=state)
    response = write(phone, live_round, 1, "tap", time_seconds=60)
    assert response.status_code == 422
    assert fields_of(response) == [("round.not_live", "round_id")]
    assert not Result.objects.exists()


@pytest.mark.parametrize("state", [RoundState.COUNTING, RoundState.PROVISIONAL])
def test_counting_and_provisional_rounds_take_writes(phone, live_round, state):
    round_state_set(round=live_round, state=state)
    assert write(phone, live_round, 1, "count", pieces=312).status_code == 200


def test_a_round_past_its_limit_takes_counts_before_the_pump_writes_the_move(phone,
                                                                             championship):
    """The phone's count is judged by the round's clock, not by when the move was written."""
    rnd = seat_round_late(championship)
    Round.objects.filter(pk=rnd.pk).update(state=RoundState.RUNNING)
    assert write(phone, rnd, 1, "count", pieces=100).status_code == 200
    assert phone.get("/api/v1/device/me").json()["rounds"][0]["state"] == "counting"
    rnd.refresh_from_db()
    assert rnd.state == RoundState.RUNNING  # the live pump writes it (tests/live)


def test_a_malformed_body_is_422_naming_the_field(phone, live_round):
    response = write(phone, live_round, 1, "tap", client_id="not-a-uuid", time_seconds=60)
    assert response.status_code == 422
    assert any("client_id" in error["loc"] for error in response.json()["detail"])
    negative = write(phone, live_round, 1, "tap", time_seconds=-5)
    assert any("time_seconds" in error["loc"] for error in negative.json()["detail"])


# ------------------------------------------------------------------ checks
def test_verify_records_missing_pieces_and_the_competitors_confirmation(phone, live_round):
    """wjpc-2025.txt, Contiguous Missing Pieces: adjacent missing pieces cost nothing; Recorded
    Time Verification: the judge shows the participant the recorded time."""
    write(phone, live_round, 1, "tap", time_seconds=540)
    response = write(phone, live_round, 1, "verify", base=1, missing=3, missing_contiguous=2,
                     missing_found=0, complete_and_correct=True, competitor_confirmed=True)
    assert response.status_code == 200
    row = stored(live_round, 1)
    assert (row.status, row.time_seconds, row.checked, row.competitor_confirmed) == (
        "finished", 540, True, True)
    assert (row.missing, row.missing_contiguous, row.missing_found) == (3, 2, 0)
    assert row.version == 2


def test_verify_without_the_competitors_confirmation_is_refused(phone, live_round):
    """czech-blind-and-relay.txt: the competitor confirms the recorded time."""
    write(phone, live_round, 1, "tap", time_seconds=540)
    response = write(phone, live_round, 1, "verify", base=1, complete_and_correct=True)
    assert fields_of(response) == [("result.not_confirmed", "competitor_confirmed")]


def test_verify_must_say_whether_the_puzzle_is_complete(phone, live_round):
    write(phone, live_round, 1, "tap", time_seconds=540)
    response = write(phone, live_round, 1, "verify", base=1, competitor_confirmed=True)
    assert fields_of(response) == [("result.check_missing", "complete_and_correct")]


def test_verify_without_a_tap_is_refused(phone, live_round):
    response = write(phone, live_round, 1, "verify", complete_and_correct=True,
                     competitor_confirmed=True)
    assert fields_of(response) == [("result.verify_without_finish", "action")]


def test_missing_pieces_the_engine_refuses_are_422_naming_the_field(phone, live_round):
    """wjpc-2025.txt: contiguous means two or more adjacent pieces; a cluster of one is not."""
    write(phone, live_round, 1, "tap", time_seconds=540)
    response = write(phone, live_round, 1, "verify", base=1, missing=2, missing_contiguous=1,
                     complete_and_correct=True, competitor_confirmed=True)
    assert fields_of(response) == [("result.contiguous_single", "missing_contiguous")]


def test_under_wjpc_an_incomplete_puzzle_is_no_finish_to_check(phone, live_round):
    """wjpc-2025.txt names no wrong-piece rule: the judge lets the competitor go on and taps
    again (or records a wrongly placed piece as missing)."""
    write(phone, live_round, 1, "tap", time_seconds=540)
    response = write(phone, live_round, 1, "verify", base=1, complete_and_correct=False,
                     competitor_confirmed=True)
    assert fields_of(response) == [("result.not_complete", "complete_and_correct")]
    again = write(phone, live_round, 1, "tap", base=1, time_seconds=600)
    assert again.status_code == 200
    assert again.json()["result"]["time_seconds"] == 600


def test_a_checked_result_is_not_tapped_again(phone, live_round):
    """wjpc-2025.txt: no changes once the participant declared the puzzle completed; the head
    judge corrects with a reason."""
    write(phone, live_round, 1, "tap", time_seconds=540)
    write(phone, live_round, 1, "verify", base=1, complete_and_correct=True,
          competitor_confirmed=True)
    response = write(phone, live_round, 1, "tap", base=2, time_seconds=600)
    assert fields_of(response) == [("result.already_checked", "action")]
    count = write(phone, live_round, 1, "count", base=2, pieces=300)
    assert fields_of(count) == [("result.already_checked", "action")]


# ------------------------------------------------------------------ Norway
@pytest.fixture
def norway_round(make_championship) -> Round:
    """The Norwegian final with the organiser's limit and puzzle size (the rulebook has
    neither), running for 20 minutes, seated at tables 1-2."""
    championship = make_championship("norway-nm-2025")
    rnd = Round.objects.get(event__championship=championship, event__code="individual")
    rnd.time_limit_minutes = 120
    rnd.save()
    rnd.puzzles.update(pieces=500)
    return seat_round(championship, "individual", rnd.code, tables=2, started_minutes_ago=20)


@pytest.fixture
def norway_phone(norway_round) -> Client:
    return Client(HTTP_AUTHORIZATION="Bearer "
                  + pair_device(norway_round.event.championship, 1, 2)[1])


def test_norway_a_wrong_piece_at_the_check_means_not_finished(norway_phone, norway_round):
    """norway-nm-2025.txt: a contestant who finished in time but placed pieces incorrectly is
    changed to not finished (ruleset data: counting.wrong_piece_means_unfinished); the
    pieces left are counted."""
    write(norway_phone, norway_round, 1, "tap", time_seconds=900)
    response = write(norway_phone, norway_round, 1, "verify", base=1,
                     complete_and_correct=False, remaining=3)
    assert response.status_code == 200
    row = stored(norway_round, 1)
    assert (row.status, row.time_seconds, row.remaining, row.checked) == (
        "unfinished", None, 3, True)


def test_norway_a_wrong_piece_needs_the_count(norway_phone, norway_round):
    write(norway_phone, norway_round, 1, "tap", time_seconds=900)
    response = write(norway_phone, norway_round, 1, "verify", base=1,
                     complete_and_correct=False)
    assert fields_of(response) == [("result.unfinished_without_count", "pieces")]


def test_norway_counts_the_pieces_left_in_piles_of_ten(norway_phone, norway_round):
    """norway-nm-2025.txt: at the limit the remaining pieces are laid in piles of 10 for the
    judge to count (4 piles and 7 loose pieces: 47 left, 453 placed)."""
    body = norway_phone.get(ME_URL).json()["rounds"][0]
    assert body["counting_record"] == "remaining"
    # Lost pieces cost nothing, misplaced (found) ones 5 s: the judge counts those found.
    assert body["missing_breakdown"] == ["found"]
    assert body["wrong_piece_means_unfinished"] is True
    response = write(norway_phone, norway_round, 2, "count", remaining=4 * 10 + 7)
    assert response.status_code == 200
    row = stored(norway_round, 2)
    assert (row.status, row.remaining, row.pieces) == ("unfinished", 47, None)


def test_norway_a_missing_piece_found_elsewhere_is_stored_for_its_penalty(norway_phone,
                                                                          norway_round):
    """norway-nm-2025.txt: a piece truly gone costs nothing, a misplaced one (bag, floor)
    5 seconds."""
    write(norway_phone, norway_round, 1, "tap", time_seconds=900)
    write(norway_phone, norway_round, 1, "verify", base=1, missing=2, missing_found=1,
          complete_and_correct=True, competitor_confirmed=True)
    row = stored(norway_round, 1)
    assert (row.missing, row.missing_found) == (2, 1)


# ------------------------------------------------------------------ counts and dsq
def test_a_count_at_the_limit_stores_placed_pieces(phone, live_round):
    """wjpc-2025.txt, Unfinished Puzzles: the correctly placed pieces are recorded."""
    round_state_set(round=live_round, state=RoundState.COUNTING)
    response = write(phone, live_round, 2, "count", pieces=312)
    assert response.status_code == 200
    row = stored(live_round, 2)
    assert (row.status, row.pieces, row.checked) == ("unfinished", 312, True)


def test_a_count_gives_placed_or_remaining_pieces_not_both(phone, live_round):
    response = write(phone, live_round, 2, "count", pieces=312, remaining=188)
    assert fields_of(response) == [("result.pieces_and_remaining", "remaining")]


def test_a_count_above_the_puzzle_size_is_refused(phone, live_round):
    response = write(phone, live_round, 2, "count", pieces=501)
    assert fields_of(response) == [("result.pieces_above_size", "pieces")]


def test_a_disqualification_needs_its_reason(phone, live_round):
    """wjpc-2025.txt: outside assistance or repeated misconduct may disqualify; the reason is
    kept with the result."""
    response = write(phone, live_round, 1, "dsq", note="   ")
    assert fields_of(response) == [("result.dsq_without_reason", "note")]
    ok = write(phone, live_round, 1, "dsq", note="Help from a spectator")
    assert ok.status_code == 200
    row = stored(live_round, 1)
    assert (row.status, row.note) == ("dsq", "Help from a spectator")
    assert ResultChange.objects.get(round=live_round, entry=row.entry).reason == \
        "Help from a spectator"


def test_a_single_puzzle_round_has_no_puzzle_to_open(phone, live_round):
    response = write(phone, live_round, 1, "authorise", puzzle=2)
    assert fields_of(response) == [("result.puzzle_unknown", "puzzle")]
    response = write(phone, live_round, 1, "authorise")
    assert fields_of(response) == [("result.single_puzzle", "action")]


def test_the_same_record_sent_twice_at_once_is_a_replay_not_a_conflict(phone, live_round,
                                                                       monkeypatch):
    """A retry can overtake a slow answer: the second copy passes the replay check before the
    first one is stored, then finds the result moved on. It must still answer 200."""
    client_id = str(uuid.uuid4())
    assert write(phone, live_round, 1, "tap", client_id=client_id,
                 time_seconds=540).status_code == 200
    calls = []
    seen_first = recording.result_replayed

    def late_replay_check(*args):
        calls.append(args)
        return None if len(calls) == 1 else seen_first(*args)

    monkeypatch.setattr(recording, "result_replayed", late_replay_check)
    again = write(phone, live_round, 1, "tap", client_id=client_id, time_seconds=540)
    assert again.status_code == 200
    assert again.json()["replayed"] is True
    assert len(calls) == 2
    assert ResultChange.objects.filter(client_id=client_id).count() == 1


def test_the_openapi_document_describes_the_device_api_with_its_bearer_token(client):
    document = client.get("/api/v1/openapi.json").json()
    write_op = document["paths"]["/api/v1/device/results"]["post"]
    assert set(write_op["responses"]) >= {"200", "401", "403", "404", "409", "422"}
    assert write_op["security"] == [{"DeviceToken": []}]
    assert document["components"]["securitySchemes"]["DeviceToken"]["scheme"] == "bearer"
    assert "/api/v1/device/me" in document["paths"]

