"""A round's ranking snapshot: what every public page, the projector and the API show.

Always the engine's ranking. Built once per live notice number and kept as JSON bytes with an
ETag, so unchanged polls cost a comparison.
"""

from __future__ import annotations

import datetime as dt
import gzip
import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.utils import timezone

from puzzlecomp.championships.engine import NO_MEMBERS, round_ranking, round_rules
from puzzlecomp.championships.models import (
    Championship,
    Entry,
    EntryStatus,
    QualifierStatus,
    Round,
    RoundState,
    Seat,
)
from puzzlecomp.championships.selectors.publishing import public_name, withheld_by_number
from puzzlecomp.championships.selectors.rankings import round_record_marks
from puzzlecomp.championships.selectors.rounds import (
    dispute_window_ends,
    group_starts_get,
    round_clock_get,
    round_limit_seconds,
)
from puzzlecomp.championships.services.qualifiers import (
    round_qualification_certainty,
    round_qualification_marks,
)
from puzzlecomp.championships.time_zones import championship_zone, local
from puzzlecomp.rules.clinching import Certainty
from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.flags import entry_flag
from puzzlecomp.rules.ranking import RankedEntry
from puzzlecomp.rules.results import Status
from puzzlecomp.rules.round_life import group_clock_at, state_at
from puzzlecomp.rules.rounds import RoundRules
from puzzlecomp.rules.ruleset import Event as EventSpec

SNAPSHOT_VERSION = 1


@dataclass(frozen=True)
class Snapshot:
    seq: int
    etag: str
    body: bytes
    # The body gzipped once, for every spectator whose browser accepts it (JSON shrinks ~10x).
    gzipped: bytes = b""


# (championship id, its creation instant, round id, seq): the instant tells apart two databases
# that reuse ids and numbers (tests, a restored backup), so a process never serves a stale body.
SnapshotKey = tuple[int, float, int, int]

_cache: OrderedDict[SnapshotKey, Snapshot] = OrderedDict()
_cache_lock = threading.Lock()
_building: dict[SnapshotKey, threading.Lock] = {}
_CACHE_SIZE = 256


def current_seq(championship_id: int) -> int:
    return Championship.objects.filter(pk=championship_id).values_list("live_seq", flat=True).get()


def snapshot_etag(rnd: Round, seq: int) -> str:
    return etag_of(rnd.pk, seq)


def etag_of(round_id: int, seq: int) -> str:
    return f'"r{round_id}-s{seq}"'


def snapshot_key(championship_id: int, created_at: dt.datetime, round_id: int,
                 seq: int) -> SnapshotKey:
    return (championship_id, created_at.timestamp(), round_id, seq)


def snapshot_cache_get(key: SnapshotKey) -> Snapshot | None:
    with _cache_lock:
        return _cache.get(key)


def snapshot_cache_clear() -> None:
    """Forget every built snapshot (tests that reuse ids in a fresh database)."""
    with _cache_lock:
        _cache.clear()


def round_snapshot_cached(rnd: Round, seq: int | None = None) -> Snapshot:
    """The snapshot bytes of the round at live notice `seq` (default: the current one).

    Built once per number: concurrent callers of the same number wait for one build.
    """
    championship = rnd.event.championship
    if seq is None:
        seq = current_seq(championship.pk)
    if _counting_unwritten(rnd):
        # Past its limit before the pump wrote the move: the state is new at this number, so
        # the snapshot is built apart (the pump's notice, within a second, makes a new one).
        snap = snapshot_build(rnd, seq)
        return Snapshot(seq, snap.etag.removesuffix('"') + '-counting"', snap.body,
                        snap.gzipped)
    key = snapshot_key(championship.pk, championship.created_at, rnd.pk, seq)
    hit = snapshot_cache_get(key)
    if hit is not None:
        return hit
    with _cache_lock:
        building = _building.setdefault(key, threading.Lock())
    with building:
        hit = snapshot_cache_get(key)
        if hit is None:
            hit = _build(rnd, seq, key)
    with _cache_lock:
        _building.pop(key, None)
    return hit


def _counting_unwritten(rnd: Round) -> bool:
    """Whether the round is stored as running but reads as counting (its limit has passed)."""
    if rnd.state != RoundState.RUNNING:
        return False
    return state_at(rnd.state, started_at=rnd.starts_at, limit_seconds=round_limit_seconds(rnd),
                    now=timezone.now()) == RoundState.COUNTING


def snapshot_build(rnd: Round, seq: int) -> Snapshot:
    """The round's snapshot at `seq` built afresh (not cached): JSON bytes and gzipped."""
    data = round_snapshot(rnd, seq=seq)
    body = json.dumps(data, cls=DjangoJSONEncoder, separators=(",", ":")).encode()
    return Snapshot(seq, etag_of(rnd.pk, seq), body,
                    gzip.compress(body, compresslevel=6, mtime=0))


def _build(rnd: Round, seq: int, key: SnapshotKey) -> Snapshot:
    snap = snapshot_build(rnd, seq)
    with _cache_lock:
        _cache[key] = snap
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return snap


