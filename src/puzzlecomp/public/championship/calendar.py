"""The home page's lists: championships live now, upcoming and past (published ones only; the
archive's championships are past)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.utils import timezone

from puzzlecomp.championships.models import Championship, Round
from puzzlecomp.rules.spectating import LIVE_STATES, Phase, championship_phase


@dataclass
class Calendar:
    live: list[Championship] = field(default_factory=list)
    upcoming: list[Championship] = field(default_factory=list)
    past: list[Championship] = field(default_factory=list)


def championships_calendar(*, now: dt.datetime) -> Calendar:
    """Published championships by phase: live ones and upcoming ones soonest first, past ones
    latest first."""
    today = timezone.localdate(now)
    running = set(Round.objects.filter(event__championship__published=True,
                                       state__in=LIVE_STATES)
                  .values_list("event__championship_id", flat=True))
    calendar = Calendar()
    for championship in Championship.objects.filter(published=True).order_by("starts_at", "pk"):
        phase = championship_phase(
            starts_on=timezone.localdate(championship.starts_at), ends_on=championship.ends_on,
            rounds_live=championship.pk in running, archived=championship.archived, today=today)
        {Phase.LIVE: calendar.live, Phase.UPCOMING: calendar.upcoming,
         Phase.PAST: calendar.past}[phase].append(championship)
    calendar.past.reverse()
    return calendar


def championship_is_on(championship: Championship, *, rounds_live: bool,
                       now: dt.datetime) -> bool:
    """Whether the championship is live now (its page then follows the live notices)."""
    return championship_phase(
        starts_on=timezone.localdate(championship.starts_at), ends_on=championship.ends_on,
        rounds_live=rounds_live, archived=championship.archived,
        today=timezone.localdate(now)) == Phase.LIVE
