"""The open results package (issue 29, docs/results-package.md): public facts only, valid
against its published schema, signed; a changed, removed or re-signed result, a broken chain
of corrections and every malformed file are refused naming the field."""

from __future__ import annotations

import copy
import datetime as dt
import json
import os
from dataclasses import replace
from pathlib import Path

import pytest
import rfc8785

from puzzlecomp.championships.demo import DEMO_SLUG, demo_load
from puzzlecomp.championships.models import (
    Championship,
    Person,
    Result,
    ResultsPackage,
    Round,
    RoundState,
)
from puzzlecomp.championships.selectors.results_package import (
    installation_public_key,
    package_standing,
    result_code_standing,
)
from puzzlecomp.championships.services.disputes import result_correct, values_of
from puzzlecomp.championships.services.results_package import results_package_issue
from puzzlecomp.formats.results_package.document import (
    PackageError,
    canonical,
    package_hash,
    package_load,
    package_schema,
    package_verify,
    schema_problems,
)
from puzzlecomp.rules import limits
from puzzlecomp.rules.results import Status

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.fixture(autouse=True)
def signing_key(settings, tmp_path):
    settings.RESULTS_KEY_FILE = tmp_path / "data" / "results-signing-key"
    return settings.RESULTS_KEY_FILE


@pytest.fixture
def demo(db) -> Championship:
    demo_load(individuals=60, pairs=20, teams=8)
    return Championship.objects.get(slug=DEMO_SLUG)


@pytest.fixture
def package(demo) -> dict:
    return json.loads(results_package_issue(championship=demo).content)


def problems_of(exc: PackageError) -> list[str]:
    return [str(p) for p in exc.problems]


def refused(document) -> list[str]:
    with pytest.raises(PackageError) as caught:
        package_verify(document)
    return problems_of(caught.value)


def first_result(document: dict) -> tuple[str, dict]:
    for e, event in enumerate(document["events"]):
        for r, rnd in enumerate(event["rounds"]):
            if rnd["results"]:
                return f"events[{e}].rounds[{r}]", rnd
    raise AssertionError("no results")


def test_the_schema_under_docs_is_the_one_the_program_validates_with():
    assert json.loads((DOCS / "results-package.schema.json").read_text()) == package_schema()
    assert package_schema()["$id"].endswith("/results-package/1")


def test_the_package_carries_the_results_valid_against_its_schema_and_signed(package):
    assert schema_problems(package) == []
    assert package_verify(package)["list_status"] == "provisional"
    assert package["software"]["name"] == "puzzlecomp"
    assert package["championship"]["ruleset"]["id"] == "wjpc-2025"
    teams = next(e for e in package["events"] if e["code"] == "teams")
    first = next(r for r in teams["rounds"] if r["code"] == "first")
    assert first["state"] == "published"
    assert first["result_count"] == len(first["results"]) > 0
    assert {r["validation"] for r in first["results"]} <= {"checked", "validated", "corrected",
                                                           "recorded"}
    assert any(r["qualified"] for r in first["results"])
    assert first["puzzles"]
    assert all(p["pieces"] and "maker" in p for p in first["puzzles"])
    named = [m for e in teams["entries"] for m in e["members"] if m["name"]]
    assert named
    assert all(m["ids"][0]["issuer"].startswith("puzzlecomp:") for m in named)
    # A round still running carries its definition but no results yet.
    pairs = next(e for e in package["events"] if e["code"] == "pairs")
    assert pairs["rounds"][0]["state"] == "running"
    assert pairs["rounds"][0]["results"] == []


def test_the_package_holds_no_birth_date_or_email_of_the_demo(demo):
    people = Person.objects.filter(entries__entry__event__championship=demo).distinct()
    # The demo's people from the archive have no birth date and none has an email: give them.
    for n, person in enumerate(people):
        Person.objects.filter(pk=person.pk).update(
            email=f"competitor{n}@example.org",
            birth_date=person.birth_date or dt.date(1950 + n % 50, 1 + n % 12, 1 + n % 28))
    text = json.dumps(json.loads(results_package_issue(championship=demo).content))
    births = {p.birth_date.isoformat() for p in people.all()}
    emails = {p.email for p in people.all()}
    assert len(emails) == people.count() > 50
    assert not [b for b in births if b in text]
    assert not [e for e in emails if e in text]
    assert "birth" not in text
    assert "email" not in text
    assert "@" not in text


