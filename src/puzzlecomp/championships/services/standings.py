"""Publishing an event's standings and awards: the public site and the API show them from then
on."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from puzzlecomp.championships.actions import STANDINGS_PUBLISHED
from puzzlecomp.championships.models import Event
from puzzlecomp.championships.selectors.rounds import event_rounds_to_come
from puzzlecomp.championships.services.work import unit_of_work
from puzzlecomp.rules.guards import event_not_final_guard


def event_standings_publish(*, event: Event, published: bool, user: Any = None,
                            knowingly: int | None = None) -> Event:
    """Publish (or withdraw) the event's standings; audited, and announced after commit.

    RulesError `guard.event_not_final` when publishing while rounds of the event are not
    final, unless `knowingly` is how many (the audit records which).
    """
    if published == (event.standings_published_at is not None):
        return event
    to_come = [r.name for r in event_rounds_to_come(event.pk)] if published else []
    event_not_final_guard(to_come, knowingly=knowingly)
    with unit_of_work(STANDINGS_PUBLISHED, championship=event.championship, user=user,
                      event=event.code, published=published) as work:
        if to_come:
            work.record(rounds_not_final=to_come)
        event.standings_published_at = timezone.now() if published else None
        event.save(update_fields=["standings_published_at"])
    return event
