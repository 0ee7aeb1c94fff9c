"""A championship read into the results package's plain data, and the installation's key
(docs/results-package.md). Public facts only: no birth dates, emails or addresses; a member
who did not consent to publication is named by nothing, not even an id."""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import json
from dataclasses import dataclass
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.conf import settings
from django.db.models import BooleanField, ExpressionWrapper, F
from django.utils import timezone, translation

from puzzlecomp.championships.engine import ioc_of_code, round_ranking, round_rules
from puzzlecomp.championships.models import (
    Championship,
    EntryMember,
    EntryStatus,
    Event,
    JudgeDevice,
    Membership,
    PackageResult,
    Qualifier,
    QualifierStatus,
    Result,
    ResultsPackage,
    Role,
    Round,
    RoundState,
    Seat,
)
from puzzlecomp.championships.selectors.publishing import (
    NAMED,
    public_name,
    withheld_by_number,
)
from puzzlecomp.championships.selectors.rounds import dispute_window_ends
from puzzlecomp.championships.selectors.standings import event_standings_get
from puzzlecomp.championships.time_zones import championship_zone
from puzzlecomp.formats.results_package.document import (
    PackageError,
    PublishedResult,
    package_hash,
    package_load,
    package_results,
    package_verify,
    result_code,
)
from puzzlecomp.formats.results_package.signing import (
    fingerprint,
    public_key_text,
    signing_key_get,
)
from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.loading import load_ruleset

# Rounds whose results the package carries: shown to the public as results, not as a clock.
WITH_RESULTS = (RoundState.PROVISIONAL, RoundState.PUBLISHED, RoundState.FINAL)
FUNCTIONS = {Role.OWNER: "organiser", Role.ORGANISER: "organiser",
             Role.HEAD_JUDGE: "head_judge", Role.JUDGE: "judge"}


def installation_key_get() -> Ed25519PrivateKey:
    """The installation's signing key (settings.RESULTS_KEY_FILE), made at first use."""
    return signing_key_get(settings.RESULTS_KEY_FILE)


def installation_public_key() -> tuple[str, str]:
    """(public key, fingerprint) of this installation, as the championship page shows them."""
    public = public_key_text(installation_key_get())
    return public, fingerprint(public)


def person_issuer() -> str:
    """The issuer of this installation's person ids (its key's fingerprint, without spaces)."""
    return "puzzlecomp:" + installation_public_key()[1].replace(" ", "")


def results_package_body(championship: Championship, *,
                         event_code: str | None = None) -> dict[str, Any]:
    """The package's body (championship, scope, officials, events with their entries,
    rounds, results, standings and awards) as plain JSON values, unsigned."""
    ruleset = ruleset_of_championship(championship)
    events = championship.events.order_by("position", "pk")
    if event_code is not None:
        events = events.filter(code=event_code)
    issuer = person_issuer()
    with translation.override("en"):
        return {
            "championship": {
                "slug": championship.slug, "name": championship.name,
                "venue": championship.venue, "starts_at": _utc(championship.starts_at),
                "ends_on": championship.ends_on.isoformat() if championship.ends_on else None,
                "time_zone": championship_zone(championship).key,
                "ruleset": ruleset},
            "scope": {"event": event_code},
            "officials": _officials(championship),
            "events": [_event(event, issuer) for event in events],
        }


def ruleset_of_championship(championship: Championship) -> dict[str, str]:
    """The ruleset by id, name, rulebook and a digest of its data (its version)."""
    ruleset = load_ruleset(championship.ruleset_id)
    digest = hashlib.sha256(ruleset.model_dump_json().encode()).hexdigest()
    return {"id": ruleset.id, "name": str(ruleset.name), "rulebook": ruleset.rulebook,
            "digest": f"sha256:{digest}"}


def package_list_status(body: dict[str, Any]) -> str:
    """Final once every round of the package is final, provisional before."""
    rounds = [r for e in body["events"] for r in e["rounds"]]
    return "final" if rounds and all(r["state"] == RoundState.FINAL for r in rounds) \
        else "provisional"


def _utc(at: dt.datetime | None) -> str | None:
    return at.astimezone(dt.UTC).isoformat().replace("+00:00", "Z") if at else None


def _officials(championship: Championship) -> list[dict[str, Any]]:
    people = [{"function": FUNCTIONS[Role(m.role)],
               "name": m.user.get_full_name() or m.user.get_username(), "tables": None}
              for m in Membership.objects.filter(championship=championship,
                                                 role__in=list(FUNCTIONS))
              .select_related("user").order_by("role", "user__username")]
    devices = [{"function": "judge", "name": d.label, "tables": [d.table_from, d.table_to]}
               for d in JudgeDevice.objects.filter(championship=championship,
                                                   revoked_at__isnull=True)
               .order_by("table_from", "pk")]
    return people + devices


