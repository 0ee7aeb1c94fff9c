"""One impossible record, one code: the phone, the head judge's correction, the championship
import and the CLI refuse it alike, because every path scores through the engine."""

from __future__ import annotations

import pytest

from puzzlecomp.championships.services.disputes import result_correct
from puzzlecomp.championships.services.interchange import championship_export, championship_import
from puzzlecomp.championships.services.results import ResultValues
from puzzlecomp.cli.main import main
from puzzlecomp.formats.interchange import InterchangeError
from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.results import Status
from tests.judging.support import fields_of, write

pytestmark = pytest.mark.django_db


def cli_problems(tmp_path, capsys, row: str) -> tuple[int, str]:
    source = tmp_path / "first.csv"
    source.write_text("entry,group,status,time,pieces\n" + row + "\n", encoding="utf-8")
    code = main(["rank", str(source), "--ruleset", "wjpc-2025", "--event", "individual"])
    out, err = capsys.readouterr()
    assert out == ""
    return code, err.strip()


def test_a_finish_at_zero_seconds_is_refused_by_phone_head_judge_import_and_cli(
    phone, live_round, tmp_path, capsys
):
    """wjpc-2025.txt, Time Recording: a finish is a time after the start."""
    response = write(phone, live_round, 1, "tap", time_seconds=0)
    assert (response.status_code, fields_of(response)) == (
        422, [("result.finish_at_zero", "time_seconds")])
    entry = live_round.seats.get(entry__number=2).entry
    with pytest.raises(RulesError) as caught:
        result_correct(round=live_round, entry=entry, base_version=None, reason="typo",
                       values=ResultValues(status=Status.FINISHED, time_seconds=0))
    assert [(v.code, v.field, v.entry) for v in caught.value.violations] == [
        ("result.finish_at_zero", "time", "2")]
    code, err = cli_problems(tmp_path, capsys, "E2,A,finished,0:00,")
    assert code == 2
    assert err.endswith("row 2, entry E2, field time: a finish at 0:00:00 is not a time")
    assert write(phone, live_round, 1, "tap", time_seconds=300).status_code == 200
    data = championship_export(live_round.event.championship)
    data["results"][0]["time_seconds"] = 0
    with pytest.raises(InterchangeError) as refused:
        championship_import(data, slug="copy")
    assert [str(p) for p in refused.value.problems] == [
        f"results[0].time_seconds: entry {data['results'][0]['entry']}, field time: a finish "
        "at 0:00:00 is not a time"]


def test_an_unfinished_result_with_a_finish_time_is_refused_by_head_judge_and_cli(
    live_round, tmp_path, capsys
):
    """wjpc-2025.txt, Unfinished Puzzles: an unfinished puzzle is ranked by its count only."""
    entry = live_round.seats.get(entry__number=3).entry
    with pytest.raises(RulesError) as caught:
        result_correct(round=live_round, entry=entry, base_version=None, reason="typo",
                       values=ResultValues(status=Status.UNFINISHED, time_seconds=4000,
                                           pieces=300))
    assert [(v.code, v.field) for v in caught.value.violations] == [
        ("result.unfinished_with_time", "time")]
    code, err = cli_problems(tmp_path, capsys, "E3,A,unfinished,1:06:40,300")
    assert code == 2
    assert "row 2, entry E3, field time:" in err
