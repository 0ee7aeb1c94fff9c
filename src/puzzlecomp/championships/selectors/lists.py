"""Reads for setup screens and downloads: every list as one table of rows, whatever the format.

A `Table` is written once here and serialised to CSV or XLSX by `services.exporting`, so both
files always have the same columns.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from puzzlecomp.championships.engine import ioc
from puzzlecomp.championships.models import (
    Championship,
    Entry,
    EntryMember,
    Event,
    ModelChoice,
    Puzzle,
    Round,
    RoundState,
    Seat,
)

ENTRY_COLUMNS = ("number", "name", "country", "mixed", "status", "group", "table", "fee",
                 "currency", "paid")
PEOPLE_COLUMNS = ("event", "entry", "entry_name", "position", "first_name", "last_name",
                  "nationality", "residence", "region", "consent_publish", "consent_photos")
# Only organisers see these: contact and birth details are private.
PRIVATE_PEOPLE_COLUMNS = ("email", "birth_date", "years_resident")


@dataclass(frozen=True)
class Table:
    """A list ready to download: a file name without extension, column names and rows."""

    name: str
    columns: tuple[str, ...]
    rows: list[tuple[Any, ...]]
    # Holds personal data only organisers may see (birth dates, emails).
    private: bool = False


def round_started(rnd: Round, now: dt.datetime) -> bool:
    """True once the round's start time has passed or the round has left the planned state."""
    return rnd.state != RoundState.PLANNED or (rnd.starts_at is not None and now >= rnd.starts_at)


def puzzle_motif_visible(puzzle: Puzzle, now: dt.datetime) -> bool:
    """Whether the public may see the puzzle's motif: only once its round has started."""
    return round_started(puzzle.round, now)


def entry_models_chosen(*, rnd: Round) -> dict[int, tuple[int, ...]]:
    """The models each team chose for the round, by entry id."""
    return {entry_id: tuple(chosen) for entry_id, chosen in
            ModelChoice.objects.filter(round=rnd).values_list("entry_id", "chosen_models")}


def _yes(value: bool) -> str:
    return "yes" if value else "no"


def entries_table(*, event: Event) -> Table:
    """The event's entries with status, group, table (latest seated round), fee and payment."""
    tables: dict[int, int] = dict(
        Seat.objects.filter(round__event=event).order_by("round__position")
        .values_list("entry_id", "table")
    )
    rows = [
        (entry.number, str(entry), entry.country, _yes(entry.mixed), entry.status, entry.group,
         tables.get(entry.pk), entry.fee_amount, entry.fee_currency, entry.paid_amount)
        for entry in Entry.objects.filter(event=event).order_by("number")
    ]
    return Table(f"{event.championship.slug}-{event.code}-entries", ENTRY_COLUMNS, rows)


def people_table(*, championship: Championship, private: bool) -> Table:
    """Everyone entered in the championship, one row per entry member (the import's columns).

    Birth dates, emails and years of residence are only in the private (organiser) table.
    """
    columns = PEOPLE_COLUMNS + (PRIVATE_PEOPLE_COLUMNS if private else ())
    members = (EntryMember.objects.filter(entry__event__championship=championship)
               .select_related("entry__event", "person")
               .order_by("entry__event__position", "entry__number", "position"))
    rows = []
    for member in members:
        person, entry = member.person, member.entry
        row: tuple[Any, ...] = (
            entry.event.code, entry.number, entry.name, member.position + 1, person.first_name,
            person.last_name, ioc(person.nationality), ioc(person.residence), person.region,
            _yes(member.consent_publish), _yes(member.consent_photos),
        )
        if private:
            row += (person.email, person.birth_date, person.years_resident)
        rows.append(row)
    suffix = "people-private" if private else "people"
    return Table(f"{championship.slug}-{suffix}", columns, rows, private=private)
