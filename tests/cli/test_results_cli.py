"""`puzzlecomp results package|verify|key|trust` (issue 29): the package on standard output or
in a file; verify names the file and field of every problem, exit status 2."""

from __future__ import annotations

import json

import pytest

from puzzlecomp.championships.demo import DEMO_SLUG, demo_load
from puzzlecomp.championships.models import (
    Championship,
    Person,
    Result,
    Round,
    RoundState,
    TrustedKey,
)
from puzzlecomp.cli.main import main

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def signing_key(settings, tmp_path):
    settings.RESULTS_KEY_FILE = tmp_path / "results-signing-key"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_package_verify_and_a_tampered_or_unchained_file(capsys, tmp_path):
    demo_load(individuals=30, pairs=10, teams=6)
    code, out, err = run(capsys, "results", "package", DEMO_SLUG, "--event", "teams")
    assert (code, err) == (0, "")
    document = json.loads(out)
    assert document["scope"] == {"event": "teams"}
    first = tmp_path / "first.json"
    first.write_text(out, encoding="utf-8")
    code, out, err = run(capsys, "results", "verify", str(first))
    assert (code, err) == (0, "")
    assert out.startswith(f"{first}: valid provisional package of {DEMO_SLUG}, signed by key ")

    tampered = tmp_path / "tampered.json"
    results = document["events"][0]["rounds"][0]["results"]
    results[0]["missing"] += 1
    tampered.write_text(json.dumps(document), encoding="utf-8")
    code, out, err = run(capsys, "results", "verify", str(tampered))
    assert code == 2
    assert err.startswith(f"error: {tampered}: events[0].rounds[0].results[0]: entry ")

    Round.objects.filter(event__championship__slug=DEMO_SLUG, event__code="teams").update(
        state=RoundState.FINAL)
    later = tmp_path / "later.json"
    code, out, err = run(capsys, "results", "package", DEMO_SLUG, "--event", "teams",
                         "--output", str(later))
    assert code == 0
    assert "final, sha256:" in err
    code, out, err = run(capsys, "results", "verify", str(first), str(later))
    assert (code, err) == (0, "")
    assert "replaces sha256:" in out.splitlines()[1]
    code, out, err = run(capsys, "results", "verify", str(later), str(first))
    assert code == 2
    assert err.startswith(f"error: {first}: replaces: names None, but the previous package")

    not_json = tmp_path / "not.json"
    not_json.write_text("{", encoding="utf-8")
    code, out, err = run(capsys, "results", "verify", str(not_json))
    assert code == 2
    assert err.startswith(f"error: {not_json}: (top level): not JSON: line 1")


def test_an_unknown_championship_or_event_is_one_line(capsys):
    assert run(capsys, "results", "package", "nowhere") == (
        2, "", "error: no championship 'nowhere'\n")
    demo_load(individuals=30, pairs=10, teams=6)
    code, _, err = run(capsys, "results", "package", DEMO_SLUG, "--event", "relay")
    assert (code, err) == (2, f"error: --event 'relay': {DEMO_SLUG} has no such event\n")


def test_key_prints_the_fingerprint_and_trust_adds_another_key(capsys):
    code, out, _ = run(capsys, "results", "key")
    public = out.split()[2]
    assert code == 0
    assert "fingerprint: " in out
    assert run(capsys, "results", "trust", public, "--name", "WJPF server")[0] == 0
    assert TrustedKey.objects.get().name == "WJPF server"
    code, _, err = run(capsys, "results", "trust", "bm90IGEga2V5", "--name", "x")
    assert (code, err) == (2, "error: public_key: an Ed25519 public key has 32 bytes, not 9\n")


def final_individual_package(capsys, tmp_path) -> str:
    """The demo's individual first round complete and final, as a package file."""
    demo_load(individuals=30, pairs=10, teams=6)
    first = Round.objects.get(event__championship__slug=DEMO_SLUG, event__code="individual",
                              code="first")
    done = set(first.results.values_list("entry_id", flat=True))
    Result.objects.bulk_create(
        Result(round=first, entry_id=s.entry_id, status="finished", time_seconds=3000 + n)
        for n, s in enumerate(first.seats.filter(no_show=False)) if s.entry_id not in done)
    Round.objects.filter(event=first.event).exclude(pk=first.pk).delete()
    Round.objects.filter(pk=first.pk).update(state=RoundState.FINAL)
    path = tmp_path / "individual.json"
    assert run(capsys, "results", "package", DEMO_SLUG, "--event", "individual", "--output",
               str(path))[0] == 0
    return str(path)


def test_the_archive_imports_a_package_only_from_a_trusted_key(capsys, tmp_path):
    path = final_individual_package(capsys, tmp_path)
    code, _, err = run(capsys, "archive", "import", path, "--prefix", "elsewhere-2025")
    assert code == 2
    assert err.startswith(f"error: {path}: issuer.public_key: key ")
    assert "is not trusted here" in err
    assert not Championship.objects.filter(slug="elsewhere-2025").exists()
    public = run(capsys, "results", "key")[1].split()[2]
    assert run(capsys, "results", "trust", public, "--name", "Venue laptop")[0] == 0
    code, out, err = run(capsys, "archive", "import", path, "--prefix", "elsewhere-2025")
    assert (code, err) == (0, "")
    assert out.startswith("archived elsewhere-2025 from a package signed by a trusted key")
    archived = Championship.objects.get(slug="elsewhere-2025")
    assert archived.archived
    source = Round.objects.get(event__championship__slug=DEMO_SLUG, event__code="individual")
    copied = Round.objects.get(event__championship=archived, event__code="individual")
    assert copied.results.count() == source.results.count()
    # The people are matched by their tagged ids: a second import finds the same people.
    people = set(Person.objects.filter(entries__entry__event__championship=archived))
    assert all(p.archive_id for p in people)
    run(capsys, "archive", "import", path, "--prefix", "elsewhere-again")
    again = Championship.objects.get(slug="elsewhere-again")
    assert set(Person.objects.filter(entries__entry__event__championship=again)) == people


def test_a_provisional_package_stays_out_of_the_archive(capsys, tmp_path):
    demo_load(individuals=30, pairs=10, teams=6)
    public = run(capsys, "results", "key")[1].split()[2]
    run(capsys, "results", "trust", public, "--name", "Here")
    path = tmp_path / "teams.json"
    run(capsys, "results", "package", DEMO_SLUG, "--event", "teams", "--output", str(path))
    code, _, err = run(capsys, "archive", "import", str(path))
    assert code == 2
    assert err.startswith(f"error: {path}: list_status: provisional: only a package whose")
