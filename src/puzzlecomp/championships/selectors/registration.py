"""Reads for registration: the event's rules, places taken, who a person is, entry lists."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Q, QuerySet
from django.utils import timezone

from puzzlecomp.championships.engine import engine_entry, engine_person_of, ioc, with_members
from puzzlecomp.championships.fee_words import FeeBasis
from puzzlecomp.championships.models import (
    Championship,
    Entry,
    EntryMember,
    EntryStatus,
    Event,
    Person,
    RelayDraw,
    RoundState,
)
from puzzlecomp.championships.ruleset_texts import ruleset_text
from puzzlecomp.championships.time_zones import championship_zone
from puzzlecomp.rules import ruleset as rules
from puzzlecomp.rules.fees import (
    Money,
    OrganiserFee,
    Refund,
    fee_due,
    last_refund_day,
    refund_due,
    regular_price_from,
)
from puzzlecomp.rules.identity import folded
from puzzlecomp.rules.loading import load_ruleset
from puzzlecomp.rules.people import Person as EnginePerson
from puzzlecomp.rules.registration import (
    RegistrationPeriod,
    places_needed,
    registration_capacity,
    registration_period,
    registration_period_of_event,
)
from puzzlecomp.rules.results import Entry as EngineEntry
from puzzlecomp.rules.subcategories import subcategory_admits

# Entries that hold (or wait for) a place; a cancelled entry holds none.
ACTIVE = (EntryStatus.UNCONFIRMED, EntryStatus.CONFIRMED, EntryStatus.WAITING)


def event_rules(event: Event) -> tuple[rules.Ruleset, rules.Event]:
    """The ruleset and the event's rules, with the organiser's capacity and team size applied,
    and the organiser's refund rule where the rulebook has none."""
    championship = event.championship
    ruleset = load_ruleset(championship.ruleset_id)
    policy = ruleset.registration
    if policy.refund_days_before is None and championship.refund_days_before is not None:
        ruleset = ruleset.model_copy(update={"registration": policy.model_copy(
            update={"refund_days_before": championship.refund_days_before})})
    spec = ruleset.event(event.code).model_copy(update={
        "capacity": event.capacity,
        "members_min": event.members_min,
        "members_max": event.members_max,
    })
    return ruleset, spec


def organiser_fee(event: Event) -> OrganiserFee | None:
    """The fee the organiser set for the event; None when they set none."""
    if event.fee_amount is None:
        return None
    return OrganiserFee(amount=event.fee_amount, per="person" if event.fee_per == "person"
                        else "entry", early_amount=event.fee_early_amount,
                        early_until=event.fee_early_until)


def fee_basis(event: Event) -> FeeBasis | None:
    """How the event charges (per person or per entry, and its entries' size) for the fee's
    words (championships/fee_words.py); None when nobody has set a fee."""
    _, spec = event_rules(event)
    if spec.fee is not None:
        per = spec.fee.per
    else:
        own = organiser_fee(event)
        if own is None:
            return None
        per = own.per
    return FeeBasis(per=str(per), members_min=spec.members_min, members_max=spec.members_max,
                    drawn_teams=spec.drawn_teams)


def event_currency(event: Event) -> str:
    """The currency of the event's fees and payments: the rulebook's for a fee it names, else
    the one the organiser chose (the ruleset's by default)."""
    ruleset, spec = event_rules(event)
    if spec.fee is not None:
        return ruleset.currency
    return event.championship.fee_currency or ruleset.currency


def entry_currency(entry: Entry) -> str:
    """The currency the entry pays in: its fee's, else its event's."""
    return entry.fee_currency or event_currency(entry.event)


def event_fee_due(event: Event, *, on: dt.date, people: int = 1) -> Money | None:
    """The fee of a registration made on this day: the rulebook's, else the organiser's."""
    _, spec = event_rules(event)
    championship = event.championship
    return fee_due(spec, currency=event_currency(event), registered_on=on,
                   competition_start=competition_day(championship), people=people,
                   organiser_fee=organiser_fee(event))


