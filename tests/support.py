"""Championships the tests start from: a published edition of a ruleset and its rounds."""

from __future__ import annotations

import datetime as dt

from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone

from puzzlecomp.championships.models import Championship, Round
from puzzlecomp.championships.services.setup import championship_create


def published_championship(name: str, *, ruleset_id: str = "wjpc-2025",
                           starts_at: dt.datetime | None = None,
                           venue: str = "") -> Championship:
    """A published championship of the ruleset, starting tomorrow unless told otherwise."""
    championship = championship_create(
        ruleset_id=ruleset_id, name=name, venue=venue,
        starts_at=starts_at or timezone.now() + dt.timedelta(days=1))
    championship.published = True
    championship.save()
    return championship


def round_of(championship: Championship, event: str = "individual",
             code: str = "first") -> Round:
    return Round.objects.select_related("event__championship").get(
        event__championship=championship, event__code=event, code=code)


def url_routes() -> list[str]:
    """Every URL pattern of the site as a route ("c/<slug:slug>/results/..."), found by walking
    the URLconf, so tests that visit every page need no list of them."""
    found: list[str] = []

    def walk(patterns: list[URLPattern | URLResolver], prefix: str) -> None:
        for pattern in patterns:
            route = prefix + str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, route)
            else:
                found.append(route)

    walk(get_resolver().url_patterns, "")
    return found
