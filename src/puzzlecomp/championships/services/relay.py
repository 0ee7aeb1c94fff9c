"""Relay teams drawn from individual registrations (Czech relay: teams of four drawn at random).

Each person registers alone into the relay event's pool (a one-person entry). The draw turns
each drawn four into one team entry: members, fee and payments move to the team, and the pool
registrations are closed (cancelled without refund; the organiser's list shows them as drawn
into their team). People left over stay in the pool for a later draw.
"""

from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext as _

from puzzlecomp.championships.actions import RELAY_DRAWN
from puzzlecomp.championships.engine import flag_of
from puzzlecomp.championships.models import Entry, EntryMember, EntryStatus, Event, RelayDraw
from puzzlecomp.championships.selectors.registration import event_rules, relay_pool
from puzzlecomp.championships.services.registration import (
    entry_number_next,
    event_lock,
)
from puzzlecomp.championships.services.work import unit_of_work
from puzzlecomp.planning.team_draw import TeamDraw, draw_teams
from puzzlecomp.rules import ruleset as rules
from puzzlecomp.rules.errors import RulesError, violation

# Seeds are drawn below 2**31 so they are short enough to read out and type back in.
SEED_LIMIT = 2**31


@dataclass(frozen=True)
class DrawnTeams:
    """A draw: the engine's result, the team entries created, and the people left over."""

    draw: TeamDraw
    teams: tuple[Entry, ...]
    left_over: tuple[Entry, ...]


def pool_label(entry: Entry) -> str:
    """How a pool registration appears in the draw: name and number, sorted by name."""
    person = entry.members.all()[0].person
    return f"{person.last_name} {person.first_name} (#{entry.number})"


def relay_teams_draw(*, event: Event, by: Any, seed: int | None = None) -> DrawnTeams:
    """Draw the pool into teams at random, reproducibly from `seed` (random when None).

    The seed, the pool and the teams are kept in a RelayDraw, so anyone can repeat the draw
    with `planning.draw_teams(pool, team_size=..., seed=...)`.
    """
    with unit_of_work(RELAY_DRAWN, championship=event.championship, user=by) as work:
        event = event_lock(event)
        ruleset, spec = event_rules(event)
        if not spec.drawn_teams:
            raise RulesError(violation("relay.not_drawn", f"{event.name} has no drawn teams",
                                       event=event.name))
        if seed is None:
            seed = secrets.randbelow(SEED_LIMIT)
        pool = {pool_label(entry): entry for entry in relay_pool(event=event)}
        draw = draw_teams(list(pool), team_size=spec.members_max, seed=seed)
        now = timezone.now()
        first_team = Entry.objects.filter(event=event).exclude(
            status=EntryStatus.CANCELLED).annotate(size=Count("members")).filter(
            size__gt=1).count() + 1
        teams = []
        for index, labels in enumerate(draw.teams):
            drawn = [pool[label] for label in labels]
            teams.append(_team_create(event, spec, drawn, name=_("Team %(number)d") % {
                "number": first_team + index}, now=now))
            Entry.objects.filter(pk__in=[e.pk for e in drawn]).update(
                status=EntryStatus.CANCELLED, cancelled_at=now, refund_amount=None)
        RelayDraw.objects.create(
            event=event, seed=seed, team_size=draw.team_size, pool=sorted(pool),
            teams=[{"number": team.number, "members": list(labels)}
                   for team, labels in zip(teams, draw.teams, strict=True)],
            left_over=list(draw.left_over), drawn_by=work.user)
        work.record(event=event.code, seed=seed, teams=[team.number for team in teams],
                    left_over=len(draw.left_over), currency=ruleset.currency)
        return DrawnTeams(draw, tuple(teams), tuple(pool[label] for label in draw.left_over))


def _team_create(event: Event, spec: rules.Event, drawn: list[Entry], *, name: str,
                 now: dt.datetime) -> Entry:
    """One team entry from drawn pool registrations, carrying over their fees and payments."""
    members = [entry.members.all()[0] for entry in drawn]
    represented = [m.represents.code or m.person.nationality.code for m in members]
    country, mixed = flag_of(spec, represented)
    fees = [e.fee_amount for e in drawn if e.fee_amount is not None]
    paid_at = [e.paid_at for e in drawn if e.paid_at is not None]
    team = Entry.objects.create(
        event=event, number=entry_number_next(event), name=name[:200], country=country, mixed=mixed,
        status=EntryStatus.CONFIRMED, confirmed_at=now,
        contact_email=drawn[0].contact_email,
        fee_amount=sum(fees, Decimal(0)) if fees else None,
        fee_currency=drawn[0].fee_currency,
        paid_amount=sum((e.paid_amount for e in drawn), Decimal(0)),
        paid_at=max(paid_at) if paid_at else None,
    )
    EntryMember.objects.bulk_create(
        EntryMember(entry=team, person=m.person, position=i, represents=m.represents,
                    consent_publish=m.consent_publish, consent_photos=m.consent_photos)
        for i, m in enumerate(members)
    )
    return team
