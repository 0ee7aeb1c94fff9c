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
    PackageResult,
    ResultsPackage,
    TrustedKey,
)
from puzzlecomp.championships.selectors.results_package import (
    installation_key_get,
    package_list_status,
    results_package_body,
)
from puzzlecomp.championships.services.work import unit_of_work
from puzzlecomp.formats.interchange import problem
from puzzlecomp.formats.results_package.document import (
    PackageError,
    package_hash,
    package_results,
    package_sign,
)
from puzzlecomp.formats.results_package.signing import fingerprint, public_key_bytes

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
    document = package_sign(body, key=installation_key_get(), list_status=status,
                            replaces=latest.hash if latest else None,
                            issued_at=now or timezone.now(), software=SOFTWARE)
    if latest is not None and _same_results(json.loads(latest.content), document):
        return latest
    with unit_of_work(RESULTS_PACKAGE_ISSUED, championship=championship, user=user,
                      event=scope, list_status=status) as work:
        issued = ResultsPackage.objects.create(
            championship=championship, event_code=scope, hash=package_hash(document),
            replaces=document["replaces"], list_status=status, issued_at=now or timezone.now(),
            content=json.dumps(document, ensure_ascii=False, indent=1) + "\n")
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


def trusted_key_add(*, public_key: str, name: str, user: Any = None) -> TrustedKey:
    """Trust another installation's packages signed with `public_key` (base64 of its 32
    bytes) for the archive; PackageError when it is no Ed25519 public key."""
    try:
        public_key_bytes(public_key)
    except ValueError as exc:
        raise PackageError([problem("public_key", str(exc))]) from None
    if not name.strip():
        raise PackageError([problem("name", "name the installation the key belongs to")])
    with transaction.atomic():
        key, _ = TrustedKey.objects.update_or_create(
            public_key=public_key, defaults={"name": name.strip()[:200],
                                             "fingerprint": fingerprint(public_key),
                                             "added_by": user if getattr(
                                                 user, "is_authenticated", False) else None})
    return key
