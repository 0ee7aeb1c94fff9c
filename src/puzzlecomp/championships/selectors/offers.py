"""Reads of the waiting list's offers: who is offered a free place, until when, and who waits.

Computed from the stored facts and the clock (rules/payments/offers.py); reading never writes.
The next write (a cancellation, a payment, a statement) or `puzzlecomp payments offers SLUG`
stores what the clock decided and mails the entrants (services/offers.py).
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.utils import timezone

from puzzlecomp.championships.models import Championship, Entry, EntryStatus, Event
from puzzlecomp.championships.selectors.registration import (
    event_rules,
    places_free,
    waiting_entries,
)
from puzzlecomp.rules.payments.offers import Offer, Waiting, offers_at
from puzzlecomp.rules.registration import places_needed


def offers_kept(championship: Championship) -> bool:
    """Whether freed places are offered in turn with a deadline to pay (the organiser's days)."""
    return championship.offer_days is not None


def waiting_offers(event: Event, *, now: dt.datetime | None = None) -> dict[int, Offer]:
    """Each waiting entry's offer state by entry id; empty where the championship makes no
    offers or the event has no capacity."""
    championship = event.championship
    free = places_free(event=event)
    if championship.offer_days is None or free is None:
        return {}
    _, spec = event_rules(event)
    queue = [Waiting(entry.pk, needs=places_needed(spec, people=entry.members.count()),
                     offered_at=entry.offered_at, paid_in_full_at=_paid_in_full_at(entry))
             for entry in waiting_entries(event=event).prefetch_related("members")]
    return {offer.key: offer for offer in offers_at(
        queue, free=free, days=championship.offer_days, now=now or timezone.now())}


def entry_offer(entry: Entry, *, now: dt.datetime | None = None) -> Offer | None:
    """The waiting entry's offer state; None where it does not wait or no offers are made."""
    if entry.status != EntryStatus.WAITING:
        return None
    return waiting_offers(entry.event, now=now).get(entry.pk)


def offered_entry_ids(championship: Championship, *, now: dt.datetime | None = None) -> set[int]:
    """The waiting entries of the championship offered a place right now (they owe their fee)."""
    if championship.offer_days is None:
        return set()
    events = Event.objects.filter(championship=championship,
                                  entries__status=EntryStatus.WAITING).distinct()
    return {key for event in events.select_related("championship")
            for key, offer in waiting_offers(event, now=now).items()
            if offer.state in ("offered", "holds")}


def waiting_count(event: Event, *, now: dt.datetime | None = None) -> int:
    """How many still wait for a place (offered entries included; lapsed ones not)."""
    offers = waiting_offers(event, now=now)
    if not offers:
        return waiting_entries(event=event).count()
    return sum(1 for offer in offers.values() if offer.state in ("waiting", "offered"))


def _paid_in_full_at(entry: Entry) -> dt.datetime | None:
    fee = entry.fee_amount or Decimal(0)
    if fee <= 0:
        return entry.registered_at
    return entry.paid_at if entry.paid_amount >= fee else None
