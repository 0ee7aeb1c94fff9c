"""Issuing signed results packages, and the keys whose packages the archive trusts
(docs/results-package.md)."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from django.db import transaction
from django.utils import timezone

from puzzlecomp import __version__
from puzzlecomp.championships.actions import RESULTS_PACKAGE_ISSUED
from puzzlecomp.championships.models import (
    Championship,
    ImportedPackage,
    PackageResult,
    ResultsPackage,
    TrustedKey,
)
from puzzlecomp.championships.selectors.person_pages import iso_of_ioc
from puzzlecomp.championships.selectors.results_package import (
    installation_key_get,
    package_list_status,
    results_package_body,
)
from puzzlecomp.championships.services.interchange import championship_import
from puzzlecomp.championships.services.work import unit_of_work
from puzzlecomp.formats.interchange import problem
from puzzlecomp.formats.results_package.document import (
    PackageError,
    package_hash,
    package_load,
    package_results,
    package_sign,
    package_verify,
)
from puzzlecomp.formats.results_package.signing import fingerprint, public_key_bytes
from puzzlecomp.rules import limits

SOFTWARE = ("puzzlecomp", __version__)
# Statuses after which a changed package is a correction of what the federation received.
ISSUED_FINAL = ("final", "correction")


def results_package_issue(*, championship: Championship, event_code: str | None = None,
                          user: Any = None, now: dt.datetime | None = None) -> ResultsPackage:
    """The championship's (or one event's) signed results package as it stands now.

    When nothing changed since the last package of the same scope, that package is handed
    out again; otherwise a new one names the last one's hash (`replaces`), and is a
    correction once a final package went out.
    """
    body = results_package_body(championship, event_code=event_code)
    scope = event_code or ""
    latest = (ResultsPackage.objects.filter(championship=championship, event_code=scope)
              .order_by("-issued_at", "-pk").first())
    status = package_list_status(body)
    if latest is not None and latest.list_status in ISSUED_FINAL:
        status = "correction"
    # Only a correction names the package it replaces in the document; a provisional re-issue
    # is linked to the one before it in the database alone ("a later version").
    document, signed_hash = package_sign(body, key=installation_key_get(), list_status=status,
                                         replaces=latest.hash if latest and status == "correction"
                                         else None,
                                         issued_at=now or timezone.now(), software=SOFTWARE)
    if latest is not None and _same_results(json.loads(latest.content), document):
        return latest
    with unit_of_work(RESULTS_PACKAGE_ISSUED, championship=championship, user=user,
                      event=scope, list_status=status) as work:
        issued = ResultsPackage.objects.create(
            championship=championship, event_code=scope, hash=signed_hash,
            replaces=latest.hash if latest else None, list_status=status,
            issued_at=now or timezone.now(),
            # One line: the compiled encoder writes the WJPC's 2 MB ten times faster.
            content=json.dumps(document, ensure_ascii=False) + "\n")
        PackageResult.objects.bulk_create(
            (PackageResult(package=issued, code=r.code, event_code=r.event, round_code=r.round,
                           entry_number=r.entry) for r in package_results(document)),
            batch_size=1000)
        work.record(hash=issued.hash, replaces=issued.replaces)
    return issued


def _same_results(earlier: dict[str, Any], later: dict[str, Any]) -> bool:
    """Whether two packages say the same (when and as what they were issued aside)."""
    keys = ("championship", "scope", "officials", "events")
    return all(earlier.get(k) == later.get(k) for k in keys)


def trusted_key_add(*, public_key: str, name: str,
                    user: Any = None) -> tuple[TrustedKey, bool]:
    """Trust another installation's packages signed with `public_key` (base64 of its 32
    bytes) for the archive: the key and whether it is new (a key trusted already keeps its
    name); PackageError when it is no Ed25519 public key or the name is not one plain line."""
    try:
        public_key_bytes(public_key)
    except ValueError as exc:
        raise PackageError([problem("public_key", str(exc))]) from None
    name = name.strip()
    if not name:
        raise PackageError([problem("name", "name the installation the key belongs to")])
    if not limits.is_plain_line(name) or len(name) > 200:
        raise PackageError([problem("name", "one line of at most 200 characters, without "
                                    "tabs or control characters")])
    with transaction.atomic():
        key, created = TrustedKey.objects.get_or_create(
            public_key=public_key, defaults={
                "name": name, "fingerprint": fingerprint(public_key),
                "added_by": user if getattr(user, "is_authenticated", False) else None})
    return key, created


def trusted_key_remove(*, key_fingerprint: str) -> TrustedKey:
    """Stop trusting the key of `key_fingerprint` (as `results keys` prints it, with or
    without its spaces); PackageError naming it when no trusted key has it."""
    wanted = "".join(key_fingerprint.split()).lower()
    for key in TrustedKey.objects.all():
        if key.fingerprint.replace(" ", "") == wanted:
            key.delete()
            return key
    raise PackageError([problem("fingerprint", f"no trusted key has the fingerprint "
                                f"{key_fingerprint!r}; `puzzlecomp results keys` lists them")])


ARCHIVE_ISSUER = "puzzlecomp-archive"


def package_archive_import(content: str | bytes, *, slug: str | None = None,
                           user: Any = None) -> Championship:
    """Import another installation's final results package as an archived championship, its
    people matched by their tagged ids; PackageError naming the field when it does not verify,
    its key is not trusted here or it is not final, InterchangeError when the championship
    cannot be created (nothing is imported either way)."""
    document = package_verify(package_load(content))
    issuer = document["issuer"]
    if not TrustedKey.objects.filter(public_key=issuer["public_key"]).exists():
        raise PackageError([problem("issuer.public_key", (
            f"key {fingerprint(issuer['public_key'])} is not trusted here: compare its "
            "fingerprint with the issuer's, then add it with `puzzlecomp results trust "
            "PUBLIC_KEY --name NAME`"))])
    states = {r["state"] for e in document["events"] for r in e["rounds"]}
    if document["list_status"] == "provisional" or states - {"final"}:
        raise PackageError([problem("list_status", (
            f"{document['list_status']}: only a package whose every round is final goes into "
            "the archive"))])
    signed_hash = package_hash(document)
    with transaction.atomic():
        chain: list[ImportedPackage] = []
        if document["list_status"] == "correction":
            stored = _replaced_package(document)
            chain = list(ImportedPackage.objects.filter(championship=stored.championship)
                         .order_by("issued_at", "pk"))
            slug = stored.championship.slug
            # The correction replaces the archived results: the championship is imported
            # again from it, and the packages it came from stay with it (the chain).
            stored.championship.delete()
        championship = championship_import(_championship_file(document), slug=slug, user=user,
                                           operator=True)
        for earlier in chain:
            ImportedPackage.objects.create(
                championship=championship, hash=earlier.hash, replaces=earlier.replaces,
                list_status=earlier.list_status, issued_at=earlier.issued_at,
                content=earlier.content)
        ImportedPackage.objects.create(
            championship=championship, hash=signed_hash, replaces=document["replaces"],
            list_status=document["list_status"],
            issued_at=dt.datetime.fromisoformat(document["issued_at"].replace("Z", "+00:00")),
            content=content.decode() if isinstance(content, bytes) else content)
    return championship


def _replaced_package(document: dict[str, Any]) -> ImportedPackage:
    """The archived package a correction replaces; PackageError naming `replaces` when the
    archive never imported it (the chain is broken) or a correction replaced it already (a
    second one would fork the chain)."""
    replaces = document["replaces"]
    stored = (ImportedPackage.objects.select_for_update().filter(hash=replaces)
              .select_related("championship").first())
    if stored is None:
        raise PackageError([problem("replaces", (
            f"names {replaces}, a package this archive never imported: the chain of "
            "corrections is broken; import the package it replaces first"))])
    later = ImportedPackage.objects.filter(replaces=replaces).first()
    if later is not None:
        raise PackageError([problem("replaces", (
            f"names {replaces}, which the correction {later.hash} replaced already: a second "
            "correction of the same package would fork the chain"))])
    package_verify(document, previous=json.loads(stored.content))
    return stored


def _championship_file(document: dict[str, Any]) -> dict[str, Any]:
    """The package as a championship file (docs/interchange.md) of an archived championship."""
    c = document["championship"]
    # Ids tagged by an installation are believed only from a package its own key signed.
    signer = "puzzlecomp:" + fingerprint(document["issuer"]["public_key"]).replace(" ", "")
    people: dict[str, dict[str, Any]] = {}
    entries, results = [], []
    for event in document["events"]:
        for entry in event["entries"]:
            members = []
            for position, member in enumerate(m for m in entry["members"] if m["name"]):
                person = _person(people, member, signer)
                members.append({"person": person["id"], "position": position,
                                "represents": person["nationality"], "consent_publish": True})
            entries.append({"event": event["code"], "number": entry["number"],
                            "name": entry["name"], "country": entry["country"],
                            "status": "confirmed", "registered_at": c["starts_at"],
                            "members": members})
        for rnd in event["rounds"]:
            results += [{
                "event": event["code"], "round": rnd["code"], "entry": r["entry"],
                "status": r["status"], "time_seconds": r["time_seconds"],
                "pieces": r["pieces_counted"] if r["status"] == "unfinished" else None,
                "missing": r["missing"], "time_credit": r["time_credit_seconds"],
                "checked": True, "published_rank": r["rank"], "archive_group": r["group"],
                "recorded_at": rnd["published_at"] or c["starts_at"],
            } for r in rnd["results"]]
    return {
        "format": "puzzlecomp-championship", "version": 5,
        "generator": f"{document['software']['name']} {document['software']['version']}",
        "championship": {"slug": c["slug"], "name": c["name"], "ruleset_id": c["ruleset"]["id"],
                         "venue": c["venue"], "starts_at": c["starts_at"],
                         "ends_on": c["ends_on"], "time_zone": c["time_zone"],
                         "published": True, "archived": True},
        "events": [{"code": e["code"], "name": e["name"], "kind": e["kind"], "rounds": [{
            "code": r["code"], "name": r["name"], "position": r["position"],
            "time_limit_minutes": r["time_limit_minutes"], "groups": r["groups"],
            "state": "final", "published_at": r["published_at"],
            "puzzles": [{"position": p["position"], "brand": p["maker"], "pieces": p["pieces"],
                         "motif": p["motif"]} for p in r["puzzles"]],
        } for r in e["rounds"]]} for e in document["events"]],
        "people": list(people.values()), "entries": entries, "results": results,
    }


def _person(people: dict[str, dict[str, Any]], member: dict[str, Any],
            signer: str) -> dict[str, Any]:
    """The file's person of a package's member, one per tagged id: the archive's id where the
    package gives one, else the signing installation's own (as `pcFINGERPRINT-ID`); an id
    tagged with another installation's issuer is not believed (that installation did not sign
    the package), so such a member is a person new to the archive."""
    ids = {i["issuer"]: i["id"] for i in member["ids"]}
    archive_id = ids.get(ARCHIVE_ISSUER) or (
        f"pc{signer.removeprefix('puzzlecomp:')[:12]}-{ids[signer]}"[:40]
        if signer in ids else None)
    key = archive_id or f"#{len(people)}"
    if key not in people:
        first, _, last = member["name"].partition(" ")
        people[key] = {"id": len(people) + 1, "first_name": first, "last_name": last or first,
                       "nationality": iso_of_ioc(member["nationality"]) or "",
                       "consent_publish": True, "archive_id": archive_id}
    return people[key]
