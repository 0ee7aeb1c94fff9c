"""Standings and awards as the public reads them: only events whose standings the organiser
published, names only with the members' consent (selectors.publishing)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from puzzlecomp.championships.models import Championship
from puzzlecomp.championships.selectors.standings import event_standings_get
from puzzlecomp.public.live.display import following_words
from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.subcategories import OVERALL

# A phone on slow 3G gets the first hundred places in about a second (bench/page_weight.py);
# the WJPC individual standings hold 1,200.
ROWS_PER_PAGE = 100


def standings(request: HttpRequest, slug: str, event_code: str | None = None) -> HttpResponse:
    """An event's prizes and standings (the first published event's without a code)."""
    championship = get_object_or_404(Championship, slug=slug, published=True)
    published = list(championship.events.filter(standings_published_at__isnull=False))
    if event_code is None and not published:
        return render(request, "public/standings/none.html", {"championship": championship})
    chosen = next((e for e in published if event_code in (None, e.code)), None)
    if chosen is None:
        raise Http404
    chosen.championship = championship
    category = request.GET.get("category", OVERALL)
    try:
        found = event_standings_get(event=chosen)
        rows = found.rows(category, public=True)
        awards = [a for a in found.award_rows(public=True) if a.category == category]
    except RulesError:
        raise Http404 from None
    sections = ([{"category": next(c for c in found.categories if c.id == category),
                  "rows": awards}] if awards else [])
    pages = max(1, -(-len(rows) // ROWS_PER_PAGE))
    page = _page_number(request.GET.get("page"), pages)
    return render(request, "public/standings/event.html", {
        "championship": championship, "event": chosen, "events": published,
        "standings": found, "category": category, "sections": sections,
        "rows": rows[(page - 1) * ROWS_PER_PAGE:page * ROWS_PER_PAGE],
        "page": page, "pages": range(1, pages + 1),
        "page_query": "" if category == OVERALL else f"&category={category}",
        "following_labels": following_words(),
    })


def _page_number(asked: str | None, pages: int) -> int:
    """The page asked for (`?page=`), within the pages there are."""
    try:
        return min(max(1, int(asked or 1)), pages)
    except ValueError:
        return 1
