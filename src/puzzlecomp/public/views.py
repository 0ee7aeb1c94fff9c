"""Public pages: only what an organiser has published."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone

from puzzlecomp.championships.models import Championship, Round
from puzzlecomp.championships.selectors.rounds import group_schedule_get, rounds_read_now
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


def schedule(request: HttpRequest, slug: str) -> HttpResponse:
    """When each round starts, and each group of a round whose groups share the tables."""
    championship = get_object_or_404(Championship, slug=slug, published=True)
    now = timezone.now()
    rounds = rounds_read_now(Round.objects.filter(event__championship=championship)
                             .select_related("event")
                             .order_by("event__position", "position"), now=now)
    return render(request, "public/schedule.html", {
        "championship": championship,
        "rounds": [(rnd, group_schedule_get(rnd, now=now)) for rnd in rounds],
    })