def _event(event: Event, issuer: str) -> dict[str, Any]:
    rounds = list(event.rounds.order_by("position", "pk"))
    withheld = withheld_by_number(event_id=event.pk)
    outside: set[int] = set()
    shown = [_round(rnd, event, outside) for rnd in rounds]
    with_results = {r["entry"] for rnd in shown for r in rnd["results"]}
    return {"code": event.code, "name": event.name, "kind": event.kind,
            "entries": _entries(event, with_results, withheld, outside, issuer),
            "rounds": shown, **_standings(event)}


def _round(rnd: Round, event: Event, outside: set[int]) -> dict[str, Any]:
    rnd.event = event
    shown = rnd.state in WITH_RESULTS
    tables = dict(Seat.objects.filter(round=rnd, no_show=False)
                  .values_list("entry__number", "table"))
    return {
        "code": rnd.code, "name": rnd.name, "position": rnd.position, "state": rnd.state,
        "time_limit_minutes": rnd.time_limit_minutes, "groups": list(rnd.groups or []),
        "tables": len(tables), "published_at": _utc(rnd.published_at),
        "puzzles": [{"position": p.position, "pieces": p.pieces, "maker": p.brand,
                     # The motif stays hidden until the round starts.
                     "motif": p.motif if rnd.state != RoundState.PLANNED else ""}
                    for p in rnd.puzzles.order_by("position", "pk")],
        "results": _results(rnd, tables, outside) if shown else [],
    }


def _results(rnd: Round, tables: dict[int, int], outside: set[int]) -> list[dict[str, Any]]:
    try:
        ranked = round_ranking(rnd, rules=round_rules(rnd))
    except RulesError:  # rules incomplete: nothing the package can rank
        return []
    recorded = dict(Result.objects.filter(round=rnd).values_list("entry__number",
                                                                 "recorded_at"))
    qualified = {q.entry.number: q for q in Qualifier.objects.filter(
        from_round=rnd, status=QualifierStatus.CONFIRMED).select_related("entry")}
    window = dispute_window_ends(rnd)
    settled = rnd.state == RoundState.FINAL or (
        rnd.state == RoundState.PUBLISHED and window is not None and window <= timezone.now())
    lines = []
    for line in ranked.lines:
        number = int(line.entry.id)
        row, score = ranked.rows[number], line.score
        if line.eligible is False:
            outside.add(number)
        corrected = (row["version"] > 1 and rnd.published_at is not None
                     and recorded[number] > rnd.published_at)
        q = qualified.get(number)
        lines.append({
            "entry": number, "group": line.entry.group, "table": tables.get(number),
            "status": str(score.status), "not_competing": line.eligible is False,
            "validation": ("corrected" if corrected else "validated" if settled
                           else "checked" if row["checked"] else "recorded"),
            "time_seconds": row["time_seconds"], "penalty_seconds": score.penalty_seconds,
            "final_seconds": score.final_time, "missing": row["missing"],
            "pieces_counted": score.pieces, "time_credit_seconds": row["time_credit"],
            "rank": line.rank, "official_rank": line.official_rank,
            "qualified": {"to_group": q.to_group, "reason": q.reason, "confirmed": True}
            if q else None,
        })
    return lines


def _entries(event: Event, with_results: set[int], withheld: dict[int, Any],
             outside: set[int], issuer: str) -> list[dict[str, Any]]:
    members: dict[int, list[dict[str, Any]]] = {}
    # Plain values: model instances of 2,300 members and their people cost a second.
    for m in (EntryMember.objects.filter(entry__event=event)
              .order_by("entry__number", "position", "pk")
              .annotate(named=ExpressionWrapper(NAMED, output_field=BooleanField()))
              .values("named", "represents", number=F("entry__number"),
                      person_key=F("person_id"), first=F("person__first_name"),
                      last=F("person__last_name"), nationality=F("person__nationality"),
                      archive_id=F("person__archive_id"))):
        members.setdefault(m["number"], []).append(_member(m, issuer))
    entries = event.entries.filter(status=EntryStatus.CONFIRMED) | event.entries.filter(
        number__in=with_results)
    return [{"number": e.number, "name": public_name(e.name, withheld.get(e.number, ())),
             "country": e.country, "not_competing": e.number in outside,
             "members": members.get(e.number, [])}
            for e in entries.distinct().order_by("number")]


def _member(member: dict[str, Any], issuer: str) -> dict[str, Any]:
    """A member as the public may read it (selectors.publishing.NAMED): named, with their
    tagged ids, or nothing."""
    if not member["named"]:
        return {"name": "", "nationality": "", "ids": []}
    ids = [{"issuer": issuer, "id": str(member["person_key"])}]
    if member["archive_id"]:
        ids.append({"issuer": "puzzlecomp-archive", "id": member["archive_id"]})
    return {"name": f"{member['first']} {member['last']}",
            "nationality": ioc_of_code(member["represents"])
            or ioc_of_code(member["nationality"]) or "",
            "ids": ids}


