"""Issue 23, items 2, 3 and 10: equal-second finishes, contradictory records and time credits
are one engine rule each, so the phone (device API), the head judge's correction, the
championship import and the CLI refuse (or accept) alike, with the same code."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from puzzlecomp.championships import engine
from puzzlecomp.championships.models import Result, ResultChange, Round
from puzzlecomp.championships.roles import Role
from puzzlecomp.championships.services.disputes import result_correct, time_credit_grant
from puzzlecomp.championships.services.interchange import championship_export, championship_import
from puzzlecomp.championships.services.results import ResultValues
from puzzlecomp.cli.main import main
from puzzlecomp.formats.interchange import InterchangeError
from puzzlecomp.rules import loading
from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.results import Status
from tests.judging.support import fields_of, pair_device, seat_round, write

pytestmark = pytest.mark.django_db

CHECKED = {"complete_and_correct": True, "competitor_confirmed": True}


def cli_run(tmp_path, capsys, header: str, row: str, *args: str) -> tuple[int, str, str]:
    source = tmp_path / "results.csv"
    source.write_text(f"{header}\n{row}\n", encoding="utf-8")
    code = main(["rank", str(source), "--ruleset", "wjpc-2025", *args])
    out, err = capsys.readouterr()
    return code, out, err.strip()


def import_problems(data: dict) -> list[str]:
    with pytest.raises(InterchangeError) as refused:
        championship_import(data, slug="copy")
    return [str(p) for p in refused.value.problems]


def corrected(rnd: Round, number: int, values: ResultValues) -> list[tuple[str, str]]:
    entry = rnd.seats.get(entry__number=number).entry
    with pytest.raises(RulesError) as caught:
        result_correct(round=rnd, entry=entry, base_version=None, reason="typo", values=values)
    return [(v.code, v.field) for v in caught.value.violations]


@pytest.fixture
def teams_final(championship) -> Round:
    """WJPC teams final: two 1000-piece puzzles in 180 minutes, running for an hour."""
    return seat_round(championship, "teams", "final", tables=1, per_table=1,
                      started_minutes_ago=60)


@pytest.fixture
def head_judge(championship, client_as) -> Client:
    return client_as(championship, Role.HEAD_JUDGE)


def round_page(client: Client, rnd: Round) -> str:
    url = reverse("control:live:round", args=[rnd.event.championship.slug, rnd.pk])
    return client.get(url).content.decode()


@pytest.fixture
def team_phone(teams_final) -> Client:
    token = pair_device(teams_final.event.championship, 1, 1)[1]
    return Client(HTTP_AUTHORIZATION=f"Bearer {token}")


# ------------------------------------------------------------ item 2: the same second
def test_a_teams_second_puzzle_at_the_first_ones_second_is_refused_by_every_path(
    team_phone, teams_final, tmp_path, capsys
):
    """wjpc-2025.txt, Teams: the second puzzle starts only once the first is verified and its
    time recorded, so it never finishes at the same second (next_finish_after_seconds = 1)."""
    number = teams_final.seats.get().entry.number
    assert write(team_phone, teams_final, number, "tap", puzzle=1,
                 time_seconds=1500).status_code == 200
    assert write(team_phone, teams_final, number, "verify", base=1, puzzle=1,
                 **CHECKED).status_code == 200
    assert write(team_phone, teams_final, number, "authorise", base=2,
                 puzzle=2).status_code == 200
    same = write(team_phone, teams_final, number, "tap", base=3, puzzle=2, time_seconds=1500)
    assert fields_of(same) == [("result.puzzle_before_previous", "time_seconds")]
    assert write(team_phone, teams_final, number, "tap", base=3, puzzle=2,
                 time_seconds=1501).status_code == 200

    same_second = [{"time": 1500}, {"time": 1500}]
    assert corrected(teams_final, number, ResultValues(status=Status.FINISHED,
                                                       puzzles=same_second)) == [
        ("result.puzzle_before_previous", "puzzle 2")]
    data = championship_export(teams_final.event.championship)
    data["results"][0]["puzzles"] = same_second
    assert import_problems(data) == [
        f"results[0].puzzles[1]: entry {data['results'][0]['entry']}, field puzzle 2: puzzle 2 "
        "is finished less than 1 s after the puzzle it follows"]
    code, out, err = cli_run(tmp_path, capsys, "entry,group,time_1,time_2", "T1,A,25:00,25:00",
                             "--event", "teams")
    assert (code, out) == (2, "")
    assert err.endswith("row 2, entry T1, field puzzle 2: puzzle 2 is finished less than 1 s "
                        "after the puzzle it follows")


# ------------------------------------------------------------ item 3: contradictions
def test_a_finisher_with_a_piece_count_is_refused_by_head_judge_import_and_cli(
    phone, live_round, tmp_path, capsys
):
    """wjpc-2025.txt, Unfinished Puzzles: pieces are counted only of a puzzle left incomplete at
    the maximum time; a finish is a time (Recording Time)."""
    assert corrected(live_round, 2, ResultValues(status=Status.FINISHED, time_seconds=3000,
                                                 pieces=500)) == [
        ("result.finished_with_count", "pieces")]
    code, _, err = cli_run(tmp_path, capsys, "entry,group,status,time,pieces",
                           "E2,A,finished,50:00,500", "--event", "individual")
    assert code == 2
    assert err.endswith("row 2, entry E2, field pieces: a finished result has a time, not a "
                        "pieces count")
    assert write(phone, live_round, 1, "tap", time_seconds=300).status_code == 200
    data = championship_export(live_round.event.championship)
    data["results"][0]["pieces"] = 500
    assert import_problems(data) == [
        f"results[0].pieces: entry {data['results'][0]['entry']}, field pieces: a finished "
        "result has a time, not a pieces count"]


def test_a_dnf_with_missing_pieces_is_refused_by_head_judge_import_and_cli(
    phone, live_round, tmp_path, capsys
):
    """wjpc-2025.txt, Stopping the Timer with Pieces Remaining: missing pieces are noted when
    the participant declares the puzzle complete; a dnf declared nothing."""
    assert corrected(live_round, 2, ResultValues(status=Status.DNF, missing=3)) == [
        ("result.missing_without_finish", "missing")]
    code, _, err = cli_run(tmp_path, capsys, "entry,group,status,missing", "E2,A,dnf,3",
                           "--event", "individual")
    assert code == 2
    assert "row 2, entry E2, field missing: a dnf result has no finish" in err
    assert write(phone, live_round, 1, "tap", time_seconds=300).status_code == 200
    data = championship_export(live_round.event.championship)
    data["results"][0].update(status="dnf", time_seconds=None, missing=3)
    assert import_problems(data) == [
        f"results[0].missing: entry {data['results'][0]['entry']}, field missing: a dnf "
        "result has no finish, so no missing pieces"]


def test_a_plain_time_against_the_puzzles_times_is_refused_by_head_judge_import_and_cli(
    teams_final, team_phone, tmp_path, capsys
):
    """wjpc-2025.txt, Teams Final: the team's time is the finish of its last puzzle; a plain time
    that says otherwise is an error, not a winner over the puzzles' times."""
    number = teams_final.seats.get().entry.number
    puzzles = [{"time": 1500}, {"time": 3300}]
    assert corrected(teams_final, number, ResultValues(
        status=Status.FINISHED, time_seconds=3000, puzzles=puzzles)) == [
        ("result.time_disagrees", "time")]
    code, _, err = cli_run(tmp_path, capsys, "entry,group,time,time_1,time_2",
                           "T1,A,50:00,25:00,55:00", "--event", "teams")
    assert code == 2
    assert err.endswith("row 2, entry T1, field time: the time 0:50:00 is not the last "
                        "puzzle's finish 0:55:00")
    assert write(team_phone, teams_final, number, "tap", puzzle=1,
                 time_seconds=1500).status_code == 200
    data = championship_export(teams_final.event.championship)
    data["results"][0].update(status="finished", time_seconds=3000, puzzles=puzzles)
    assert import_problems(data) == [
        f"results[0].time_seconds: entry {data['results'][0]['entry']}, field time: the time "
        "0:50:00 is not the last puzzle's finish 0:55:00"]