def test_a_tampered_time_is_refused_naming_the_result(package):
    tampered = copy.deepcopy(package)
    where, rnd = first_result(tampered)
    rnd["results"][0]["time_seconds"] = (rnd["results"][0]["time_seconds"] or 0) + 60
    [problem] = refused(tampered)
    assert problem.startswith(f"{where}.results[0]: entry {rnd['results'][0]['entry']}")
    assert "changed after signing" in problem


def test_a_removed_result_is_refused_naming_the_count(package):
    removed = copy.deepcopy(package)
    where, rnd = first_result(removed)
    rnd["results"].pop()
    [problem] = refused(removed)
    assert problem.startswith(f"{where}.result_count: says {len(rnd['results']) + 1} results")


def test_a_result_removed_with_its_count_fixed_still_breaks_the_signature(package):
    removed = copy.deepcopy(package)
    _, rnd = first_result(removed)
    rnd["results"].pop()
    rnd["result_count"] -= 1
    [problem] = refused(removed)
    assert problem.startswith("signature.value: does not verify")


def test_a_swapped_signature_is_refused(demo, package):
    other = copy.deepcopy(package)
    other["championship"]["name"] = "Someone else's"
    signed = json.loads(results_package_issue(championship=demo, event_code="teams").content)
    other["signature"] = signed["signature"]
    assert refused(other)[0].startswith("signature.value: does not verify with the issuer's key")


def test_a_broken_chain_is_refused_naming_the_link(demo):
    for rnd in Round.objects.filter(event__championship=demo):
        Round.objects.filter(pk=rnd.pk).update(state=RoundState.FINAL)
    final = json.loads(results_package_issue(championship=demo).content)
    # Only a correction names the package it replaces (review finding 11).
    assert final["replaces"] is None
    Result.objects.filter(round__event__championship=demo, status="finished").update(missing=2)
    later = json.loads(results_package_issue(championship=demo).content)
    assert (later["list_status"], later["replaces"]) == ("correction", package_hash(final))
    assert package_verify(later, previous=final)
    unrelated = json.loads(results_package_issue(championship=demo, event_code="teams").content)
    with pytest.raises(PackageError) as caught:
        package_verify(later, previous=unrelated)
    [problem] = problems_of(caught.value)
    assert problem.startswith(f"replaces: names {later['replaces']}, but the previous package")
    assert "chain of corrections is broken" in problem


def results_of(issued: ResultsPackage) -> list[dict]:
    return json.loads(issued.content)["events"][0]["rounds"][0]["results"]


def test_a_later_package_replaces_the_last_and_says_which_results_still_stand(demo):
    first = results_package_issue(championship=demo, event_code="teams")
    # Nothing changed: the same package is handed out again.
    assert results_package_issue(championship=demo, event_code="teams").pk == first.pk
    teams_first = Round.objects.get(event__championship=demo, event__code="teams", code="first")
    published = results_of(first)
    # The slowest finisher is disqualified: those ranked ahead keep their results as published.
    last = max((r for r in published if r["status"] == "finished"), key=lambda r: r["rank"])
    result = Result.objects.get(round=teams_first, entry__number=last["entry"])
    result_correct(round=teams_first, entry=result.entry, reason="Outside help seen on the video",
                   values=replace(values_of(result), status=Status.DSQ, puzzles=[]),
                   base_version=result.version)
    later = results_package_issue(championship=demo, event_code="teams")
    assert (later.list_status, later.replaces) == ("provisional", first.hash)
    assert package_standing(first.content).state == "replaced"
    assert package_standing(later.content).state == "valid"
    changed = last
    kept = next(r for r in published if r["rank"] == 1)
    assert result_code_standing(changed["code"]).state == "replaced"
    assert result_code_standing(kept["code"][:20]).state == "valid"
    assert result_code_standing(kept["code"][:12]).state == "not_from_here"


