"""Every page of a championship in its own time zone: dates and times in templates, forms
(a start typed by the organiser), PDFs and emails sent from the request are read and written
where the championship is held (championships/time_zones.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from puzzlecomp.championships.models import Championship
from puzzlecomp.championships.time_zones import championship_zone


class ChampionshipTimeZoneMiddleware:
    """Activates the championship's zone for a request whose URL names one (its `slug`),
    the site's TIME_ZONE otherwise; a request thread never keeps the previous one's zone."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        timezone.deactivate()
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()

    def process_view(self, request: HttpRequest, view: Any, args: Any,
                     kwargs: dict[str, Any]) -> None:
        slug = kwargs.get("slug")
        if slug is None:
            return
        zone = Championship.objects.filter(slug=slug).values_list("time_zone", flat=True).first()
        if zone is not None:
            timezone.activate(championship_zone(Championship(time_zone=zone)))
