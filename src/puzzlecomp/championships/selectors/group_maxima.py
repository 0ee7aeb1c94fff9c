"""Groups of a round past the rulebook's maximum per group, in the organiser's words
(rules.group_maxima holds the reading: warned, never refused)."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext as _

from puzzlecomp.championships.models import Round
from puzzlecomp.rules.group_maxima import groups_over_maximum
from puzzlecomp.rules.loading import load_ruleset


def group_maxima_warnings(rnd: Round, groups: Iterable[str]) -> list[str]:
    """One sentence per group of `rnd` (one item of `groups` per entrant) past its maximum."""
    event = load_ruleset(rnd.event.championship.ruleset_id).event(rnd.event.code)
    try:
        over = groups_over_maximum(event, rnd.code, (group for group in groups if group))
    except KeyError:  # a round of the organiser's own: the rulebook names no maximum
        return []
    return [_("Group %(group)s of %(round)s has %(count)s entrants, past the rulebook's "
              "maximum of %(maximum)s per group.")
            % {"group": o.group, "round": rnd.display_name, "count": o.count,
               "maximum": o.maximum} for o in over]
