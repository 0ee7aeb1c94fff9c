"""Public live results: the rounds, a round's results, its projector screen, an entrant.

Pages are rendered on the server from the round's snapshot, so they work without JavaScript;
results.js and projector.js then follow the live notices and redraw from the same snapshot.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_safe

from puzzlecomp.championships.clock_face import clock_view
from puzzlecomp.championships.messages import messages_of
from puzzlecomp.championships.models import Championship, Round, RoundState
from puzzlecomp.championships.selectors.fairness import shown_difficulties
from puzzlecomp.championships.selectors.publishing import public_entries
from puzzlecomp.live.snapshot import Snapshot
from puzzlecomp.public.live.display import (
    CLOCK_WORDS,
    following_words,
    page_labels,
)
from puzzlecomp.public.live.rendering import tables_html
from puzzlecomp.public.live.round_charts import Chart, entrant_place_chart, round_charts
from puzzlecomp.public.live.selectors import (
    Entrant,
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
    # A page of one group shows that group's clock (groups sharing the tables start apart).
    clock_json = (data.get("group_clocks") or {}).get(group) or data["clock"]
    return render(request, page, {
        "championship": rnd.event.championship,
        "round": rnd,
        "event": rnd.event,
        "clock": clock_view(clock_json, now=timezone.now()),
        "clock_json": clock_json,
        "disputes_close_at": (_instant(data["round"].get("disputes_close_at"))
                              if data["round"]["state"] == "published" else None),
        "tables_html": tables_html(template=tables, rnd=rnd, snapshot=snapshot, data=data,
                                   group=group, words=words, official_ranking=official,
                                   entrant_url=live["entrant_url"]),
        "groups": data["round"]["groups"],
        "group": group,
        "official_ranking": official,
        "labels": page_labels(next_round=words.next_round),
        "following_labels": following_words(),
        "live": live,
        "charts": round_charts(data) if templates == ROUND_PAGE else [],
        # Published by the organiser with the results (docs/seeding.md, Group fairness).
        "group_difficulty": shown_difficulties(rnd.group_difficulty)
        if templates == ROUND_PAGE else {},
    })


@require_safe
def charts(request: HttpRequest, slug: str, round_id: int) -> HttpResponse:
    """The round's charts alone, for results.js to put in place after a live notice."""
    rnd = get_object_or_404(published_rounds(slug), pk=round_id)
    try:
        _, data = snapshot_now(rnd)
    except RulesError:
        raise Http404("the round's rules are incomplete") from None
    return render(request, "public/live/_charts.html", {"charts": round_charts(data)})
def _instant(value: Any) -> dt.datetime | None:
    """A time of the snapshot, which holds it as ISO text once cached as JSON."""
    return dt.datetime.fromisoformat(value) if isinstance(value, str) else value


def _live_attributes(rnd: Round, snapshot: Snapshot, group: str | None) -> dict[str, Any]:
    """What the page's script needs to follow the round (rendered as data- attributes)."""
    slug = rnd.event.championship.slug
    return {
        "slug": slug, "round": rnd.pk, "seq": snapshot.seq, "etag": snapshot.etag,
        "group": group or "",
        "snapshot_url": f"/live/{slug}/rounds/{rnd.pk}/snapshot",
        "entrant_url": entrant_url_prefix(slug, rnd.event.code),
        # A final round, and every round of the archive, changes no more: nothing to follow.
        "follows": not (rnd.event.championship.archived or rnd.state == RoundState.FINAL),
    }


def entrant_url_prefix(slug: str, event_code: str) -> str:
    """The event's entrant pages without the number: the scripts append `<number>/`."""
    return reverse("public:live:entrant", args=[slug, event_code, 0]).removesuffix("0/")


def entrant(request: HttpRequest, slug: str, event_code: str, number: int) -> HttpResponse:
    """An entrant's page: flag, members, and group, table, result and rank in every round."""
    entry = get_object_or_404(public_entries(slug), event__code=event_code, number=number)
    found = entrant_get(entry)
    return render(request, "public/live/entrant.html", {
        "championship": entry.event.championship, "entrant": found,
        "place_charts": _place_charts(found), "labels": _clock_words(),
        "following_labels": following_words(),
    })


@require_safe
def entrant_charts(request: HttpRequest, slug: str, event_code: str,
                   number: int) -> HttpResponse:
    """The entrant's place charts alone, for live-fragment.js after a live notice."""
    entry = get_object_or_404(public_entries(slug), event__code=event_code, number=number)
    return render(request, "public/live/_entrant_charts.html",
                  {"place_charts": _place_charts(entrant_get(entry))})


def _place_charts(found: Entrant) -> list[tuple[Round, Chart]]:
    """The entrant's place through each round they have a result in."""
    shown = []
    for item in found.rounds:
        if item.row is None:
            continue
        try:
            _, data = snapshot_now(item.round)
        except RulesError:
            continue
        chart = entrant_place_chart(data, found.entry.number)
        if chart is not None:
            shown.append((item.round, chart))
    return shown


def _clock_words() -> dict[str, Any]:
    labels = page_labels(next_round="")
    return {key: labels[key] for key in CLOCK_WORDS}
