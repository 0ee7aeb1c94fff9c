"""A round's ranking snapshot: what every public page, the projector and the API show.

Always the engine's ranking. Built once per live notice number and kept as JSON bytes with an
ETag, so unchanged polls cost a comparison.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder

from puzzlecomp.championships.engine import flag_of, round_rules, ruleset_of
from puzzlecomp.championships.models import (
    Championship,
    EntryMember,
    Qualifier,
    QualifierStatus,
    Result,
    Round,
    Seat,
)
from puzzlecomp.championships.selectors.planning import ranking_by_round_groups
from puzzlecomp.championships.services.rounds import dispute_window_ends, round_clock
from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.qualification import qualify_for_next_round
from puzzlecomp.rules.ranking import RankedEntry
from puzzlecomp.rules.results import Status

SNAPSHOT_VERSION = 1


@dataclass(frozen=True)
class Snapshot:
    seq: int
    etag: str
    body: bytes


_cache: OrderedDict[tuple[int, int], Snapshot] = OrderedDict()
_cache_lock = threading.Lock()
_CACHE_SIZE = 256


def current_seq(championship_id: int) -> int:
    return Championship.objects.filter(pk=championship_id).values_list("live_seq", flat=True).get()


def snapshot_etag(rnd: Round, seq: int) -> str:
    return f'"r{rnd.pk}-s{seq}"'


def round_snapshot_cached(rnd: Round, seq: int | None = None) -> Snapshot:
    """The snapshot bytes of the round at live notice `seq` (default: the current one)."""
    if seq is None:
        seq = current_seq(rnd.event.championship_id)
    key = (rnd.pk, seq)
    with _cache_lock:
        hit = _cache.get(key)
    if hit is not None:
        return hit
    data = round_snapshot(rnd, seq=seq)
    body = json.dumps(data, cls=DjangoJSONEncoder, separators=(",", ":")).encode()
    snap = Snapshot(seq, snapshot_etag(rnd, seq), body)
    with _cache_lock:
        _cache[key] = snap
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return snap


def round_snapshot(rnd: Round, *, seq: int | None = None) -> dict[str, Any]:
    """The round's live state and ranking as plain JSON values (documented in docs/live.md)."""
    event = rnd.event
    championship = event.championship
    clock = round_clock(rnd)
    rules = round_rules(rnd)
    ranking = ranking_by_round_groups(rnd)
    rows = {r.entry.number: r for r in Result.objects.filter(round=rnd).select_related("entry")}
    tables = dict(Seat.objects.filter(round=rnd, no_show=False)
                  .values_list("entry__number", "table"))
    marks = qualification_marks(rnd, ranking)
    flags = _flags(rnd)
    pieces_total = rules.total_pieces
    lines = [
        _line(line, rows[int(line.entry.id)], tables, marks, flags, pieces_total,
              rules.time_limit_seconds)
        for line in ranking
    ]
    window = dispute_window_ends(rnd)
    return {
        "version": SNAPSHOT_VERSION,
        "championship": {"slug": championship.slug, "name": championship.name},
        "seq": championship.live_seq if seq is None else seq,
        "event": {"code": event.code, "name": event.name, "kind": event.kind},
        "round": {
            "id": rnd.pk, "code": rnd.code, "name": rnd.name, "state": rnd.state,
            "groups": list(rnd.groups or []), "pieces": pieces_total,
            "official_ranking": ruleset_of(rnd).official_ranking is not None,
            "published_at": rnd.published_at, "disputes_close_at": window,
        },
        "clock": clock.as_json(),
        "seated": len(tables),
        "lines": lines,
    }


def qualification_marks(rnd: Round, ranking: list[RankedEntry]) -> dict[int, dict[str, str]]:
    """Entry number -> where it goes and why: confirmed qualifiers once the organiser has
    confirmed them, the engine's prediction before (empty for an event's last round)."""
    confirmed = Qualifier.objects.filter(from_round=rnd, status=QualifierStatus.CONFIRMED)
    if confirmed.exists():
        return {q.entry.number: {"to_group": q.to_group, "reason": q.reason, "confirmed": "1"}
                for q in confirmed.select_related("entry")}
    if not ranking:
        return {}
    try:
        qualifiers = qualify_for_next_round(ranking, round_rules(rnd))
    except RulesError:
        return {}
    return {int(q.entry.id): {"to_group": q.to_group, "reason": str(q.reason)}
            for q in qualifiers}


def _flags(rnd: Round) -> dict[int, str]:
    spec = ruleset_of(rnd).event(rnd.event.code)
    codes: dict[int, list[str]] = {}
    fallback: dict[int, str] = {}
    members = (EntryMember.objects.filter(entry__results__round=rnd)
               .values_list("entry__number", "represents", "person__nationality",
                            "entry__country"))
    for number, represents, nationality, country in members:
        codes.setdefault(number, []).append(represents or nationality)
        fallback[number] = country
    return {n: flag_of(spec, c, country=fallback[n])[0] for n, c in codes.items()}


def _line(line: RankedEntry, row: Result, tables: dict[int, int],
          marks: dict[int, dict[str, str]], flags: dict[int, str], pieces_total: int,
          limit: int) -> dict[str, Any]:
    number = int(line.entry.id)
    score = line.score
    if score.status is Status.FINISHED and score.final_time:
        ppm = pieces_total * 60 / score.final_time
    elif score.status is Status.UNFINISHED and score.pieces is not None:
        ppm = score.pieces * 60 / limit
    else:
        ppm = None
    return {
        "entry": number,
        "name": line.entry.name,
        "flag": flags.get(number) or line.entry.country,
        "group": line.entry.group,
        "table": tables.get(number),
        "rank": line.rank,
        "official_rank": line.official_rank,
        "eligible": line.eligible,
        "status": str(score.status),
        "time_seconds": row.time_seconds,
        "final_seconds": score.final_time,
        "penalty_seconds": score.penalty_seconds,
        "missing": row.missing,
        "pieces": score.pieces,
        "pieces_per_minute": round(ppm, 2) if ppm is not None else None,
        "checked": row.checked,
        "qualified": marks.get(number),
        "version": row.version,
    }