def round_snapshot(rnd: Round, *, seq: int | None = None) -> dict[str, Any]:
    """The round's live state and ranking as plain JSON values (documented in docs/live.md)."""
    event = rnd.event
    championship = event.championship
    rules = round_rules(rnd)
    clock = round_clock_get(rnd, rules=rules)
    starts = group_starts_get(rnd)
    # One read of the results for both the engine and the lines.
    ranked = round_ranking(rnd, rules=rules)
    ranking, rows = ranked.lines, ranked.rows
    tables = dict(Seat.objects.filter(round=rnd, no_show=False)
                  .values_list("entry__number", "table"))
    marks = qualification_marks(rnd, ranking, rules=rules)
    try:
        certainty = round_qualification_certainty(rnd, ranked)
    except RulesError:  # the engine cannot say yet who goes on
        certainty = {}
    spec = rules.ruleset.event(event.code)
    # An unsized archived round (docs/archive.md): no size, so no pace of a finish either.
    pieces_total = rules.total_pieces if rules.sizes_known else 0
    withheld = withheld_by_number(event_id=event.pk)
    # Withdrawn after the round began: the line stays as history, marked.
    cancelled = set(Entry.objects.filter(event=event, status=EntryStatus.CANCELLED)
                    .values_list("number", flat=True))
    lines = [
        _line(line, rows[int(line.entry.id)], tables, marks, certainty, _flag(line, spec),
              pieces_total,
              rules.time_limit_seconds,
              public_name(line.entry.name, withheld.get(int(line.entry.id), ())))
        for line in ranking
    ]
    # An archived round's lines broke nothing now (its fastest may still stand).
    records = {} if championship.archived else round_record_marks(
        round_id=rnd.pk, event_code=event.code, pieces=pieces_total, lines=lines)
    for line_json in lines:
        line_json["record"] = records.get(line_json["entry"])
        if line_json["entry"] in cancelled:
            line_json["withdrawn"] = True
    window = dispute_window_ends(rnd)
    zone = championship_zone(championship)
    return {
        "version": SNAPSHOT_VERSION,
        "championship": {"slug": championship.slug, "name": championship.name,
                         "time_zone": championship_zone(championship).key},
        "seq": championship.live_seq if seq is None else seq,
        "event": {"code": event.code, "name": event.name, "kind": event.kind},
        "round": {
            "id": rnd.pk, "code": rnd.code, "name": rnd.name, "state": rnd.state,
            "groups": list(rnd.groups or []),
            # Unknown for an unsized round: null, not 0 pieces.
            "pieces": pieces_total or None,
            "official_ranking": rules.ruleset.official_ranking is not None,
            # In the championship's local time, ISO 8601 with its offset.
            "published_at": local(rnd.published_at, championship),
            "disputes_close_at": local(window, championship),
        },
        # The clocks' times too in the championship's local time, with its offset.
        "clock": clock.as_json(zone),
        # Groups sharing the tables, each started by the head judge: a clock each.
        "group_clocks": {s.group: group_clock_at(s, state=clock.state,
                                                 limit_seconds=clock.limit_seconds,
                                                 now=clock.server_now,
                                                 stopped_at=rnd.assembly_stopped_at).as_json(zone)
                         for s in starts} if any(s.started_at for s in starts) else {},
        "seated": len(tables),
        "lines": lines,
    }


def qualification_marks(rnd: Round, ranking: list[RankedEntry], *,
                        rules: RoundRules | None = None) -> dict[int, dict[str, str]]:
    """Entry number -> where it goes and why, as the downloads mark it
    (`services.qualifiers.round_qualification_marks`): the organiser's confirmed qualifiers
    once confirmed (withdrawn ones are no longer going), the engine's prediction before."""
    try:
        marks = round_qualification_marks(rnd, ranking, rules=rules)
    except RulesError:  # the engine cannot say yet who goes on
        return {}
    return {number: {"to_group": mark.to_group, "reason": mark.reason,
                     **({"confirmed": "1"} if mark.status == QualifierStatus.CONFIRMED else {})}
            for number, mark in marks.items() if mark.status != QualifierStatus.WITHDRAWN}


def _flag(line: RankedEntry, spec: EventSpec) -> str:
    """The flag of a line: the engine's, from the members' nationalities (the one they
    represent, else their own); an entry without members shows its country."""
    if line.entry.members is NO_MEMBERS:
        return line.entry.country
    return entry_flag(line.entry, spec) or line.entry.country


def _line(line: RankedEntry, row: dict[str, Any], tables: dict[int, int],
          marks: dict[int, dict[str, str]], certainty: dict[int, Certainty], flag: str,
          pieces_total: int,
          limit: int, name: str) -> dict[str, Any]:
    number = int(line.entry.id)
    score = line.score
    if score.status is Status.FINISHED and score.final_time and pieces_total:
        ppm = pieces_total * 60 / score.final_time
    elif score.status is Status.UNFINISHED and score.pieces is not None:
        ppm = score.pieces * 60 / limit
    else:
        ppm = None
    return {
        "entry": number,
        # "" when it names a member who did not consent to publication (pages say so).
        "name": name,
        "flag": flag,
        "group": line.entry.group,
        "table": tables.get(number),
        "rank": line.rank,
        "official_rank": line.official_rank,
        "eligible": line.eligible,
        "status": str(score.status),
        "time_seconds": row["time_seconds"],
        "final_seconds": score.final_time,
        "penalty_seconds": score.penalty_seconds,
        "missing": row["missing"],
        "pieces": score.pieces,
        "pieces_per_minute": round(ppm, 2) if ppm is not None else None,
        "checked": row["checked"],
        "qualified": marks.get(number),
        # While results can move: clinched (certain), provisional (expected) or out.
        "certainty": str(certainty[number]) if number in certainty else None,
        "version": row["version"],
    }
