"""The championship's own public pages: the page that tells its story (with its live part,
fetched again by championship.js), its entrants by country or search, and the streamer's page.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from puzzlecomp.championships.models import Championship, Role
from puzzlecomp.championships.roles import role_of
from puzzlecomp.championships.selectors.results_package import installation_public_key
from puzzlecomp.public.championship.calendar import championship_is_on
from puzzlecomp.public.championship.entrants import (
    FOUND_MOST,
    countries_taking_part,
    country_name,
    entrants_found,
    entrants_listed,
)
from puzzlecomp.public.championship.story import championship_story, live_story
from puzzlecomp.public.championship.stream import OVERLAY_HEIGHT, OVERLAY_WIDTH, overlays_of
from puzzlecomp.public.live.display import CLOCK_WORDS, flag_emoji, page_labels

# The longest search a spectator types (longer text finds no more).
QUERY_MOST = 100


def _published(slug: str) -> Championship:
    return get_object_or_404(Championship, slug=slug, published=True)


def championship(request: HttpRequest, slug: str) -> HttpResponse:
    """What is live now, the leaders, the podiums, the schedule and who takes part."""
    found = _published(slug)
    now = timezone.now()
    story = championship_story(found, now=now)
    listed = entrants_listed(found)
    per_event = Counter(entrant.event.pk for entrant in listed)
    role = role_of(request.user, found)
    return render(request, "public/championship.html", {
        "championship": found, "story": story,
        "events": [(event, per_event[event.pk]) for event in found.events.all()],
        "countries": countries_taking_part(listed),
        "standings_published": found.events.filter(
            standings_published_at__isnull=False).exists(),
        "follows": championship_is_on(found, rounds_live=bool(story.live), now=now),
        "staff": role is not None and role <= Role.JUDGE,
        "labels": _clock_labels(),
        "signing_key": installation_public_key(),
    })


@require_safe
def live_part(request: HttpRequest, slug: str) -> HttpResponse:
    """The page's live part alone, for championship.js to put in place after a notice."""
    found = _published(slug)
    return render(request, "public/championship/_live_now.html", {
        "championship": found, "story": live_story(found, now=timezone.now()),
    })


@require_safe
def entrants(request: HttpRequest, slug: str) -> HttpResponse:
    """The entrants a search finds (`?q=` a name or an entry number), or one country's
    (`?country=` its IOC code); without either, the countries taking part."""
    found = _published(slug)
    query = request.GET.get("q", "").strip()[:QUERY_MOST]
    country = request.GET.get("country", "").strip().upper()[:12]
    listed = entrants_listed(found)
    matching = entrants_found(listed, query=query, country=country)
    return render(request, "public/championship/entrants.html", {
        "championship": found, "query": query, "country": country if not query else "",
        "country_name": country_name(country) if country and not query else "",
        "country_flag": flag_emoji(country) if country else "",
        "entrants": matching[:FOUND_MOST], "more": max(0, len(matching) - FOUND_MOST),
        "total": len(matching), "searched": bool(query or country),
        "countries": countries_taking_part(listed),
    })


@require_safe
def stream(request: HttpRequest, slug: str) -> HttpResponse:
    """Every overlay address for a streaming tool, round by round and group by group."""
    found = _published(slug)
    # The address the crew reached this page at is the one their streaming tool reaches.
    site = request.build_absolute_uri("/").rstrip("/")
    response = render(request, "public/championship/stream.html", {
        "championship": found, "site": site, "rounds": overlays_of(found, site=site),
        "width": OVERLAY_WIDTH, "height": OVERLAY_HEIGHT,
        "copy_labels": {"copy": _("Copy"), "copied": _("Copied")},
    })
    # Meant for the crew: no need for search engines to list it.
    response["X-Robots-Tag"] = "noindex"
    return response


def _clock_labels() -> dict[str, Any]:
    """The words the clocks need as they run (drawClock of results.js)."""
    labels = page_labels(next_round="")
    return {key: labels[key] for key in (*CLOCK_WORDS, "live", "reconnecting")}
