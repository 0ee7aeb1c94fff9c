"""Seed a live round in the database named by DATABASE_URL; prints what the tests need as JSON.

Run as a subprocess with the app processes' environment (the test process keeps its own test
settings):  python -m tests.multiprocess.seed --entries 1000 --tables 500
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import uuid

import django

# The hall of wjpc-2025 has 108 tables: entries sit at tables 1-100, several to a table.
TABLES = 100


def table_of(entry: int) -> int:
    return (entry - 1) % TABLES + 1


def seed(*, entries: int, devices: int) -> dict[str, object]:
    """A published WJPC 2025 championship, its individual first round running for 30 minutes,
    `entries` seated at tables 1-100, and `devices` paired judges' phones sharing the tables."""
    from django.utils import timezone

    from puzzlecomp.championships.models import (
        Entry,
        EntryMember,
        EntryStatus,
        Person,
        Round,
        RoundState,
        Seat,
    )
    from puzzlecomp.championships.services.devices import device_create, device_pair
    from puzzlecomp.championships.services.rounds import round_state_set
    from puzzlecomp.championships.services.setup import championship_create

    championship = championship_create(
        ruleset_id="wjpc-2025", name="Multiprocess", slug=f"mp-{uuid.uuid4().hex[:10]}",
        starts_at=timezone.now() - dt.timedelta(hours=1))
    championship.published = True
    championship.save(update_fields=["published"])
    rnd = Round.objects.get(event__championship=championship, event__code="individual",
                            code="first")
    people = Person.objects.bulk_create(
        Person(first_name=f"First{n}", last_name=f"Last{n}", nationality="CZ",
               consent_publish=True) for n in range(1, entries + 1))
    rows = Entry.objects.bulk_create(
        Entry(event=rnd.event, number=n, name=f"First{n} Last{n}", group="A",
              status=EntryStatus.CONFIRMED) for n in range(1, entries + 1))
    EntryMember.objects.bulk_create(EntryMember(entry=e, person=p, consent_publish=True)
                                    for e, p in zip(rows, people, strict=True))
    Seat.objects.bulk_create(Seat(round=rnd, entry=e, group="A", table=table_of(e.number),
                                  seat=(e.number - 1) // TABLES + 1) for e in rows)
    round_state_set(round=rnd, state=RoundState.RUNNING,
                    starts_at=timezone.now() - dt.timedelta(minutes=30))
    tables = min(TABLES, entries)
    per_device = -(-tables // devices)
    tokens = []
    for first in range(1, tables + 1, per_device):
        device, code = device_create(championship=championship, label=f"tables {first}+",
                                     table_from=first,
                                     table_to=min(tables, first + per_device - 1), user=None)
        _device, token = device_pair(championship=championship, code=code)
        tokens.append({"token": token, "table_from": device.table_from,
                       "table_to": device.table_to})
    return {"slug": championship.slug, "round_id": rnd.pk,
            "starts_at": rnd.starts_at.isoformat() if rnd.starts_at else None,
            "devices": tokens, "entries": entries}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--entries", type=int, default=20)
    parser.add_argument("--devices", type=int, default=1)
    args = parser.parse_args()
    django.setup()
    print(json.dumps(seed(entries=args.entries, devices=args.devices)))


if __name__ == "__main__":
    main()