def event_period(event: Event) -> RegistrationPeriod:
    """When registration is open: the rulebook's window, else the organiser's."""
    ruleset, _ = event_rules(event)
    first = event.rounds.order_by("position").first()
    started = None
    if first is not None and first.state != RoundState.PLANNED:
        started = first.starts_at or first.published_at or timezone.now()
    return registration_period_of_event(championship_period(event.championship, ruleset),
                                        first_round_started=started)


def championship_period(championship: Championship,
                        ruleset: rules.Ruleset) -> RegistrationPeriod:
    """The rulebook's window (closing at the championship's local midnight), else the
    organiser's."""
    return registration_period(ruleset.registration, competition_start=championship.starts_at,
                               organiser_opens=championship.registration_opens_at,
                               organiser_closes=championship.registration_closes_at,
                               time_zone=championship_zone(championship))


def competition_day(championship: Championship) -> dt.date:
    """The first competition day where the championship is held."""
    return timezone.localdate(championship.starts_at, championship_zone(championship))


def places_taken(*, event: Event) -> int:
    """Places held by confirmed entries (and those awaiting payment): entries, or people where
    the event counts people."""
    _, spec = event_rules(event)
    # An entry awaiting payment holds its place as a confirmed one does.
    confirmed = Entry.objects.filter(event=event, status__in=(EntryStatus.CONFIRMED,
                                                              EntryStatus.UNPAID))
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
    paid = Money(entry.paid_amount or Decimal(0), entry_currency(entry))
    return refund_due(paid, cancelled_on=on, competition_start=competition_day(
        entry.event.championship), policy=ruleset.registration)


@dataclass(frozen=True)
class Withdrawal:
    """What withdrawing today gives back, and the rule: the last day of a full refund (None:
    the rulebook says nothing and the organiser decides)."""

    refund: Refund
    last_day: dt.date | None
    days_before: int | None


def entry_withdrawal(*, entry: Entry, on: dt.date) -> Withdrawal:
    """The refund rule and today's refund, shown to an entrant before they withdraw."""
    ruleset, _ = event_rules(entry.event)
    policy = ruleset.registration
    return Withdrawal(refund=entry_refund(entry=entry, on=on),
                      last_day=last_refund_day(competition_start=competition_day(
                          entry.event.championship), policy=policy),
                      days_before=policy.refund_days_before)


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
    # The ruleset's age categories the entry belongs to (Junior 18, Senior A, ...).
    age_categories: tuple[str, ...] = ()
    accompanied_by_adult: bool = False
    # Outside the ruleset's official ranking (None: the ruleset has none).
    foreign: bool | None = None

    def matches(self, query: str) -> bool:
        """True when the query is the entry's number or part of its name, a member's name or
        the contact email (case and accents ignored)."""
        wanted = folded(query.strip())
        if wanted.lstrip("#").isascii() and wanted.lstrip("#").isdigit():
            return int(wanted.lstrip("#")) == self.entry.number
        texts = [self.entry.name, self.entry.contact_email,
                 *(f"{m.first_name} {m.last_name}" for m in self.members)]
        return any(wanted in folded(text) for text in texts)


ENTRY_LIST_COLUMNS = (
    "event_id", "number", "name", "country", "mixed", "status", "contact_email", "registered_at",
    "fee_amount", "fee_currency", "paid_amount", "refund_amount",
)
_MEMBER_VALUES = (
    "entry_id", "person_id", "person__first_name", "person__last_name", "represents",
    "person__nationality", "person__residence", "person__region", "person__years_resident",
    "person__birth_date", "person__earlier_events", "accompanied_by_adult",
)


def age_categories(spec: rules.Event) -> tuple[rules.Subcategory, ...]:
    """The event's subcategories that go by age (a condition on the birth year)."""
    return tuple(s for s in spec.subcategories if s.when.field == "birth_year")


