"""`puzzlecomp results package|verify|key|trust` (issue 29): the package on standard output or
in a file; verify names the file and field of every problem, exit status 2."""

from __future__ import annotations

import json
from pathlib import Path

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
    # Only a correction names the package it replaces (review finding 11).
    assert "replaces" not in out
    Result.objects.filter(round__event__championship__slug=DEMO_SLUG,
                          round__event__code="teams", status="finished").update(missing=3)
    correction = tmp_path / "correction.json"
    assert run(capsys, "results", "package", DEMO_SLUG, "--event", "teams", "--output",
               str(correction))[0] == 0
    code, out, err = run(capsys, "results", "verify", str(later), str(correction))
    assert (code, err) == (0, "")
    assert "replaces sha256:" in out.splitlines()[1]
    code, out, err = run(capsys, "results", "verify", str(first), str(correction))
    assert code == 2
    assert err.startswith(f"error: {correction}: replaces: names sha256:")

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


def test_verify_prints_the_fingerprint_of_the_key_not_the_one_written(capsys, tmp_path):
    # Review finding 1: a forger's key with this installation's fingerprint copied in.
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from puzzlecomp.formats.results_package.document import _signed_bytes
    from puzzlecomp.formats.results_package.signing import public_key_text, sign

    demo_load(individuals=12, pairs=4, teams=4)
    document = json.loads(run(capsys, "results", "package", DEMO_SLUG, "--event", "teams")[1])
    stated = document["issuer"]["fingerprint"]
    forger = Ed25519PrivateKey.generate()
    document["issuer"]["public_key"] = public_key_text(forger)
    del document["signature"]
    document["signature"] = {"algorithm": "Ed25519",
                             "value": sign(forger, _signed_bytes(document))}
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    code, out, err = run(capsys, "results", "verify", str(path))
    assert (code, out) == (2, "")
    assert err.startswith(f"error: {path}: issuer.fingerprint: says '{stated}', but the key's")


def test_trust_twice_says_so_and_keys_lists_and_untrust_removes(capsys):
    # Review finding 10.
    public = run(capsys, "results", "key")[1].split()[2]
    assert run(capsys, "results", "trust", public, "--name", "WJPF server")[0] == 0
    code, out, _ = run(capsys, "results", "trust", public, "--name", "Other name")
    assert code == 0
    assert out.startswith("already trusted, as WJPF server: ")
    assert TrustedKey.objects.get().name == "WJPF server"
    code, _, err = run(capsys, "results", "trust", public, "--name", "two\nlines")
    assert (code, err[:13]) == (2, "error: name: ")
    fingerprint = TrustedKey.objects.get().fingerprint
    code, out, _ = run(capsys, "results", "keys")
    assert (code, out) == (0, f"{fingerprint}  WJPF server  {public}\n")
    assert run(capsys, "results", "untrust", "0000")[0] == 2
    code, out, _ = run(capsys, "results", "untrust", *fingerprint.split())
    assert (code, out) == (0, f"no longer trusted: WJPF server ({fingerprint})\n")
    assert not TrustedKey.objects.exists()
    assert run(capsys, "results", "keys")[1].startswith("no trusted keys")


def test_ids_tagged_by_another_installation_are_not_believed(capsys, tmp_path):
    # Review finding 7: a package signed by key B carrying ids tagged with installation A's
    # issuer must not reach A's people through them.
    from puzzlecomp.championships.services.results_package import _championship_file

    path = final_individual_package(capsys, tmp_path)
    document = json.loads(Path(path).read_text(encoding="utf-8"))
    members = [m for e in document["events"] for n in e["entries"] for m in n["members"]]
    for member in members:
        member["ids"] = [i for i in member["ids"] if i["issuer"] != "puzzlecomp-archive"]
    # The signer's own ids are believed...
    assert any((p["archive_id"] or "").startswith("pc")
               for p in _championship_file(document)["people"])
    # ... another installation's are not.
    other = "puzzlecomp:" + "ab" * 16
    for member in members:
        member["ids"] = [{"issuer": other, "id": i["id"]} for i in member["ids"]]
    assert all(p["archive_id"] is None for p in _championship_file(document)["people"])


