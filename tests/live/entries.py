"""Entries and results for the live tests (also used by the browser test of live.js)."""

from __future__ import annotations

import datetime as dt

from puzzlecomp.championships.models import (
    Championship,
    Entry,
    EntryMember,
    EntryStatus,
    Person,
    Round,
    Seat,
)
from puzzlecomp.championships.services.results import ResultValues, result_submit
from puzzlecomp.rules.results import Status


def enter(rnd: Round, number: int, name: str, country: str, *, group: str = "A",
          table: int | None = None, consent: bool = True) -> Entry:
    """An entry with private details (birth date, emails) that nothing public may show."""
    entry = Entry.objects.create(
        event=rnd.event, number=number, name=name, group=group, country="",
        status=EntryStatus.CONFIRMED, contact_email=f"contact{number}@private.example")
    person = Person.objects.create(
        first_name=name.split()[0], last_name=name.split()[-1], nationality=country,
        email=f"person{number}@private.example", birth_date=dt.date(1987, 3, 14),
        consent_publish=consent)
    EntryMember.objects.create(entry=entry, person=person, consent_publish=consent)
    if table is not None:
        Seat.objects.create(round=rnd, entry=entry, group=group, table=table)
    return entry


def finish(rnd: Round, entry: Entry, seconds: int) -> None:
    result_submit(round=rnd, entry=entry, action="verify",
                  values=ResultValues(status=Status.FINISHED, time_seconds=seconds))


def live_seq(championship: Championship) -> int:
    championship.refresh_from_db(fields=["live_seq"])
    return championship.live_seq
