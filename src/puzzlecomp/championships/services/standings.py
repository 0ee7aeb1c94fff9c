"""Publishing an event's standings and awards: the public site and the API show them from then
on."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from puzzlecomp.championships.audit import log_action
from puzzlecomp.championships.models import Event
from puzzlecomp.championships.notices import announce


@transaction.atomic
def event_standings_publish(*, event: Event, published: bool, user: Any = None) -> Event:
    """Publish (or withdraw) the event's standings; audited, and announced after commit."""
    if published == (event.standings_published_at is not None):
        return event
    event.standings_published_at = timezone.now() if published else None
    event.save(update_fields=["standings_published_at"])
    championship = event.championship
    announce(championship=championship, round=None, kind="standings")
    log_action(championship, "puzzlecomp.event.standings_published", user=user,
               event=event.code, published=published)
    return event