def test_serve_points_site_url_at_the_port_it_serves(monkeypatch):
    # Review finding 8: without SITE_URL, links and QR codes went to port 8000.
    import os

    from puzzlecomp.cli import serve

    class Started(Exception):
        pass

    def stop() -> None:
        raise Started(os.environ.get("SITE_URL"))

    monkeypatch.delenv("SITE_URL", raising=False)
    monkeypatch.setattr(serve, "setup_django", stop)
    monkeypatch.setattr(serve, "raise_open_files_limit", lambda: None)
    with pytest.raises(Started) as started:
        main(["serve", "--demo", "--port", "8123"])
    assert started.value.args == ("http://127.0.0.1:8123",)
    monkeypatch.setenv("SITE_URL", "https://results.example")
    with pytest.raises(Started) as started:
        main(["serve", "--port", "8123", "--host", "0.0.0.0"])
    assert started.value.args == ("https://results.example",)
    assert serve.site_url_of(scheme="http", host="::", port=9) == "http://[::1]:9"


def test_the_archive_takes_a_correction_of_the_package_it_holds_and_refuses_a_broken_chain(
        capsys, tmp_path):
    # Review finding 6: a correction replaces the archived results when its `replaces` is the
    # hash of the archived package; an unknown `replaces` or a second correction is refused.
    from puzzlecomp.championships.models import ImportedPackage
    from puzzlecomp.championships.selectors.results_package import installation_key_get
    from puzzlecomp.formats.results_package.document import _signed_bytes
    from puzzlecomp.formats.results_package.signing import sign

    final = final_individual_package(capsys, tmp_path)
    public = run(capsys, "results", "key")[1].split()[2]
    run(capsys, "results", "trust", public, "--name", "Venue laptop")
    assert run(capsys, "archive", "import", final, "--prefix", "elsewhere-2025")[0] == 0
    first = Round.objects.get(event__championship__slug=DEMO_SLUG, event__code="individual")
    fastest = first.results.filter(status="finished").order_by("time_seconds", "pk").first()
    corrections = []
    for seconds in (fastest.time_seconds + 1, fastest.time_seconds + 2):
        Result.objects.filter(pk=fastest.pk).update(time_seconds=seconds)
        path = tmp_path / f"correction-{seconds}.json"
        run(capsys, "results", "package", DEMO_SLUG, "--event", "individual", "--output",
            str(path))
        corrections.append(path)
    first_fix, second_fix = corrections
    assert json.loads(first_fix.read_text())["list_status"] == "correction"

    code, _, err = run(capsys, "archive", "import", str(second_fix))
    assert code == 2
    assert err.startswith(f"error: {second_fix}: replaces: names sha256:")
    assert "the chain of corrections is broken" in err

    code, _out, err = run(capsys, "archive", "import", str(first_fix))
    assert (code, err) == (0, "")
    archived = Championship.objects.get(slug="elsewhere-2025")
    copied = Result.objects.get(round__event__championship=archived, round__code="first",
                                entry__number=fastest.entry.number)
    assert copied.time_seconds == fastest.time_seconds + 1
    chain = list(ImportedPackage.objects.filter(championship=archived))
    assert [p.list_status for p in chain] == ["final", "correction"]
    assert chain[1].replaces == chain[0].hash

    fork = json.loads(first_fix.read_text())
    fork["issued_at"] = "2030-01-01T00:00:00Z"
    del fork["signature"]
    fork["signature"] = {"algorithm": "Ed25519",
                         "value": sign(installation_key_get(), _signed_bytes(fork))}
    forked = tmp_path / "fork.json"
    forked.write_text(json.dumps(fork), encoding="utf-8")
    code, _, err = run(capsys, "archive", "import", str(forked))
    assert code == 2
    assert "would fork the chain" in err
    code, _, err = run(capsys, "archive", "import", str(second_fix))
    assert (code, err) == (0, "")
