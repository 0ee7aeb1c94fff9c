"""Public pages: only what an organiser has published."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from puzzlecomp.championships.models import Championship
from puzzlecomp.public.live.selectors import live_rounds


def home(request: HttpRequest) -> HttpResponse:
    championships = Championship.objects.filter(published=True)
    return render(request, "public/home.html", {"championships": championships})


def championship(request: HttpRequest, slug: str) -> HttpResponse:
    championship = get_object_or_404(Championship, slug=slug, published=True)
    return render(request, "public/championship.html", {
        "championship": championship, "events": championship.events.all(),
        "live_rounds": live_rounds(championship),
        "standings_published": championship.events.filter(
            standings_published_at__isnull=False).exists(),
    })
