"""What a judge's phone shows: its section's tables in the live rounds, with each entry's result.

A read (it writes nothing), kept beside the services whose device sections and puzzle stages it
shows (and selectors never import services).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.db.models import Q
from django.utils import timezone

from puzzlecomp.championships.engine import round_rules
from puzzlecomp.championships.models import EntryStatus, JudgeDevice, Result, Round, Seat
from puzzlecomp.championships.selectors.rounds import round_clock_get
from puzzlecomp.championships.services.devices import section_of
from puzzlecomp.championships.services.recording import LIVE_STATES
from puzzlecomp.rules.missing_pieces import missing_breakdown
from puzzlecomp.rules.puzzle_order import opening_stages


@dataclass(frozen=True)
class SeatedEntry:
    number: int
    name: str
    country: str
    group: str
    seat: int
    no_show: bool
    result: Result | None

    @property
    def version(self) -> int:
        """The result's version, 0 before the first write (what the phone writes on)."""
        return self.result.version if self.result else 0


@dataclass(frozen=True)
class TableEntries:
    table: int
    entries: tuple[SeatedEntry, ...]


@dataclass(frozen=True)
class LiveRound:
    """A running, counting or provisional round as the device sees it."""

    id: int
    code: str
    name: str
    event: str
    state: str
    clock: dict[str, Any]
    time_limit_seconds: int
    puzzle_sizes: tuple[int, ...]
    # Puzzle numbers (from 1) opened together; the first group is open from the start.
    stages: tuple[tuple[int, ...], ...]
    # pieces: the judge counts placed pieces; remaining: the pieces left, in piles of 10.
    counting_record: str
    # What the judge counts of the missing pieces besides their number (rules.missing_pieces).
    missing_breakdown: tuple[str, ...]
    wrong_piece_means_unfinished: bool
    groups: tuple[str, ...]
    tables: tuple[TableEntries, ...]


@dataclass(frozen=True)
class DeviceOverview:
    device: JudgeDevice
    rounds: tuple[LiveRound, ...]
    server_now: dt.datetime


def device_overview(device: JudgeDevice, *, now: dt.datetime | None = None) -> DeviceOverview:
    """The device's tables in every live round of its championship, with results and clocks."""
    now = now or timezone.now()
    candidates = (Round.objects.filter(event__championship=device.championship,
                                       state__in=LIVE_STATES)
                  .select_related("event__championship").prefetch_related("puzzles")
                  .order_by("event__position", "position"))
    rounds = []
    for rnd in candidates:
        clock = round_clock_get(rnd, now=now).as_json()
        rounds.append(_live_round(device, rnd, clock))
    return DeviceOverview(device=device, rounds=tuple(rounds), server_now=now)


def _live_round(device: JudgeDevice, rnd: Round, clock: dict[str, Any]) -> LiveRound:
    rules = round_rules(rnd)
    section = section_of(device)
    # A withdrawn entry leaves the phone, unless it has a result to keep (history).
    seats = list(Seat.objects.filter(round=rnd, table__gte=section.table_from,
                                     table__lte=section.table_to)
                 .exclude(Q(entry__status=EntryStatus.CANCELLED)
                          & ~Q(entry_id__in=Result.objects.filter(round=rnd)
                               .values("entry_id")))
                 .select_related("entry").order_by("table", "no_show", "seat"))
    results = {r.entry_id: r for r in Result.objects.filter(
        round=rnd, entry_id__in=[s.entry_id for s in seats])}
    tables: dict[int, list[SeatedEntry]] = {}
    for seat in seats:
        tables.setdefault(seat.table, []).append(SeatedEntry(
            number=seat.entry.number, name=seat.entry.name, country=seat.entry.country,
            group=seat.group, seat=seat.seat, no_show=seat.no_show,
            result=results.get(seat.entry_id)))
    return LiveRound(
        id=rnd.pk, code=rnd.code, name=rnd.display_name, event=rnd.event.display_name,
        state=str(rnd.state),
        clock=clock, time_limit_seconds=rules.time_limit_seconds,
        puzzle_sizes=rules.puzzle_sizes,
        stages=tuple(tuple(i + 1 for i in stage) for stage in opening_stages(rules.round)),
        counting_record=rules.ruleset.counting.record,
        missing_breakdown=missing_breakdown(rules.ruleset.penalty),
        wrong_piece_means_unfinished=rules.ruleset.counting.wrong_piece_means_unfinished,
        groups=tuple(dict.fromkeys(e.group for lines in tables.values() for e in lines)),
        tables=tuple(TableEntries(table, tuple(lines)) for table, lines in tables.items()),
    )
