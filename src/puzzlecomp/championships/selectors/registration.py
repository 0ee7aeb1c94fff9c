"""Reads for registration: the event's rules, places taken, who a person is, entry lists."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Q, QuerySet
from django.utils import timezone

from puzzlecomp.championships.engine import engine_entry, ioc, with_members
from puzzlecomp.championships.models import (
    AuditEntry,
    Championship,
    Entry,
    EntryMember,
    EntryStatus,
    Event,
    Person,
)
from puzzlecomp.rules import ruleset as rules
from puzzlecomp.rules.fees import Money, Refund, fee_due, refund_due
from puzzlecomp.rules.loading import load_ruleset
from puzzlecomp.rules.registration import (
    RegistrationPeriod,
    places_needed,
    registration_capacity,
    registration_period,
)

# Entries that hold (or wait for) a place; a cancelled entry holds none.
ACTIVE = (EntryStatus.UNCONFIRMED, EntryStatus.CONFIRMED, EntryStatus.WAITING)
RELAY_DRAWN = "puzzlecomp.relay.drawn"


def event_rules(event: Event) -> tuple[rules.Ruleset, rules.Event]:
    """The ruleset and the event's rules, with the organiser's capacity and team size applied."""
    ruleset = load_ruleset(event.championship.ruleset_id)
    spec = ruleset.event(event.code).model_copy(update={
        "capacity": event.capacity,
        "members_min": event.members_min,
        "members_max": event.members_max,
    })
    return ruleset, spec


def competition_day(championship: Championship) -> dt.date:
    """The first competition day in the site's time zone."""
    return timezone.localdate(championship.starts_at)


def places_taken(*, event: Event) -> int:
    """Places held by confirmed entries: entries, or people where the event counts people."""
    _, spec = event_rules(event)
    confirmed = Entry.objects.filter(event=event, status=EntryStatus.CONFIRMED)
    counts_people = places_needed(spec, people=2) == 2  # the engine's unit: a place a person
    if counts_people:
        return EntryMember.objects.filter(entry__in=confirmed).count()
    return confirmed.count()


def places_free(*, event: Event) -> int | None:
    """Free places in the event; None when it has no capacity."""
    _, spec = event_rules(event)
    capacity = registration_capacity(spec)
    return None if capacity is None else max(capacity - places_taken(event=event), 0)


def waiting_entries(*, event: Event) -> QuerySet[Entry]:
    """The waiting list in order: first registered, first promoted."""
    return Entry.objects.filter(event=event, status=EntryStatus.WAITING).order_by(
        "registered_at", "pk")


def person_matches(*, email: str, first_name: str, last_name: str,
                   birth_date: dt.date) -> QuerySet[Person]:
    """Stored people who are this person: same email, names and birth date (case ignored)."""
    return Person.objects.filter(
        email__iexact=email.strip(), first_name__iexact=first_name.strip(),
        last_name__iexact=last_name.strip(), birth_date=birth_date,
    ).order_by("pk")


def entered_in(*, event: Event, persons: QuerySet[Person] | list[Person]) -> bool:
    """True when any of these people has an entry in the event that is not cancelled."""
    return EntryMember.objects.filter(
        entry__event=event, entry__status__in=ACTIVE, person__in=persons).exists()


def earlier_nationality_choice(*, persons: list[Person], championship: Championship,
                               ) -> str | None:
    """The IOC code a person represented before, which WJPC keeps fixed; None when never.

    Counts entries of this edition (all events use one nationality) and confirmed entries at
    championships that started earlier; a person who competed before without a stored choice
    (Person.earlier_events, e.g. imported) represented their main nationality.
    """
    if not persons:
        return None
    member = (
        EntryMember.objects.filter(person__in=persons)
        .filter(Q(entry__event__championship=championship, entry__status__in=ACTIVE)
                | Q(entry__event__championship__starts_at__lt=championship.starts_at,
                    entry__status=EntryStatus.CONFIRMED))
        .select_related("person").order_by("-entry__registered_at").first()
    )
    if member is not None:
        return ioc(member.represents) or ioc(member.person.nationality)
    veteran = next((p for p in persons if p.earlier_events), None)
    return ioc(veteran.nationality) if veteran else None


def entry_refund(*, entry: Entry, on: dt.date) -> Refund:
    """What the rulebook gives back if the entry is cancelled on this day."""
    ruleset, _ = event_rules(entry.event)
    paid = Money(entry.paid_amount or Decimal(0), entry.fee_currency or ruleset.currency)
    return refund_due(paid, cancelled_on=on, competition_start=competition_day(
        entry.event.championship), policy=ruleset.registration)