def test_a_phone_disqualification_of_a_team_keeps_no_puzzle_times(team_phone, teams_final):
    """A dsq holds no per-puzzle times or counts (rules/contradictions.py): the phone's
    disqualification after a tap stores none, and the history keeps the tap."""
    number = teams_final.seats.get().entry.number
    assert write(team_phone, teams_final, number, "tap", puzzle=1,
                 time_seconds=1500).status_code == 200
    assert write(team_phone, teams_final, number, "dsq", base=1,
                 note="Help from a spectator").status_code == 200
    row = Result.objects.get(round=teams_final)
    assert (row.status, row.puzzles) == ("dsq", [])
    tap = ResultChange.objects.get(round=teams_final, version=1)
    assert tap.new["puzzles"][0]["time"] == 1500


# ------------------------------------------------------------ item 10: time credits
def test_the_wjpc_final_takes_a_time_credit_in_every_path(
    championship, head_judge, tmp_path, capsys
):
    """wjpc-2025.txt, Start of the round: the time lost to a wrong puzzle is subtracted and given
    as extra time; the rulebook names no round without it (time_credits = "every_round")."""
    final = seat_round(championship, "individual", "final", tables=1, per_table=1)
    entry = final.seats.get().entry
    assert time_credit_grant(round=final, entry=entry, seconds=60, reason="Wrong puzzle") == 60
    page = round_page(head_judge, final)
    assert 'class="credit-form"' in page
    code, out, _ = cli_run(tmp_path, capsys, "entry,status,time,time_credit",
                           "F1,finished,1:15:30,1:00", "--event", "individual", "--round",
                           "final")
    assert code == 0
    assert "1:14:30" in out


