"""Public reads: championships, rounds, clocks, ranking snapshots, entrants.

Only published championships exist here (anything else answers 404), and an entrant's data is
what the public results show: name, flag, group, tables, results and ranks; never birth dates,
email addresses or the private link token.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import asdict
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from ninja import Router, Schema

from puzzlecomp.api.devices import RulesErrorOut
from puzzlecomp.championships.engine import ioc
from puzzlecomp.championships.models import Championship, EntryMember, Event, Round, Seat
from puzzlecomp.championships.schemas import ClockOut
from puzzlecomp.championships.selectors import rounds as round_reads
from puzzlecomp.championships.selectors.publishing import (
    entry_public_name,
    groups_public,
    member_named,
    public_entries,
    tables_public,
)
from puzzlecomp.championships.selectors.rounds import (
    round_limit_seconds,
    rounds_read_now,
)
from puzzlecomp.championships.selectors.standings import EventStandings, event_standings_get
from puzzlecomp.championships.time_zones import championship_zone, local
from puzzlecomp.live.snapshot import Snapshot, round_snapshot_cached
from puzzlecomp.live.sse import server_time_ms
from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.subcategories import OVERALL

router = Router(tags=["public"])


class Error(Schema):
    detail: str


class TimeOut(Schema):
    now: int


class ChampionshipOut(Schema):
    slug: str
    name: str
    venue: str
    # The IANA time zone where it is held; every time of the championship and its rounds is
    # given in it, ISO 8601 with the offset.
    time_zone: str
    # null for an archived edition whose date no source gives (issue 30): `year` alone is known.
    starts_at: dt.datetime | None
    year: int
    ends_on: dt.date | None
    ruleset: str
    # Number of the last live notice: changes whenever anything spectators see changes.
    live_seq: int


class RoundOut(Schema):
    id: int
    code: str
    # As stored: the ruleset's English words, or the organiser's own name.
    name: str
    # The name in the language of Accept-Language (docs/public-results.md).
    display_name: str
    state: str
    # Planned start until the round runs; then the start the head judge gave.
    starts_at: dt.datetime | None
    time_limit_seconds: int | None
    groups: list[str]
    published_at: dt.datetime | None


class EventOut(Schema):
    code: str
    name: str
    display_name: str
    kind: str
    rounds: list[RoundOut]


class ChampionshipDetail(ChampionshipOut):
    events: list[EventOut]


class Qualified(Schema):
    to_group: str
    reason: str
    confirmed: str | None = None


class LineOut(Schema):
    entry: int
    name: str
    flag: str
    group: str
    table: int | None
    rank: int | None
    official_rank: int | None
    eligible: bool | None
    status: str
    time_seconds: int | None
    final_seconds: int | None
    penalty_seconds: int | None
    missing: int
    pieces: int | None
    pieces_per_minute: float | None
    checked: bool
    qualified: Qualified | None
    # While results can move: clinched, provisional or out (docs/live.md); null once confirmed.
    certainty: str | None = None
    version: int
    # "WR" or "NR" when the checked final time breaks a record (docs/archive.md, Records).
    record: str | None = None


class SnapshotChampionship(Schema):
    slug: str
    name: str
    time_zone: str


class SnapshotEvent(Schema):
    code: str
    name: str
    kind: str


class SnapshotRound(Schema):
    id: int
    code: str
    name: str
    state: str
    groups: list[str]
    # None when the round's puzzle size is unknown (an unsized archived round).
    pieces: int | None
    official_ranking: bool
    published_at: dt.datetime | None
    disputes_close_at: dt.datetime | None


class SnapshotOut(Schema):
    """A round's ranking (the engine's), as on every public page; see docs/live.md."""

    version: int
    championship: SnapshotChampionship
    seq: int
    event: SnapshotEvent
    round: SnapshotRound
    clock: ClockOut
    seated: int
    lines: list[LineOut]


class MemberOut(Schema):
    # Both empty unless the member agreed to have their name and nationality published.
    name: str
    nationality: str


class EntrantRoundOut(Schema):
    round_id: int
    round_code: str
    round_name: str
    round_display_name: str
    state: str
    group: str
    table: int | None
    # The entrant's line of the round's ranking; None while there is no result.
    result: LineOut | None


class EntrantOut(Schema):
    event: str
    number: int
    name: str
    flag: str
    group: str
    members: list[MemberOut]
    rounds: list[EntrantRoundOut]


def _published(slug: str) -> Championship:
    return get_object_or_404(Championship, slug=slug, published=True)


def _public_round(slug: str, round_id: int) -> Round:
    return get_object_or_404(Round.objects.select_related("event__championship"),
                             pk=round_id, event__championship__slug=slug,
                             event__championship__published=True)


def _championship_json(championship: Championship) -> dict[str, Any]:
    return {"slug": championship.slug, "name": championship.name, "venue": championship.venue,
            "time_zone": championship_zone(championship).key,
            "starts_at": (local(championship.starts_at, championship)
                          if championship.date_known else None),
            "year": championship.start_year,
            "ends_on": championship.ends_on,
            "ruleset": championship.ruleset_id, "live_seq": championship.live_seq}


@router.get("/time", response=TimeOut, summary="The server's clock (epoch milliseconds)")
def time_get(request: HttpRequest) -> dict[str, int]:
    return {"now": round(server_time_ms())}


@router.get("/championships", response=list[ChampionshipOut],
            summary="Published championships")
def championship_list(request: HttpRequest) -> list[dict[str, Any]]:
    return [_championship_json(c) for c in Championship.objects.filter(published=True)]


@router.get("/championships/{slug}", response={200: ChampionshipDetail, 404: Error},
            summary="A championship's events and rounds")
def championship_get(request: HttpRequest, slug: str) -> dict[str, Any]:
    championship = _published(slug)
    rounds: dict[int, list[dict[str, Any]]] = {}
    for rnd in rounds_read_now(Round.objects.filter(event__championship=championship)
                               .select_related("event__championship")
                               .prefetch_related("puzzles")):
        rounds.setdefault(rnd.event_id, []).append({
            "id": rnd.pk, "code": rnd.code, "name": rnd.name,
            "display_name": rnd.display_name, "state": rnd.state,
            "starts_at": local(rnd.starts_at, championship),
            "time_limit_seconds": round_limit_seconds(rnd),
            "groups": list(rnd.groups or []), "published_at": local(rnd.published_at,
                                                                    championship),
        })
    events = [{"code": e.code, "name": e.name, "display_name": e.display_name, "kind": e.kind,
               "rounds": rounds.get(e.pk, [])} for e in championship.events.all()]
    return {**_championship_json(championship), "events": events}


@router.get("/championships/{slug}/rounds/{round_id}/ranking",
            response={200: SnapshotOut, 304: None, 404: Error, 422: RulesErrorOut},
            summary="A round's ranking snapshot (ETag; 304 when unchanged; 422 says what the "
            "round lacks to be ranked)")
def round_ranking_get(request: HttpRequest, slug: str, round_id: int) -> HttpResponse:
    snapshot = round_snapshot_cached(_public_round(slug, round_id))
    return snapshot_response(request, snapshot)


def snapshot_response(request: HttpRequest, snapshot: Snapshot) -> HttpResponse:
    """The snapshot's bytes as they are (gzipped when accepted), or 304 for its ETag."""
    tags = {t.strip().removeprefix("W/")
            for t in request.headers.get("If-None-Match", "").split(",")}
    if snapshot.etag in tags or "*" in tags:
        response = HttpResponse(status=304)
    elif snapshot.gzipped and "gzip" in request.headers.get("Accept-Encoding", ""):
        response = HttpResponse(snapshot.gzipped, content_type="application/json")
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(snapshot.body, content_type="application/json")
    response["ETag"] = snapshot.etag
    response["Cache-Control"] = "no-cache"
    response["Vary"] = "Accept-Encoding"
    return response


