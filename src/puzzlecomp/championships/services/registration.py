"""Registration: entering people into an event, email confirmation, payments and cancellations.

The rules engine decides (window, capacity, ages, one entry per event, nationality, fee,
refund); these functions feed it stored rows and write down what it decided.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Literal

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.db.models import Max
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from puzzlecomp.championships.actions import (
    ENTRY_CANCELLED,
    ENTRY_CONFIRMED,
    ENTRY_PROMOTED,
    ENTRY_REGISTERED,
    OFFERS_SETTLED,
    PAYMENT_RECORDED,
)
from puzzlecomp.championships.engine import flag_of, ioc_of_code
from puzzlecomp.championships.models import (
    Championship,
    Entry,
    EntryMember,
    EntryStatus,
    Event,
    Person,
    PersonClaim,
    RoundState,
    Seat,
)
from puzzlecomp.championships.selectors.offers import waiting_offers
from puzzlecomp.championships.selectors.payments import payment_box, payment_qr_png
from puzzlecomp.championships.selectors.registration import (
    competition_day,
    earlier_nationality_choice,
    entered_in,
    entry_refund,
    event_currency,
    event_fee_due,
    event_period,
    event_rules,
    outside_official_ranking,
    person_matches,
    places_taken,
    waiting_entries,
)
from puzzlecomp.championships.services.claims import claim_record, claim_registrant_confirm
from puzzlecomp.championships.services.work import unit_of_work
from puzzlecomp.rules import limits
from puzzlecomp.rules import ruleset as rules
from puzzlecomp.rules.errors import RulesError, violation
from puzzlecomp.rules.fees import Money, Refund
from puzzlecomp.rules.registration import (
    Applicant,
    check_entry,
    places_needed,
    registration_capacity,
    registration_decision,
    shared_email_violations,
)

Outcome = Literal["accepted", "waiting_list"]
# The emails that tell an entrant to pay: they carry the payment QR code as an attachment.
PAYING_MAILS = ("registration_confirmed", "registration_promoted", "registration_offered",
                "registration_held")

SUBJECTS = {
    "registration_confirm": _("Please confirm your registration for %(event)s · "
                              "%(championship)s"),
    "registration_confirmed": _("Your registration for %(event)s is confirmed · "
                                "%(championship)s"),
    "registration_waiting": _("You are on the waiting list for %(event)s · %(championship)s"),
    "registration_promoted": _("A place has become free for you in %(event)s · "
                               "%(championship)s"),
    "registration_held": _("Your place in %(event)s is held until you pay · %(championship)s"),
    "registration_offered": _("A place is offered to you in %(event)s: pay by the deadline · "
                              "%(championship)s"),
    "registration_cancelled": _("Your registration for %(event)s is cancelled · "
                                "%(championship)s"),
}


@dataclass(frozen=True)
class MemberDetails:
    """One person as typed into the registration form (countries as ISO alpha-2 codes)."""

    first_name: str
    last_name: str
    email: str
    nationality: str
    birth_date: dt.date
    other_nationalities: tuple[str, ...] = ()
    # The nationality represented; may stay empty with a single nationality.
    represents: str = ""
    residence: str = ""
    region: str = ""
    consent_publish: bool = False
    consent_photos: bool = False
    accompanied_by_adult: bool = False
    # Asked where the ruleset reads it (Australia's state competitions); None: not asked.
    first_state_competition_of_year: bool | None = None
    # Asked where the ruleset reads it (Norway's official ranking); None: not asked or blank.
    years_resident: int | None = None

    @property
    def identity(self) -> str:
        """Who the person is: email, names and birth date, case ignored."""
        parts = (self.email, self.first_name, self.last_name)
        return "|".join(p.strip().casefold() for p in parts) + f"|{self.birth_date}"

    @property
    def nationalities(self) -> tuple[str, ...]:
        others = tuple(c for c in self.other_nationalities if c != self.nationality)
        return (self.nationality, *others)

    @property
    def represented(self) -> str:
        """The nationality this person competes for (their only one when they hold one)."""
        return self.represents or (self.nationality if len(self.nationalities) == 1 else "")


@dataclass(frozen=True)
class Registration:
    """A new entry awaiting email confirmation, what will happen on confirming, and its fee."""

    entry: Entry
    outcome: Outcome
    fee: Money | None


def entry_register(*, event: Event, members: Sequence[MemberDetails],
                   team_name: str = "", claimed: Mapping[str, Person] | None = None,
                   ) -> Registration:
    """Register an entry, unconfirmed, and email the confirmation link to its contact.

    Raises RulesError with every rule the entry breaks (window, places, ages, team size, one
    entry per person and event, nationality). A full event with a waiting list accepts the
    entry for the waiting list (`outcome`). `claimed` maps a member's identity to the known
    person they said they are ("is this you?", selectors/people.py): the member gets a record
    of their own and the claim waits for proof (services/claims.py).
    """
    with unit_of_work(ENTRY_REGISTERED, championship=event.championship) as work:
        event = event_lock(event)
        championship = event.championship
        ruleset, spec = event_rules(event)
        now = timezone.now()
        matches = {m.identity: list(person_matches(email=m.email, first_name=m.first_name,
                                                   last_name=m.last_name, birth_date=m.birth_date))
                   for m in members}
        applicants = [
            Applicant(
                person_id=m.identity, birth_year=m.birth_date.year, birth_date=m.birth_date,
                name=f"{m.first_name} {m.last_name}",
                nationalities=tuple(_ioc(c) for c in m.nationalities),
                chosen_nationality=_ioc(m.represents) if m.represents else None,
                competed_as=earlier_nationality_choice(persons=matches[m.identity],
                                                       championship=championship),
                accompanied_by_adult=m.accompanied_by_adult,
            )
            for m in members
        ]
        already = [key for key, persons in matches.items()
                   if persons and entered_in(event=event, persons=persons)]
        problems = check_entry(spec, ruleset.registration, members=applicants,
                               competition_start=competition_day(championship),
                               already_entered=already)
        problems += shared_email_violations([(f"{m.first_name} {m.last_name}", m.email)
                                             for m in members])
        decision = registration_decision(spec, ruleset.registration, now=now,
                                         competition_start=championship.starts_at,
                                         confirmed_count=places_taken(event=event),
                                         people=len(members), period=event_period(event))
        if decision.refusal is not None:
            problems.insert(0, decision.refusal)
        if problems:
            raise RulesError(problems)
        fee = event_fee_due(event, on=timezone.localdate(now), people=len(members))
        persons = [_person_save(m, matches[m.identity]) for m in members]
        represented = [m.represented for m in members]
        country, mixed = flag_of(spec, represented)
        entry = Entry.objects.create(
            event=event, number=entry_number_next(event), name=_entry_name(members, team_name),
            country=country, mixed=mixed, status=EntryStatus.UNCONFIRMED,
            contact_email=members[0].email.strip(),
            fee_amount=fee.amount if fee else None,
            fee_currency=fee.currency if fee else event_currency(event),
            language=translation.get_language() or "",
        )
        created = EntryMember.objects.bulk_create(
            EntryMember(entry=entry, person=person, position=i, represents=code,
                        accompanied_by_adult=member.accompanied_by_adult,
                        first_state_competition_of_year=member.first_state_competition_of_year,
                        consent_publish=member.consent_publish,
                        consent_photos=member.consent_photos)
            for i, (person, code, member) in enumerate(
                zip(persons, represented, members, strict=True))
        )
        for row, member in zip(created, members, strict=True):
            if claimed and member.identity in claimed and not matches[member.identity]:
                claim_record(member=row, person=claimed[member.identity])
        outcome: Outcome = ("waiting_list" if decision.outcome == "waiting_list"
                            or _others_waiting(event, spec) else "accepted")
        work.record(event=event.code, number=entry.number, persons=[p.pk for p in persons],
                    outcome=outcome, fee=_amount(fee), mixed=mixed,
                    accompanied_by_adult=[m.accompanied_by_adult for m in members])
        _mail_after_commit(entry, "registration_confirm", outcome=outcome,
                           link=confirmation_link(entry))
        return Registration(entry, outcome, fee)


def entry_confirm(*, entry: Entry) -> Entry:
    """Make a registration final by its emailed link: confirmed, or on the waiting list.

    Confirming again changes nothing. An entry confirmed while others wait joins the end of the
    waiting list, so nobody overtakes them when a place frees up.
    """
    with unit_of_work(ENTRY_CONFIRMED, championship=entry.event.championship) as work:
        event = event_lock(entry.event)
        entry = Entry.objects.select_for_update().get(pk=entry.pk)
        if entry.status != EntryStatus.UNCONFIRMED:
            return entry
        ruleset, spec = event_rules(event)
        decision = registration_decision(
            spec, ruleset.registration, now=entry.registered_at,
            competition_start=event.championship.starts_at,
            confirmed_count=places_taken(event=event), people=entry.members.count(),
            period=event_period(event),
        )
        if decision.outcome == "refused":
            entry.status = EntryStatus.CANCELLED
            entry.cancelled_at = timezone.now()
            entry.refund_amount = entry.paid_amount
            template = "registration_cancelled"
        elif decision.outcome == "waiting_list" or _others_waiting(event, spec):
            entry.status = EntryStatus.WAITING
            template = "registration_waiting"
        elif _payment_awaited(entry):
            entry.status = EntryStatus.UNPAID
            template = "registration_held"
        else:
            entry.status = EntryStatus.CONFIRMED
            entry.confirmed_at = timezone.now()
            template = "registration_confirmed"
        entry.save(update_fields=["status", "confirmed_at", "cancelled_at", "refund_amount"])
        # A refused entry proves nothing: its claims wait (and never take effect). An
        # organiser's link waits for its own link's confirmation (claims.claim_propose).
        for claim in PersonClaim.objects.filter(member__entry=entry,
                                                state=PersonClaim.State.WAITING,
                                                proposed_by__isnull=True,
                                                registrant_token__isnull=True).exclude(
                member__entry__status=EntryStatus.CANCELLED):
            claim_registrant_confirm(claim=claim)
        work.record(event=event.code, number=entry.number, status=entry.status,
                    refusal=decision.refusal.code if decision.refusal else None)
        _mail_after_commit(entry, template)
        return entry


def entry_payment_record(*, entry: Entry, amount: Decimal, by: Any) -> Entry:
    """Record a payment received for the entry (added to what it paid before)."""
    with unit_of_work(PAYMENT_RECORDED, championship=entry.event.championship, user=by) as work:
        entry = Entry.objects.select_for_update().select_related("event__championship").get(
            pk=entry.pk)
        if amount <= 0:
            raise RulesError(violation("payment.not_positive", f"a payment of {amount} is not "
                                       "positive", field="amount", amount=amount))
        if entry.status == EntryStatus.CANCELLED:
            raise RulesError(violation("entry.cancelled", f"entry {entry.number} is cancelled",
                                       field="entry", number=entry.number))
        paid = entry.paid_amount + amount
        if paid > limits.MAX_MONEY:
            raise RulesError(violation("payment.too_large", f"the entry would have paid {paid} "
                                       f"in all; at most {limits.MAX_MONEY}", field="amount",
                                       paid=paid, max=limits.MAX_MONEY))
        entry.paid_amount = paid
        entry.paid_at = timezone.now()
        entry.save(update_fields=["paid_amount", "paid_at"])
        work.record(event=entry.event.code, number=entry.number, amount=str(amount),
                    paid=str(entry.paid_amount), places=places_settle(entry.event))
        return entry


def entry_cancel(*, entry: Entry, by: Any) -> Refund:
    """Cancel the entry at the participant's request and record the refund the rulebook allows.

    The refund is everything paid when cancelled at least `refund_days_before` days before the
    start (15 days at WJPC and in the Czech rulebooks), otherwise nothing.
    """
    with unit_of_work(ENTRY_CANCELLED, championship=entry.event.championship, user=by) as work:
        entry = Entry.objects.select_for_update().select_related("event__championship").get(
            pk=entry.pk)
        if entry.status == EntryStatus.CANCELLED:
            raise RulesError(violation("entry.cancelled", f"entry {entry.number} is cancelled",
                                       field="entry", number=entry.number))
        now = timezone.now()
        refund = entry_refund(entry=entry, on=timezone.localdate(now))
        previous = entry.status
        entry.status = EntryStatus.CANCELLED
        entry.cancelled_at = now
        entry.refund_amount = refund.amount.amount
        entry.save(update_fields=["status", "cancelled_at", "refund_amount"])
        _mail_after_commit(entry, "registration_cancelled")
        work.record(event=entry.event.code, number=entry.number, previous_status=previous,
                    refund=str(refund.amount.amount), currency=refund.amount.currency,
                    refusal=refund.refusal.code if refund.refusal else None,
                    tables_freed=_seats_leave(entry), places=places_settle(entry.event))
        return refund


def _seats_leave(entry: Entry) -> list[dict[str, Any]]:
    """A cancelled entry leaves the tables of every round not started yet (seating, table
    cards, check-in, phones); a round under way keeps its seat as history. The tables
    freed, for the audit."""
    seats = Seat.objects.filter(entry=entry, round__state=RoundState.PLANNED)
    freed = [{"round": code, "group": group, "table": table}
             for code, group, table in seats.values_list("round__code", "group", "table")]
    seats.delete()
    return freed


def waiting_list_promote(*, event: Event, by: Any) -> Entry:
    """Give a free place to the first entry on the waiting list (by registration time).

    Waiting entries have already confirmed their email, so the promoted entry is confirmed
    at once and told by email. Raises RulesError when nobody waits or no place is free.
    """
    with unit_of_work(ENTRY_PROMOTED, championship=event.championship, user=by) as work:
        event = event_lock(event)
        _, spec = event_rules(event)
        entry = waiting_entries(event=event).first()
        if entry is None:
            raise RulesError(violation("waiting_list.empty", f"nobody waits for {event.name}"))
        capacity = registration_capacity(spec)
        taken = places_taken(event=event)
        needed = places_needed(spec, people=entry.members.count())
        if capacity is not None and taken + needed > capacity:
            raise RulesError(violation(
                "waiting_list.no_place",
                f"{event.name} has {capacity} places and {taken} are taken; entry {entry.number} "
                f"needs {needed}", capacity=capacity, taken=taken, needed=needed,
                number=entry.number))
        entry.status = EntryStatus.CONFIRMED
        entry.confirmed_at = timezone.now()
        entry.save(update_fields=["status", "confirmed_at"])
        work.record(event=event.code, number=entry.number)
        _mail_after_commit(entry, "registration_promoted")
        return entry


def _payment_awaited(entry: Entry) -> bool:
    """The organiser confirms entries only once paid, and this one has not paid its fee."""
    fee = entry.fee_amount or Decimal(0)
    return entry.event.championship.confirm_on_payment and entry.paid_amount < fee


def places_settle(event: Event, *, now: dt.datetime | None = None) -> list[dict[str, Any]]:
    """Store what payments and the clock decided about the event's places, inside the caller's
    unit of work: an entry awaiting payment that paid in full is confirmed; an entry that paid
    its offered place in time is confirmed, a new offer is stored and mailed with its deadline,
    a lapsed offer closes its entry (anything it paid is refunded). What changed, for the
    audit."""
    now = now or timezone.now()
    changed: list[dict[str, Any]] = []
    for entry in Entry.objects.select_for_update().filter(event=event,
                                                          status=EntryStatus.UNPAID):
        entry.event = event
        if not _payment_awaited(entry):
            entry.status, entry.confirmed_at = EntryStatus.CONFIRMED, now
            entry.save(update_fields=["status", "confirmed_at"])
            _mail_after_commit(entry, "registration_confirmed")
            changed.append({"number": entry.number, "paid": "confirmed"})
    if event.championship.offer_days is None:
        return changed
    entries = Entry.objects.select_for_update().in_bulk(
        list(waiting_entries(event=event).values_list("pk", flat=True)))
    for key, offer in waiting_offers(event, now=now).items():
        entry = entries[key]
        if offer.state == "holds":
            entry.status, entry.confirmed_at = EntryStatus.CONFIRMED, now
            entry.save(update_fields=["status", "confirmed_at"])
            _mail_after_commit(entry, "registration_promoted")
        elif offer.state == "lapsed":
            entry.status, entry.cancelled_at = EntryStatus.CANCELLED, offer.deadline
            entry.refund_amount = entry.paid_amount
            entry.save(update_fields=["status", "cancelled_at", "refund_amount"])
        elif offer.state == "offered" and entry.offered_at != offer.starts:
            entry.offered_at = offer.starts
            entry.save(update_fields=["offered_at"])
            _mail_after_commit(entry, "registration_offered", deadline=offer.deadline)
        else:
            continue
        changed.append({"number": entry.number, "offer": offer.state})
    return changed


def waiting_offers_settle(*, championship: Championship, by: Any = None,
                          now: dt.datetime | None = None) -> list[dict[str, Any]]:
    """Settle the waiting-list offers of every event (what an organiser's cron runs through
    `puzzlecomp payments offers SLUG`); audited only when something changed."""
    with unit_of_work(OFFERS_SETTLED, championship=championship, user=by) as work:
        changed = []
        for event in Event.objects.filter(championship=championship).select_related(
                "championship").order_by("position"):
            changed += [{"event": event.code, **change}
                        for change in places_settle(event_lock(event), now=now)]
        if not changed:
            work.nothing_changed()
        work.record(changes=changed)
        return changed


def confirmation_link(entry: Entry) -> str:
    """The absolute confirmation address mailed to the entry's contact."""
    path = reverse("public:registration:confirm",
                   kwargs={"slug": entry.event.championship.slug, "token": entry.token})
    return settings.SITE_URL.rstrip("/") + path