def entry_rows(*, event: Event) -> list[EntryRow]:
    """Every entry of the event with its members' names, age categories, whether a member comes
    with an accompanying adult and whether it is outside the official ranking, by number.

    Members come as plain values in one query: a prefetch builds three model instances and a
    queryset per entry, which dominates a list of 1,200.
    """
    ruleset, spec = event_rules(event)
    categories = age_categories(spec)
    official = ruleset.official_ranking
    settings = event.championship.settings
    entries = list(Entry.objects.filter(event=event).only(*ENTRY_LIST_COLUMNS))
    names: dict[int, list[MemberName]] = {}
    people: dict[int, list[EnginePerson]] = {}
    accompanied: set[int] = set()
    for (entry_id, person_id, first, last, represents, nationality, residence, region, years,
         born, earlier, with_adult) in (
        EntryMember.objects.filter(entry__event=event).order_by("entry_id", "position")
        .values_list(*_MEMBER_VALUES)
    ):
        names.setdefault(entry_id, []).append(MemberName(person_id, first, last))
        people.setdefault(entry_id, []).append(engine_person_of(
            event_code=event.code, represents=represents, nationality=nationality,
            residence=residence, region=region, years_resident=years,
            birth_year=born.year if born else None, earlier_events=earlier))
        if with_adult:
            accompanied.add(entry_id)
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
        engine = EngineEntry(id=str(entry.number), members=tuple(people.get(entry.pk, ())))
        rows.append(EntryRow(
            entry, members, outstanding, drawn,
            age_categories=tuple(c.name for c in categories
                                 if engine.members and subcategory_admits(c, engine,
                                                                          settings=settings)),
            accompanied_by_adult=entry.pk in accompanied,
            foreign=None if official is None or not engine.members
            else not official.admits(engine.members, settings),
        ))
    return rows


def relay_pool(*, event: Event) -> list[Entry]:
    """Confirmed one-person registrations not yet drawn into a team, by number."""
    return [e for e in Entry.objects.filter(event=event, status=EntryStatus.CONFIRMED)
            .prefetch_related(with_members()) if len(e.members.all()) == 1]


def relay_draws(*, event: Event) -> QuerySet[RelayDraw]:
    """The recorded draws of the event, newest first, with their seeds."""
    return RelayDraw.objects.filter(event=event).order_by("-drawn_at", "-pk")


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
    # From this day on the regular fee applies (None: the fee does not change by date).
    fee_later: Money | None = None
    fee_later_from: dt.date | None = None
    # The last day a cancellation is refunded in full (None: no refund).
    refund_until: dt.date | None = None


def event_registration(*, event: Event, now: dt.datetime) -> EventRegistration:
    """One event's registration period, whether it is open now, free places and fee today."""
    ruleset, spec = event_rules(event)
    period = event_period(event)
    today = timezone.localdate(now)
    fee = event_fee_due(event, on=today)
    start = competition_day(event.championship)
    later_from = regular_price_from(spec, competition_start=start,
                                    organiser_fee=organiser_fee(event))
    if later_from is not None and later_from <= today:
        later_from = None
    if later_from is not None and later_from > timezone.localdate(
            period.closes - dt.timedelta(microseconds=1), championship_zone(event.championship)):
        # Registration closes before the regular fee's first day: it can never apply.
        later_from = None
    capacity = registration_capacity(spec)
    taken = places_taken(event=event)
    return EventRegistration(
        event=event, period=period,
        is_open=(period.opens is None or period.opens <= now) and now < period.closes,
        free=None if capacity is None else max(capacity - taken, 0),
        waiting=waiting_entries(event=event).count(),
        fee=fee, drawn_teams=spec.drawn_teams, capacity=capacity, confirmed=taken,
        counts_people=places_needed(spec, people=2) == 2,
        fee_later=event_fee_due(event, on=later_from) if later_from else None,
        fee_later_from=later_from,
        refund_until=last_refund_day(competition_start=start, policy=ruleset.registration),
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
        ruleset_text(official.description))


def registration_overview(*, championship: Championship,
                          now: dt.datetime) -> list[EventRegistration]:
    """Every event of the championship, as `event_registration` describes it."""
    return [event_registration(event=event, now=now)
            for event in championship.events.select_related("championship")]
