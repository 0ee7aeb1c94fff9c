"""A championship setting given twice with two values is refused, naming both, wherever it is
given: the command line, a results document, a championship file (australia-state-national.txt,
Eligibility: the host state decides who takes a state trophy, so it must be one state)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from puzzlecomp.cli.main import main
from puzzlecomp.formats.interchange import InterchangeError, load_json
from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.loading import load_ruleset
from puzzlecomp.rules.settings import championship_settings

OPTIONS = ["--event", "individual", "--time-limit", "60", "--pieces", "500"]
ROWS = [{"entry": "v", "region": "VIC", "time": "40:00"},
        {"entry": "n", "region": "NSW", "time": "41:00"}]


def run(capsys, *args: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def document(tmp_path: Path, settings_text: str) -> Path:
    path = tmp_path / "state.json"
    path.write_text(
        '{"format": "puzzlecomp-results", "version": 1, "ruleset": "australia-state", '
        f'"settings": {settings_text}, '
        f'"events": {{"individual": {{"rounds": {{"final": {json.dumps(ROWS)}}}}}}}}}',
        encoding="utf-8")
    return path


def test_the_engine_refuses_two_values_for_one_setting_in_any_letter_case():
    ruleset = load_ruleset("australia-state")
    with pytest.raises(RulesError) as refused:
        championship_settings(ruleset, {"host_region": "NSW", "HOST_REGION": "vic"})
    (violation,) = refused.value.violations
    assert violation.code == "setting.twice"
    assert (violation.params["first"], violation.params["second"]) == ("NSW", "vic")
    # The same value twice, in another case, is one value.
    given = championship_settings(ruleset, {"host_region": "NSW", "Host_Region": "nsw"})
    assert given["host_region"] == "NSW"


def test_the_command_line_refuses_a_setting_given_twice(tmp_path, capsys):
    source = document(tmp_path, '{"host_region": "NSW"}')
    code, out, err = run(capsys, "awards", source, *OPTIONS, "--setting", "host_region=VIC",
                         "--setting", "Host_Region=QLD")
    assert (code, out) == (2, "")
    assert "host_region is given twice, as 'VIC' and as 'QLD'" in err
    # One --setting still overrides the document's value, in any letter case.
    code, out, err = run(capsys, "awards", source, *OPTIONS, "--setting", "HOST_REGION=VIC")
    assert (code, err) == (0, "")
    assert out.splitlines()[1:] == ["overall,1,v,,,1,final,yes,,,"]


@pytest.mark.parametrize("settings_text", [
    '{"host_region": "NSW", "host_region": "VIC"}',
    '{"host_region": "NSW", "HOST_REGION": "VIC"}',
], ids=["same-name", "other-case"])
def test_a_results_document_with_a_setting_twice_is_refused(tmp_path, capsys, settings_text):
    code, out, err = run(capsys, "awards", document(tmp_path, settings_text), *OPTIONS)
    assert (code, out) == (2, "")
    assert "given twice, as 'NSW' and as 'VIC'" in err
    assert "state.json" in err


def test_a_championship_file_with_a_setting_twice_is_refused():
    text = '{"championship": {"settings": {"host_region": "NSW", "host_region": "VIC"}}}'
    with pytest.raises(InterchangeError) as refused:
        load_json(text)
    assert [str(p) for p in refused.value.problems] == [
        "championship.settings.host_region: setting host_region is given twice, as 'NSW' and "
        "as 'VIC'; give it once"]