def entrant_link(entry: Entry) -> str:
    """The absolute address of the entry's own page (results, disputes, check-in code)."""
    path = reverse("public:disputes:entrant",
                   kwargs={"slug": entry.event.championship.slug, "token": entry.token})
    return settings.SITE_URL.rstrip("/") + path


def event_lock(event: Event) -> Event:
    """The event row, locked until commit: numbers and places are handed out one at a time."""
    return Event.objects.select_for_update().select_related("championship").get(pk=event.pk)


def _others_waiting(event: Event, spec: rules.Event) -> bool:
    return registration_capacity(spec) is not None and waiting_entries(event=event).exists()


def entry_number_next(event: Event) -> int:
    return (Entry.objects.filter(event=event).aggregate(n=Max("number"))["n"] or 0) + 1


def _entry_name(members: Sequence[MemberDetails], team_name: str) -> str:
    if team_name.strip():
        return team_name.strip()[:200]
    return " & ".join(f"{m.first_name.strip()} {m.last_name.strip()}" for m in members)[:200]


def _person_save(member: MemberDetails, matches: list[Person]) -> Person:
    """The stored person (found by email, names and birth date) with today's details."""
    details = {
        "nationality": member.nationality,
        "other_nationalities": list(member.nationalities[1:]),
        "residence": member.residence, "region": member.region,
        "consent_publish": member.consent_publish, "consent_photos": member.consent_photos,
    }
    if member.years_resident is not None:
        details["years_resident"] = member.years_resident
    if not matches:
        return Person.objects.create(
            first_name=member.first_name.strip(), last_name=member.last_name.strip(),
            email=member.email.strip(), birth_date=member.birth_date, **details)
    person = matches[0]
    for field, value in details.items():
        setattr(person, field, value)
    person.save(update_fields=[*details])
    return person


