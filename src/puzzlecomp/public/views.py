"""Public pages: only what an organiser has published."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone

from puzzlecomp.championships.models import Championship, Round
from puzzlecomp.championships.selectors.rounds import group_schedule_get, rounds_read_now
from puzzlecomp.public.championship.calendar import championships_calendar


def home(request: HttpRequest) -> HttpResponse:
    """The championships live now, upcoming and past."""
    return render(request, "public/home.html",
                  {"calendar": championships_calendar(now=timezone.now())})


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
