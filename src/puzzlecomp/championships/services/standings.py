"""Publishing an event's standings and awards: the public site and the API show them from then
on."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from puzzlecomp.championships.actions import STANDINGS_PUBLISHED
from puzzlecomp.championships.models import Event
from puzzlecomp.championships.services.work import unit_of_work


def event_standings_publish(*, event: Event, published: bool, user: Any = None) -> Event:
    """Publish (or withdraw) the event's standings; audited, and announced after commit."""
    if published == (event.standings_published_at is not None):
        return event
    with unit_of_work(STANDINGS_PUBLISHED, championship=event.championship, user=user,
                      event=event.code, published=published):
        event.standings_published_at = timezone.now() if published else None
        event.save(update_fields=["standings_published_at"])
    return event