@router.get("/championships/{slug}/rounds/{round_id}/clock", response={200: ClockOut, 404: Error},
            summary="A round's clock (draw it from the server's time)")
def round_clock_get(request: HttpRequest, slug: str, round_id: int,
                    group: str | None = None) -> dict[str, Any]:
    """`group`: that group's own clock (groups sharing the tables start one after another)."""
    rnd = _public_round(slug, round_id)
    zone = championship_zone(rnd.event.championship)
    if group is None:
        return round_reads.round_clock_get(rnd).as_json(zone)
    if group not in rnd.groups:
        raise Http404(f"round {round_id} has no group {group!r}")
    return round_reads.group_clock_get(rnd, group).as_json(zone)


@router.get("/championships/{slug}/entries/{event_code}/{number}",
            response={200: EntrantOut, 404: Error},
            summary="An entrant's public data: group, tables, results and ranks")
def entrant_get(request: HttpRequest, slug: str, event_code: str, number: int) -> dict[str, Any]:
    entry = get_object_or_404(public_entries(slug), event__code=event_code, number=number)
    seats = {s.round_id: s for s in Seat.objects.filter(entry=entry)}
    with_result = set(entry.results.values_list("round_id", flat=True))
    rounds = []
    flag = ""
    for rnd in entry.event.rounds.order_by("position"):
        seat = seats.get(rnd.pk)
        if seat is None and rnd.pk not in with_result:
            continue
        rnd.event = entry.event
        line = None
        if rnd.pk in with_result:
            lines = json.loads(round_snapshot_cached(rnd).body)["lines"]
            line = next((li for li in lines if li["entry"] == entry.number), None)
            flag = line["flag"] if line else flag
        # Drafts stay private until the organiser publishes them (or the round begins).
        group = line["group"] if line else (seat.group if seat else entry.group)
        rounds.append({
            "round_id": rnd.pk, "round_code": rnd.code, "round_name": rnd.name,
            "round_display_name": rnd.display_name, "state": rnd.state,
            "group": group if groups_public(rnd) else "",
            "table": seat.table if seat and not seat.no_show and tables_public(rnd) else None,
            "result": line,
        })
    first = entry.event.rounds.order_by("position").first()
    members = list(EntryMember.objects.filter(entry=entry).select_related("person"))
    return {"event": event_code, "number": entry.number,
            "name": entry_public_name(entry, members), "flag": flag or entry.country,
            "group": entry.group if first is not None and groups_public(first) else "",
            "members": [_member(m) for m in members], "rounds": rounds}


