"""Helpers of the judging tests: seating a round, pairing a device, writing through the API."""

from __future__ import annotations

import datetime as dt
import json
import uuid
from typing import Any

from django.test import Client
from django.utils import timezone

from puzzlecomp.championships.models import (
    Championship,
    Entry,
    EntryStatus,
    JudgeDevice,
    Round,
    RoundState,
    Seat,
)
from puzzlecomp.championships.services.devices import device_create, device_pair
from puzzlecomp.championships.services.rounds import round_state_set

WRITE_URL = "/api/v1/device/results"
ME_URL = "/api/v1/device/me"


def seat_round(championship: Championship, event: str, code: str, *, tables: int = 4,
               per_table: int = 2, started_minutes_ago: float = 10,
               state: RoundState = RoundState.RUNNING) -> Round:
    """Seat `per_table` new entries at each of `tables` tables and start the round."""
    rnd = Round.objects.get(event__championship=championship, event__code=event, code=code)
    group = rnd.groups[0] if rnd.groups else ""
    number = Entry.objects.filter(event=rnd.event).count()
    for table in range(1, tables + 1):
        for seat in range(1, per_table + 1):
            number += 1
            entry = Entry.objects.create(event=rnd.event, number=number,
                                         name=f"Entrant {number}", country="CZE", group=group,
                                         status=EntryStatus.CONFIRMED)
            Seat.objects.create(round=rnd, entry=entry, group=group, table=table, seat=seat)
    round_state_set(round=rnd, state=state,
                    starts_at=timezone.now() - dt.timedelta(minutes=started_minutes_ago))
    return rnd


def pair_device(championship: Championship, first: int, last: int,
                label: str = "North") -> tuple[JudgeDevice, str]:
    _device, code = device_create(championship=championship, label=label, table_from=first,
                                 table_to=last, user=None)
    return device_pair(championship=championship, code=code)


def write(client: Client, rnd: Round, entry: int, action: str, *, base: int = 0,
          client_id: str | None = None, puzzle: int | None = None, **values: Any):
    """POST one judge's action to the device API; returns the response."""
    body = {"client_id": client_id or str(uuid.uuid4()), "round_id": rnd.pk, "entry": entry,
            "base_version": base, "action": action, "puzzle": puzzle, "values": values}
    return client.post(WRITE_URL, json.dumps(body), content_type="application/json")


def elapsed(rnd: Round) -> int:
    """Whole seconds since the round's start (what a phone's clock sends at a tap)."""
    rnd.refresh_from_db()
    assert rnd.starts_at is not None
    return int((timezone.now() - rnd.starts_at).total_seconds())


def fields_of(response) -> list[tuple[str, str]]:
    """(code, field) of each violation in a 422 answer."""
    return [(v["code"], v["field"]) for v in response.json()["violations"]]
