"""JSON shapes that more than one audience renders: what a judge's phone shows (the device API's
`GET /device/me`, also embedded in the phone's page) and a round's clock (the public and device
API). django-ninja schemas, so the OpenAPI document describes them.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Literal

from ninja import Schema

from puzzlecomp.championships.models import Result
from puzzlecomp.championships.services.device_overview import DeviceOverview


class ClockOut(Schema):
    state: str
    started_at: dt.datetime | None
    # None while the organiser has not given the round a time limit.
    limit_seconds: int | None
    ends_at: dt.datetime | None
    # What the clock's face shows (rules/round_life.py ClockShows): waiting, countdown,
    # counting or ended; `ended_at` when assembly ended (the limit or the head judge's stop).
    shows: str
    ended_at: dt.datetime | None
    server_now: dt.datetime


class ResultOut(Schema):
    status: str
    time_seconds: int | None
    pieces: int | None
    remaining: int | None
    missing: int
    missing_contiguous: int
    missing_found: int
    time_credit: int
    # Multi-puzzle rounds: per puzzle time, pieces, remaining, missing, contiguous, found,
    # verified (checked by the judge) and authorised (open to the competitor).
    puzzles: list[dict[str, Any]]
    checked: bool
    competitor_confirmed: bool
    note: str
    version: int
    recorded_at: dt.datetime


class EntryOut(Schema):
    number: int
    name: str
    country: str
    group: str
    seat: int
    no_show: bool
    # The version to write on: 0 while the entry has no result.
    version: int
    result: ResultOut | None


class TableOut(Schema):
    table: int
    entries: list[EntryOut]


# OpenAPI names schemas by class name: one name per shape, or the document describes the
# public round with the device's (schemathesis found it).
class DeviceRoundOut(Schema):
    id: int
    code: str
    name: str
    event: str
    state: str
    clock: ClockOut
    time_limit_seconds: int
    puzzle_sizes: list[int]
    stages: list[list[int]]
    counting_record: str
    missing_breakdown: list[Literal["contiguous", "found"]]
    wrong_piece_means_unfinished: bool
    groups: list[str]
    tables: list[TableOut]


class DeviceOut(Schema):
    id: int
    label: str
    table_from: int
    table_to: int
    expires_at: dt.datetime
    championship: str


class MeOut(Schema):
    device: DeviceOut
    server_now: dt.datetime
    rounds: list[DeviceRoundOut]


def result_out(row: Result) -> ResultOut:
    return ResultOut.model_validate(row, from_attributes=True)


def me_out(overview: DeviceOverview) -> MeOut:
    device = overview.device
    return MeOut(
        device=DeviceOut(id=device.pk, label=device.label, table_from=device.table_from,
                         table_to=device.table_to, expires_at=device.expires_at,
                         championship=device.championship.slug),
        server_now=overview.server_now,
        # The selector's rounds, tables and entries have the schema's fields.
        rounds=[DeviceRoundOut.model_validate(r, from_attributes=True) for r in overview.rounds],
    )