def _standings(event: Event) -> dict[str, Any]:
    """The event's standings and awards per category, once the organiser published them."""
    published = event.standings_published_at is not None
    if not published:
        return {"standings_published": False, "standings": [], "awards": []}
    try:
        found = event_standings_get(event=event)
        standings = [{"id": c.id, "name": str(c.name), "lines": [
            {"entry": row.entry, "place": row.place, "overall_place": row.overall_place,
             "official_place": row.official_place, "round": row.round, "status": row.status,
             "final_seconds": row.final_seconds, "pieces": row.pieces}
            for row in found.rows(c.id, public=True)]} for c in found.categories]
        awards = [] if found.prizes.provisional else [
            {"category": a.category, "place": a.place, "entry": a.entry,
             "official": a.official, "prize": str(a.prize)}
            for a in found.award_rows(public=True)]
    except RulesError:
        return {"standings_published": True, "standings": [], "awards": []}
    return {"standings_published": True, "standings": standings, "awards": awards}


@dataclass(frozen=True)
class PackageStanding:
    """What this installation says of a package or a certificate's result: `valid` (it
    stands), `replaced` (a later correction replaced it), `not_from_here` (not issued by this
    installation) or `invalid` (it does not verify), with the problems or the later hash."""

    state: str
    package: ResultsPackage | None = None
    later: ResultsPackage | None = None
    result: PublishedResult | None = None
    problems: tuple[str, ...] = ()
    # Names of what the result belongs to, as the package gives them.
    names: dict[str, str] | None = None


def package_standing(content: str | bytes) -> PackageStanding:
    """Whether an uploaded package verifies, was issued here and still stands."""
    try:
        document = package_verify(package_load(content))
    except PackageError as exc:
        return PackageStanding("invalid", problems=tuple(map(str, exc.problems)))
    issued = ResultsPackage.objects.filter(hash=package_hash(document)).first()
    if issued is None or document["issuer"]["public_key"] != installation_public_key()[0]:
        return PackageStanding("not_from_here")
    return _standing(issued)


def _standing(issued: ResultsPackage, result: PublishedResult | None = None) -> PackageStanding:
    later = ResultsPackage.objects.filter(replaces=issued.hash).first()
    if later is None:
        if result is not None and not _stands_now(issued, result):
            # Corrected since the package: no later package yet, the result changed all
            # the same (review finding 5).
            return PackageStanding("replaced", issued, None, result)
        return PackageStanding("valid", issued, result=result)
    head = later
    while (following := ResultsPackage.objects.filter(replaces=head.hash).first()) is not None:
        head = following
    if result is not None and head.results.filter(code=result.code).exists():
        if not _stands_now(issued, result):
            return PackageStanding("replaced", issued, None, result)
        # The result reads the same in the latest correction: it still stands.
        return PackageStanding("valid", issued, head, result)
    return PackageStanding("replaced", issued, head, result)


def _stands_now(issued: ResultsPackage, result: PublishedResult) -> bool:
    """Whether the result reads now as the package published it: its round's results as they
    stand, coded as a package would code them (its validation aside)."""
    rnd = (Round.objects.filter(event__championship_id=issued.championship_id,
                                event__code=result.event, code=result.round)
           .select_related("event").first())
    if rnd is None or rnd.state not in WITH_RESULTS:
        return False
    tables = dict(Seat.objects.filter(round=rnd, no_show=False)
                  .values_list("entry__number", "table"))
    with translation.override("en"):
        lines = _results(rnd, tables, set())
    slug = issued.championship.slug
    return any(line["entry"] == result.entry
               and result_code(slug, result.event, result.round, line) == result.code
               for line in lines)


CODE_SHOWN = 20


def result_code_standing(code: str) -> PackageStanding:
    """A certificate's code (its first CODE_SHOWN hexadecimal digits at least, spaces and
    dashes aside): the result as published and whether it still stands."""
    code = "".join(c for c in code.lower() if c not in " -")
    if len(code) < CODE_SHOWN or any(c not in "0123456789abcdef" for c in code):
        return PackageStanding("not_from_here")
    found = (PackageResult.objects.filter(code__startswith=code).select_related("package")
             .order_by("-package__issued_at", "-pk").first())
    if found is None:
        return PackageStanding("not_from_here")
    document = json.loads(found.package.content)
    result = next(r for r in package_results(document) if r.code == found.code)
    return dataclasses.replace(_standing(found.package, result),
                               names=_names(document, result))


def _names(document: dict[str, Any], result: PublishedResult) -> dict[str, str]:
    event = next(e for e in document["events"] if e["code"] == result.event)
    rnd = next(r for r in event["rounds"] if r["code"] == result.round)
    entry = next((e for e in event["entries"] if e["number"] == result.entry), None)
    return {"championship": document["championship"]["name"], "event": event["name"],
            "round": rnd["name"], "entry": entry["name"] if entry else "",
            "country": entry["country"] if entry else "",
            "list_status": document["list_status"], "issued_at": document["issued_at"]}


def certificate_code(code: str) -> str:
    """A result's code as a certificate prints it: its first digits in groups of four."""
    return " ".join(code[i:i + 4] for i in range(0, CODE_SHOWN, 4))


def certificate_codes(package: ResultsPackage, round_code: str) -> dict[int, str]:
    """Entry number -> the code of its result in `round_code` of the package."""
    return dict(package.results.filter(round_code=round_code)
                .values_list("entry_number", "code"))
