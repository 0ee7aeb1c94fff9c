"""A championship setting given twice with two values is refused, naming both, wherever it is
given: the command line, a results document, a championship file (australia-state-national.txt,
Eligibility: the host state decides who takes a state trophy, so it must be one state)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from puzzlecomp.cli.main import main
from puzzlecomp.formats.interchange import InterchangeError, load_json, parse_championship_file
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
    """Told with the file's other problems in one run (issue 23, item 9): here the fields the
    championship lacks."""
    text = ('{"format": "puzzlecomp-championship", "version": 4, '
            '"championship": {"settings": {"host_region": "NSW", "host_region": "VIC"}}}')
    with pytest.raises(InterchangeError) as refused:
        parse_championship_file(load_json(text))
    problems = [str(p) for p in refused.value.problems]
    assert problems[0] == ("championship.settings.host_region: setting host_region is given "
                           "twice, as 'NSW' and as 'VIC'; give it once")
    assert "championship.ruleset_id: Field required" in problems[1:]


@pytest.mark.parametrize("override", ["host_region=QLD", "HOST_REGION=VIC", "Host_Region=nsw"])
def test_a_documents_setting_twice_is_refused_whatever_the_command_line_puts_in_its_place(
        tmp_path, capsys, override):
    """Issue 23, item 7 (second referee): a --setting replaces the document's value, but the
    document's own two values stay a contradiction: refused naming both and the document, with
    any override, in any letter case, even one equal to either value."""
    source = document(tmp_path, '{"host_region": "NSW", "HOST_REGION": "VIC"}')
    code, out, err = run(capsys, "awards", source, *OPTIONS, "--setting", override)
    assert (code, out) == (2, "")
    assert err.splitlines() == [
        f"{source} settings, field HOST_REGION: setting host_region is given twice, as "
        "'NSW' and as 'VIC' (HOST_REGION); give it once"]


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(["host_region", "HOST_REGION", "Host_region"]),
                          st.sampled_from(["NSW", "VIC", "QLD", "vic"])),
                max_size=2, unique_by=lambda item: item[0].casefold()),
       st.sampled_from(["state-a.json", "state-b.json"]))
def test_no_override_hides_a_documents_setting_given_twice(tmp_path_factory, capsys,
                                                           overrides, name):
    """Issue 23, item 7: whatever --setting options are given (none, one, in any case, any
    value), a document giving host_region twice with two values is refused, naming both."""
    folder = tmp_path_factory.mktemp("twice")
    source = document(folder, '{"host_region": "NSW", "Host_Region": "VIC"}').rename(
        folder / name)
    options = [item for name_, value in overrides for item in ("--setting", f"{name_}={value}")]
    code, out, err = run(capsys, "awards", source, *OPTIONS, *options)
    assert (code, out) == (2, "")
    assert (f"{source} settings, field Host_Region: setting host_region is given twice, as "
            "'NSW' and as 'VIC'") in err


@pytest.mark.django_db
@pytest.mark.parametrize("settings_text", [
    '{"host_region": "NSW", "host_region": "VIC"}',
    '{"host_region": "NSW", "HOST_REGION": "VIC"}',
], ids=["same-name", "other-case"])
def test_a_championship_files_setting_twice_is_refused_under_a_command_line_override(
        tmp_path, capsys, settings_text):
    """Issue 23, item 7: a championship file (of `championship export`) giving host_region
    twice is refused by `standings` and `awards` even when --setting gives host_region."""
    from django.utils import timezone

    from puzzlecomp.championships.services.setup import championship_create

    championship = championship_create(ruleset_id="australia-state", name="State 2027",
                                       starts_at=timezone.now())
    code, out, _ = run(capsys, "championship", "export", championship.slug)
    assert code == 0
    data = json.loads(out)
    data["championship"]["settings"] = {"@SETTINGS@": 1}
    path = tmp_path / "state-file.json"
    path.write_text(json.dumps(data).replace('{"@SETTINGS@": 1}', settings_text),
                    encoding="utf-8")
    for command in ("standings", "awards"):
        code, out, err = run(capsys, command, path, "--event", "individual", "--setting",
                             "host_region=QLD")
        assert (code, out) == (2, ""), err
        assert "host_region is given twice, as 'NSW' and as 'VIC'" in err
        assert str(path) in err
