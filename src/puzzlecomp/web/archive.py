"""Archived championships are read-only: one guard for every page that changes one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseForbidden
from django.utils.translation import gettext as _

from puzzlecomp.championships.models import Championship

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


class ArchivedReadOnlyMiddleware:
    """Refuses any write to a championship of the archive (`puzzlecomp archive import`).

    Every page of a championship takes its `slug`, so this one check covers the organiser's,
    the judges' and the public pages alike.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view: Any, args: Any,
                     kwargs: dict[str, Any]) -> HttpResponse | None:
        slug = kwargs.get("slug")
        if request.method in SAFE_METHODS or slug is None:
            return None
        if Championship.objects.filter(slug=slug, archived=True).exists():
            return HttpResponseForbidden(
                _("This championship is in the archive: its results cannot be changed."))
        return None