@pytest.fixture
def credits_before_final(monkeypatch):
    """WJPC as a ruleset that keeps credits out of the final (`time_credits = "before_final"`)."""
    parse = loading.parse_ruleset

    def before_final(text: str, *, filename: str):
        ruleset = parse(text, filename=filename)
        if ruleset.id != "wjpc-2025":
            return ruleset
        return ruleset.model_copy(update={"time_credits": "before_final"})

    def forget() -> None:
        loading.load_ruleset.cache_clear()
        engine.round_rules_of.cache_clear()

    monkeypatch.setattr(loading, "parse_ruleset", before_final)
    forget()
    yield
    monkeypatch.undo()
    forget()


def test_before_final_refuses_a_final_credit_alike_in_every_path(
    credits_before_final, championship, head_judge, tmp_path, capsys
):
    """docs/rulesets.md, Time credits: the organiser's reading `before_final` is the engine's
    rule, so the head judge's grant (whose credit the phone's and the correction's writes
    carry), the import and the CLI all refuse a final's credit with result.credit_in_final."""
    final = seat_round(championship, "individual", "final", tables=1, per_table=1)
    entry = final.seats.get().entry
    with pytest.raises(RulesError) as refused:
        time_credit_grant(round=final, entry=entry, seconds=60, reason="Wrong puzzle")
    assert refused.value.code == "result.credit_in_final"
    page = round_page(head_judge, final)
    assert 'id="no-credits-in-final"' in page
    assert 'class="credit-form"' not in page
    code, _, err = cli_run(tmp_path, capsys, "entry,status,time,time_credit",
                           "F1,finished,1:00:00,1:00", "--event", "individual", "--round",
                           "final")
    assert code == 2
    assert "entry F1, field time_credit: wjpc-2025 gives no time credits in the event's final" \
        in err
    data = championship_export(championship)
    at = next(i for i, seat in enumerate(data["seats"]) if seat["round"] == "final")
    data["seats"][at]["time_credit"] = 60
    assert import_problems(data) == [f"seats[{at}].time_credit: wjpc-2025 gives no time credits "
                                     "in the event's final round"]
