"""The streamer's page: every overlay address of every round and group, with what each shows.

The overlays themselves are public pages (public/live/screens.py); this lists them so a
streaming crew pastes addresses instead of composing them.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from puzzlecomp.championships.models import Championship, Round
from puzzlecomp.public.live.broadcast import LATEST_SHOWN, TOP_MOST
from puzzlecomp.public.live.display import group_heading
from puzzlecomp.public.live.screens import OVERLAYS, TOP_DEFAULT
from puzzlecomp.rules.spectating import LIVE_STATES

# The size every overlay is laid out for (a streaming tool's browser source).
OVERLAY_WIDTH, OVERLAY_HEIGHT = 1920, 1080


@dataclass(frozen=True)
class OverlayKind:
    kind: str
    name: str
    shows: str
    # Whether one group may be asked for (?group=).
    by_group: bool
    # What the address must carry (the lower third's entry number, shown with an example).
    example: tuple[tuple[str, int], ...] = ()


def overlay_kinds() -> dict[str, OverlayKind]:
    """Each overlay with what it shows, in the page's language."""
    return {kind.kind: kind for kind in (
        OverlayKind("clock", _("Clock"),
                    _("The round's name, its state and the time left (with a group: that "
                      "group's clock)."), True),
        OverlayKind("latest", _("Latest finishes"),
                    ngettext("The last %(count)s entrant to finish.",
                             "The last %(count)s entrants to finish, the latest first.",
                             LATEST_SHOWN) % {"count": LATEST_SHOWN}, True),
        OverlayKind("top", _("Top of each group"),
                    ngettext("The first %(count)s of each group; n= asks for more "
                             "(up to %(most)s).",
                             "The first %(count)s of each group in ranking order; n= asks for "
                             "another number (up to %(most)s).", TOP_DEFAULT)
                    % {"count": TOP_DEFAULT, "most": TOP_MOST}, True),
        OverlayKind("lower-third", _("Lower third"),
                    _("One entrant's name, flag, place and time: put their entry number after "
                      "entry=."), False, (("entry", 1),)),
        OverlayKind("podium", _("Podium"),
                    _("Places one to three of each group once they have finished."), True),
    )}




@dataclass(frozen=True)
class OverlayLink:
    kind: OverlayKind
    # "" for the whole round, else the group's heading.
    group: str
    url: str


@dataclass(frozen=True)
class RoundOverlays:
    round: Round
    live: bool
    links: list[OverlayLink]


def overlays_of(championship: Championship, *, site: str) -> list[RoundOverlays]:
    """Every round of the championship in order, with the absolute address of each overlay
    for the whole round and for each of its groups."""
    kinds = [overlay_kinds()[kind] for kind in OVERLAYS]
    found = []
    for rnd in (Round.objects.filter(event__championship=championship)
                .select_related("event").order_by("event__position", "position")):
        found.append(RoundOverlays(rnd, rnd.state in LIVE_STATES,
                                   _links(championship, rnd, kinds, site=site)))
    return found


def _links(championship: Championship, rnd: Round, kinds: list[OverlayKind], *,
           site: str) -> list[OverlayLink]:
    links: list[OverlayLink] = []
    groups = list(rnd.groups or []) if len(rnd.groups or []) > 1 else []
    for kind in kinds:
        base = site + reverse("public:live:overlay",
                              args=[championship.slug, rnd.pk, kind.kind])
        links.append(OverlayLink(kind, "", f"{base}?{urlencode(kind.example)}"
                                 if kind.example else base))
        if kind.by_group:
            links += [OverlayLink(kind, group_heading(group),
                                  f"{base}?{urlencode({'group': group})}") for group in groups]
    return links
