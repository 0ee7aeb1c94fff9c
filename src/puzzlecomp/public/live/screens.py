"""Screens made for others' cameras and walls: a streaming tool's overlays (transparent,
1920 x 1080) and the hall projector whose scene the head judge switches.

Each screen is a page around one fragment; live-fragment.js fetches the fragment again
(`?part=1`) when a live notice says that what it shows changed.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.views.decorators.http import require_safe

from puzzlecomp.championships.clock_face import clock_view
from puzzlecomp.championships.models import Championship, ProjectorScene, Round
from puzzlecomp.public.live import broadcast
from puzzlecomp.public.live.display import CLOCK_WORDS, page_labels
from puzzlecomp.public.live.selectors import published_rounds, snapshot_now, words_of
from puzzlecomp.rules.errors import RulesError

OVERLAYS = ("clock", "latest", "top", "lower-third", "podium")
TOP_DEFAULT = 10
# Rows of each group on the projector's results scene: up to three groups side by side fit
# 18 rows; more groups go on two lines of three.
SCENE_ROWS_WIDE, SCENE_ROWS_GRID = 18, 6


def _number(request: HttpRequest, name: str, default: int | None, low: int, high: int) -> int:
    try:
        value = int(request.GET.get(name, default))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise Http404(f"{name} must be a number") from None
    return min(high, max(low, value))


def _round_context(rnd: Round, group: str | None = None) -> dict[str, Any]:
    """The round's (or one group's) clock and words, and its snapshot's values (None: its
    rules incomplete). Groups sharing the tables start apart: a group's screen shows its own
    clock, waiting while another group is at the tables."""
    try:
        _, data = snapshot_now(rnd)
    except RulesError:
        return {"round": rnd, "event": rnd.event, "data": None}
    clock = (data.get("group_clocks") or {}).get(group) or data["clock"]
    return {"round": rnd, "event": rnd.event, "data": data, "words": words_of(rnd),
            "clock": clock_view(clock, now=timezone.now()), "clock_json": clock}


@require_safe
def overlay(request: HttpRequest, slug: str, round_id: int, kind: str) -> HttpResponse:
    """One overlay of the round: `?group=`, `?n=` (top N) and `?entry=` (lower third)."""
    rnd = get_object_or_404(published_rounds(slug), pk=round_id)
    if kind not in OVERLAYS:
        raise Http404("no such overlay")
    group = request.GET.get("group") or None
    if group is not None and group not in (rnd.groups or []):
        raise Http404("no such group in this round")
    context = _round_context(rnd, group)
    data, words = context["data"], context.get("words")
    if data is not None and words is not None:
        if kind == "latest":
            context["rows"] = broadcast.latest_finishes(data, words, group=group)
        elif kind == "top":
            context["groups"] = broadcast.top_rows(
                data, words, group=group,
                count=_number(request, "n", TOP_DEFAULT, 1, broadcast.TOP_MOST))
        elif kind == "podium":
            context["groups"] = broadcast.podium(data, words, group=group)
        elif kind == "clock" and group is None:
            context["tables"] = broadcast.groups_at_tables(data)
        elif kind == "lower-third":
            row = broadcast.entrant_row(data, words, _number(request, "entry", None, 1, 10**6))
            if row is None:
                raise Http404("no such entry in this round")
            context["row"] = row
    context.update(kind=kind, group=group,
                   part=f"public/live/overlays/_{kind.replace('-', '_')}.html")
    return _screen(request, rnd.event.championship, context, follows=rnd, body="overlay")


@require_safe
def hall(request: HttpRequest, slug: str) -> HttpResponse:
    """The hall's projector: the scene the head judge chose (of one group, or of every group),
    with the message sent with it, switched live."""
    championship = get_object_or_404(Championship, slug=slug, published=True)
    scene = championship.projector_scene
    rnd = championship.projector_round
    group = championship.projector_group or None
    context: dict[str, Any] = {"scene": scene, "message": championship.projector_message,
                               "part": "public/live/scenes/_scene.html"}
    if rnd is not None and scene != ProjectorScene.MESSAGE:
        rnd.event.championship = championship
        if group not in (rnd.groups or []):
            group = None
        context.update(_round_context(rnd, group), group=group)
        data, words = context["data"], context.get("words")
        if data is not None and words is not None:
            groups = [group] if group else data["round"]["groups"] or [""]
            if scene == ProjectorScene.RESULTS:
                context["groups"] = broadcast.top_rows(
                    data, words, group=group,
                    count=SCENE_ROWS_WIDE if len(groups) <= 3 else SCENE_ROWS_GRID)
            elif scene == ProjectorScene.PODIUM:
                context["groups"] = broadcast.podium(data, words, group=group)
            elif scene == ProjectorScene.QUALIFIERS:
                context["groups"] = broadcast.qualifiers(data, words, group=group)
                # The event's last round (the final) has no qualifiers: it says so.
                context["last_round"] = not rnd.event.rounds.filter(
                    position__gt=rnd.position).exists()
            elif scene == ProjectorScene.CLOCK and group is None:
                context["tables"] = broadcast.groups_at_tables(data)
            if group and "groups" in context:
                # The title names the one group shown: no heading repeats it.
                context["groups"] = [replace(g, heading="") for g in context["groups"]]
    return _screen(request, championship, context, follows=rnd, body="hall")


def _clock_labels() -> dict[str, Any]:
    """The words the clock needs as it runs (drawClock of results.js)."""
    labels = page_labels(next_round="")
    return {key: labels[key] for key in (*CLOCK_WORDS, "live", "reconnecting")}


def _screen(request: HttpRequest, championship: Championship, context: dict[str, Any], *,
            follows: Round | None, body: str) -> HttpResponse:
    context.update(championship=championship, follows=follows.pk if follows else "",
                   body=body, labels=_clock_labels())
    if request.GET.get("part"):
        return render(request, context["part"], context)
    return render(request, "public/live/screen.html", context)