@dataclass(frozen=True)
class MemberName:
    person_id: int
    first_name: str
    last_name: str


@dataclass(frozen=True)
class EntryRow:
    """One line of the organiser's entry list."""

    entry: Entry
    members: tuple[MemberName, ...]
    outstanding: Decimal | None
    # In an event with drawn teams: the team number a pool registration was drawn into.
    drawn_into: int | None = None


ENTRY_LIST_COLUMNS = (
    "event_id", "number", "name", "country", "mixed", "status", "contact_email", "registered_at",
    "fee_amount", "fee_currency", "paid_amount", "refund_amount",
)


def entry_rows(*, event: Event) -> list[EntryRow]:
    """Every entry of the event with its members' names, by number.

    Members come as plain values in one query: a prefetch builds three model instances and a
    queryset per entry, which dominates a list of 1,200.
    """
    entries = list(Entry.objects.filter(event=event).only(*ENTRY_LIST_COLUMNS))
    names: dict[int, list[MemberName]] = {}
    for entry_id, person_id, first, last in (
        EntryMember.objects.filter(entry__event=event).order_by("entry_id", "position")
        .values_list("entry_id", "person_id", "person__first_name", "person__last_name")
    ):
        names.setdefault(entry_id, []).append(MemberName(person_id, first, last))
    team_of: dict[int, int] = {}
    for entry in entries:
        team = names.get(entry.pk, [])
        if len(team) > 1 and entry.status != EntryStatus.CANCELLED:
            team_of.update({m.person_id: entry.number for m in team})
    rows = []
    for entry in entries:
        members = tuple(names.get(entry.pk, ()))
        drawn = (team_of.get(members[0].person_id)
                 if len(members) == 1 and entry.status == EntryStatus.CANCELLED
                 and entry.refund_amount is None else None)
        outstanding = (None if entry.fee_amount is None
                       else max(entry.fee_amount - entry.paid_amount, Decimal(0)))
        rows.append(EntryRow(entry, members, outstanding, drawn))
    return rows


def relay_pool(*, event: Event) -> list[Entry]:
    """Confirmed one-person registrations not yet drawn into a team, by number."""
    return [e for e in Entry.objects.filter(event=event, status=EntryStatus.CONFIRMED)
            .prefetch_related(with_members()) if len(e.members.all()) == 1]


def relay_draws(*, event: Event) -> QuerySet[AuditEntry]:
    """The recorded draws of the event, newest first, with their seeds."""
    return AuditEntry.objects.filter(championship=event.championship, action=RELAY_DRAWN,
                                     data__event=event.code)


@dataclass(frozen=True)
class EventRegistration:
    """What the public registration page says about one event."""

    event: Event
    period: RegistrationPeriod
    is_open: bool
    free: int | None
    waiting: int
    fee: Money | None
    drawn_teams: bool
    # Places in the event (None: no limit) and how many confirmed entries hold them.
    capacity: int | None = None
    confirmed: int = 0
    # A place is a person (relay pools, events counted in people), else an entry.
    counts_people: bool = False


def event_registration(*, event: Event, now: dt.datetime) -> EventRegistration:
    """One event's registration period, whether it is open now, free places and fee today."""
    ruleset, spec = event_rules(event)
    championship = event.championship
    period = registration_period(ruleset.registration, competition_start=championship.starts_at)
    fee = fee_due(spec, currency=ruleset.currency, registered_on=timezone.localdate(now),
                  competition_start=competition_day(championship))
    capacity = registration_capacity(spec)
    taken = places_taken(event=event)
    return EventRegistration(
        event=event, period=period,
        is_open=(period.opens is None or period.opens <= now) and now < period.closes,
        free=None if capacity is None else max(capacity - taken, 0),
        waiting=waiting_entries(event=event).count(),
        fee=fee, drawn_teams=spec.drawn_teams, capacity=capacity, confirmed=taken,
        counts_people=places_needed(spec, people=2) == 2,
    )


def outside_official_ranking(entry: Entry) -> str | None:
    """The ruleset's words for the official ranking when this entry is outside it, else None.

    Czech rules: only a registered address in the Czech Republic competes for the title.
    """
    official = load_ruleset(entry.event.championship.ruleset_id).official_ranking
    if official is None:
        return None
    entry = Entry.objects.select_related("event__championship").prefetch_related(
        with_members()).get(pk=entry.pk)
    members = engine_entry(entry).members
    return None if official.admits(members, entry.event.championship.settings) else (
        official.description)


def registration_overview(*, championship: Championship,
                          now: dt.datetime) -> list[EventRegistration]:
    """Every event of the championship, as `event_registration` describes it."""
    return [event_registration(event=event, now=now)
            for event in championship.events.select_related("championship")]