def _member(member: EntryMember) -> dict[str, str]:
    person = member.person
    if not member_named(member):
        return {"name": "", "nationality": ""}
    return {"name": f"{person.first_name} {person.last_name}",
            "nationality": ioc(member.represents) or ioc(person.nationality) or ""}


class StandingLineOut(Schema):
    entry: int
    category: str
    # Place in the category; None for disqualified or absent entrants.
    place: int | None
    overall_place: int | None
    # Place in the ruleset's official ranking (a national title); None outside it, or when the
    # ruleset has none.
    official_place: int | None
    # Empty unless every member named in it agreed to have their name published.
    name: str
    flag: str
    round: str
    group: str
    round_rank: int | None
    status: str
    final_seconds: int | None
    pieces: int | None


class AwardLineOut(Schema):
    entry: int
    category: str
    # The prize place: among the entrants eligible for the prize (for a title of the official
    # ranking, the official place).
    place: int
    overall_place: int | None
    official_place: int | None
    # The prize follows the official ranking (a national title).
    official: bool
    name: str
    flag: str
    # The prize in words: trophy, money and items.
    prize: str
    trophy: bool
    money: int | None
    currency: str | None
    items: str


class StandingsOut(Schema):
    championship: str
    event: str
    category: str
    rounds: list[str]
    # True until the prize round is final: places may change, and no prize is named.
    provisional: bool
    # The round that decides titles and prizes (wjpc-2025: the final).
    prize_round: str
    lines: list[StandingLineOut]


class AwardsOut(Schema):
    championship: str
    event: str
    category: str | None
    # True until the prize round is final; `lines` is empty until then.
    provisional: bool
    prize_round: str
    lines: list[AwardLineOut]


def _published_standings(slug: str, event_code: str) -> EventStandings:
    """The event's standings once the organiser published them (404 before, and for a ranking
    the engine refuses)."""
    event = get_object_or_404(Event.objects.select_related("championship"),
                              championship__slug=slug, championship__published=True,
                              code=event_code, standings_published_at__isnull=False)
    try:
        return event_standings_get(event=event)
    except RulesError:
        raise Http404 from None


@router.get("/championships/{slug}/events/{event_code}/standings",
            response={200: StandingsOut, 404: Error},
            summary="An event's published standings, overall or in a subcategory")
def standings_get(request: HttpRequest, slug: str, event_code: str,
                  category: str = OVERALL) -> dict[str, Any]:
    found = _published_standings(slug, event_code)
    try:
        rows = found.rows(category, public=True)
    except RulesError:
        raise Http404 from None
    return {"championship": slug, "event": event_code, "category": category,
            "rounds": list(found.rounds), "provisional": found.prizes.provisional,
            "prize_round": found.prizes.round_id,
            "lines": [{**asdict(row), "category": category} for row in rows]}


@router.get("/championships/{slug}/events/{event_code}/awards",
            response={200: AwardsOut, 404: Error},
            summary="An event's published prizes: who takes each, ineligible entrants skipped")
def awards_get(request: HttpRequest, slug: str, event_code: str,
               category: str | None = None) -> dict[str, Any]:
    found = _published_standings(slug, event_code)
    if category is not None and category not in {c.id for c in found.categories}:
        raise Http404
    try:
        rows = found.award_rows(public=True)
    except RulesError:
        raise Http404 from None
    return {"championship": slug, "event": event_code, "category": category,
            "provisional": found.prizes.provisional, "prize_round": found.prizes.round_id,
            "lines": [asdict(row) for row in rows if category in (None, row.category)]}
