"""Public live results: the rounds, a round's results, its projector screen, an entrant.

Pages are rendered on the server from the round's snapshot, so they work without JavaScript;
results.js and projector.js then follow the live notices and redraw from the same snapshot.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone

from puzzlecomp.championships.messages import messages_of
from puzzlecomp.championships.models import Championship, Round
from puzzlecomp.championships.selectors.publishing import public_entries
from puzzlecomp.live.snapshot import Snapshot
from puzzlecomp.public.live.display import clock_view, page_labels
from puzzlecomp.public.live.rendering import tables_html
from puzzlecomp.public.live.selectors import (
    entrant_get,
    official_ranking_of,
    published_rounds,
    results_index,
    snapshot_now,
    words_of,
)
from puzzlecomp.rules.errors import RulesError

# A round page's template and the partial of its results tables (cached apart, see rendering).
ROUND_PAGE = ("public/live/round.html", "public/live/_tables.html")
PROJECTOR_PAGE = ("public/live/projector.html", "public/live/_projector_tables.html")


def index(request: HttpRequest, slug: str) -> HttpResponse:
    """Every event with its rounds and the state each round is in."""
    championship = get_object_or_404(Championship, slug=slug, published=True)
    return render(request, "public/live/index.html", {
        "championship": championship, "events": results_index(championship),
    })


def round_results(request: HttpRequest, slug: str, round_id: int) -> HttpResponse:
    """A round's results, one table per group (`?group=` for one)."""
    return _round_page(request, slug, round_id, ROUND_PAGE)


def projector(request: HttpRequest, slug: str, round_id: int) -> HttpResponse:
    """The round's results on the hall's projector: big clock, pages of results."""
    return _round_page(request, slug, round_id, PROJECTOR_PAGE)


def _round_page(request: HttpRequest, slug: str, round_id: int,
                templates: tuple[str, str]) -> HttpResponse:
    rnd = get_object_or_404(published_rounds(slug), pk=round_id)
    group = request.GET.get("group") or None
    if group is not None and group not in (rnd.groups or []):
        raise Http404("no such group in this round")
    try:
        snapshot, data = snapshot_now(rnd)
    except RulesError as error:
        # The organiser has not given the round what its rules need (time limit, puzzle size).
        return render(request, "public/live/unavailable.html", {
            "championship": rnd.event.championship, "round": rnd, "event": rnd.event,
            "missing": messages_of(error),
        })
    page, tables = templates
    words = words_of(rnd)
    official = official_ranking_of(rnd) if data["round"]["official_ranking"] else None
    live = _live_attributes(rnd, snapshot, group)
    return render(request, page, {
        "championship": rnd.event.championship,
        "round": rnd,
        "event": rnd.event,
        "clock": clock_view(data["clock"], now=timezone.now()),
        "clock_json": data["clock"],
        "tables_html": tables_html(template=tables, rnd=rnd, snapshot=snapshot, data=data,
                                   group=group, words=words, official_ranking=official,
                                   entrant_url=live["entrant_url"]),
        "groups": data["round"]["groups"],
        "group": group,
        "official_ranking": official,
        "labels": page_labels(next_round=words.next_round),
        "live": live,
    })


def _live_attributes(rnd: Round, snapshot: Snapshot, group: str | None) -> dict[str, Any]:
    """What the page's script needs to follow the round (rendered as data- attributes)."""
    slug = rnd.event.championship.slug
    return {
        "slug": slug, "round": rnd.pk, "seq": snapshot.seq, "etag": snapshot.etag,
        "group": group or "",
        "snapshot_url": f"/live/{slug}/rounds/{rnd.pk}/snapshot",
        "entrant_url": entrant_url_prefix(slug, rnd.event.code),
    }


def entrant_url_prefix(slug: str, event_code: str) -> str:
    """The event's entrant pages without the number: the scripts append `<number>/`."""
    return reverse("public:live:entrant", args=[slug, event_code, 0]).removesuffix("0/")


def entrant(request: HttpRequest, slug: str, event_code: str, number: int) -> HttpResponse:
    """An entrant's page: flag, members, and group, table, result and rank in every round."""
    entry = get_object_or_404(public_entries(slug), event__code=event_code, number=number)
    return render(request, "public/live/entrant.html", {
        "championship": entry.event.championship, "entrant": entrant_get(entry),
    })