def _ioc(alpha2: str) -> str:
    return ioc_of_code(alpha2) or alpha2


def _amount(money: Money | None) -> str | None:
    return None if money is None else f"{money.amount} {money.currency}"


def _mail_after_commit(entry: Entry, template: str, **context: Any) -> None:
    """Email the entry's contact once the change is committed, in the current language."""
    if not entry.contact_email:
        return
    language = translation.get_language()
    entry_id = entry.pk

    def send() -> None:
        fresh = Entry.objects.select_related("event__championship").get(pk=entry_id)
        with translation.override(language):
            subject = str(SUBJECTS[template] % {
                "event": fresh.event.display_name, "championship": fresh.event.championship.name})
            body = render_to_string(f"emails/{template}.txt", {
                "entry": fresh, "event": fresh.event, "championship": fresh.event.championship,
                "members": fresh.members.select_related("person"),
                "entrant_link": entrant_link(fresh),
                "outside_official": outside_official_ranking(fresh),
                "payment": payment_box(fresh), **context,
            })
        # A subject is one line; a name stored with a break before names were bounded would
        # otherwise fail the mail after the entry is stored.
        message = EmailMessage(" ".join(subject.split()), body, None, [fresh.contact_email])
        qr_png = payment_qr_png(fresh) if template in PAYING_MAILS else None
        if qr_png is not None:
            message.attach("payment-qr.png", qr_png, "image/png")
        message.send()

    transaction.on_commit(send)