def test_a_change_after_a_final_package_is_a_correction_naming_it(demo):
    for rnd in Round.objects.filter(event__championship=demo, event__code="teams"):
        Round.objects.filter(pk=rnd.pk).update(state=RoundState.FINAL)
    final = results_package_issue(championship=demo, event_code="teams")
    assert final.list_status == "final"
    # A fix made after the results were final (at the database, by the operator).
    row = Result.objects.filter(round__event__championship=demo, round__event__code="teams",
                                status="finished").order_by("pk").first()
    Result.objects.filter(pk=row.pk).update(status="dsq", puzzles=[])
    correction = results_package_issue(championship=demo, event_code="teams")
    assert (correction.list_status, correction.replaces) == ("correction", final.hash)
    with pytest.raises(PackageError) as caught:
        package_verify({**json.loads(correction.content), "replaces": None})
    # The schema refuses it first (review finding 11: replaces is a hash exactly for a
    # correction); package_verify's own check says the same of a schema-less caller.
    assert problems_of(caught.value)[0].startswith("replaces: ")


def test_not_json_an_unknown_version_too_large_or_too_deep_are_refused(package):
    with pytest.raises(PackageError) as caught:
        package_load(b'{"format": "puzzlecomp-results-package",,}')
    assert problems_of(caught.value)[0].startswith("(top level): not JSON: line 1, column")
    assert refused({**package, "version": 2}) == [
        "version: version 2 is unknown; this puzzlecomp reads version 1"]
    assert refused({**package, "format": "other"})[0].startswith("format: expected")
    with pytest.raises(PackageError) as caught:
        package_load(b" " * (limits.MAX_CHAMPIONSHIP_FILE_BYTES + 1))
    assert "bytes; at most" in problems_of(caught.value)[0]
    deep = "[" * (limits.MAX_JSON_DEPTH + 1) + "]" * (limits.MAX_JSON_DEPTH + 1)
    with pytest.raises(PackageError) as caught:
        package_load(deep)
    assert "nested more than" in problems_of(caught.value)[0]
    missing = copy.deepcopy(package)
    del missing["events"][0]["rounds"][0]["result_count"]
    assert refused(missing)[0].startswith('events[0].rounds[0]: "result_count" is a required')


def test_the_key_is_made_at_first_use_readable_by_its_owner_only(signing_key, db):
    assert not signing_key.exists()
    public, fingerprint = installation_public_key()
    assert os.stat(signing_key).st_mode & 0o777 == 0o600
    assert installation_public_key() == (public, fingerprint)
    assert len(fingerprint.split()) == 8


def test_a_package_signed_by_another_key_is_not_from_here(package, signing_key):
    assert package_standing(json.dumps(package)).state == "valid"
    # The installation's key is replaced: what the old key signed is another's now.
    signing_key.unlink()
    assert package_standing(json.dumps(package)).state == "not_from_here"
    invalid = package_standing(b"not json")
    assert invalid.state == "invalid"
    assert invalid.problems[0].startswith("(top level): not JSON")


@pytest.mark.parametrize("value", [
    {"b": 1, "a": [True, None, -0, 10**15], "é": "x"},
    {"text": "tab\t quote\" back\\ nul\u0000 \u001f del\u007f line\u2028 žluť"},
    {"emoji": "\U0001f9e9", "\u00e9": "key sorted by code point"},
    {"z": {"y": [], "x": {}}, "A": "", "_": 1},
    {"float": 1.0, "nested": [{"f": 0.5}]},
])
def test_the_fast_canonical_form_is_rfc_8785s(value):
    assert canonical(value) == rfc8785.dumps(value)


def test_a_whole_package_is_canonical_as_rfc_8785_writes_it(package):
    assert canonical(package) == rfc8785.dumps(package)
    assert canonical(package["events"][0]) == rfc8785.dumps(package["events"][0])
