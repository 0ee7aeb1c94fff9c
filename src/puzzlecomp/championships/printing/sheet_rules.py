"""What a judge's printed result sheet says of its round: start, limit, puzzle, and which facts
the round's ruleset records (the same the judge's phone asks)."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import formats, timezone
from django.utils.translation import gettext as _

from puzzlecomp.championships.engine import round_rules
from puzzlecomp.championships.models import Round
from puzzlecomp.championships.selectors.rounds import group_starts_get
from puzzlecomp.rules.missing_pieces import missing_breakdown


@dataclass(frozen=True)
class SheetRules:
    """What a judge's result sheet needs of the round: when and how long, which puzzle, and
    what the ruleset records (rules.missing_pieces, the ruleset's counting)."""

    start: str
    limit_minutes: int
    puzzle_sizes: tuple[int, ...]
    missing_breakdown: tuple[str, ...]
    count_remaining: bool
    min_cluster: int

    def line(self) -> str:
        sizes = " + ".join(str(size) for size in self.puzzle_sizes if size)
        return " · ".join([
            _("Start %(start)s") % {"start": self.start or _("not set yet")},
            _("Limit %(minutes)s min") % {"minutes": self.limit_minutes},
            _("Puzzle %(pieces)s pieces") % {"pieces": sizes or "?"},
        ])


def sheet_rules_get(rnd: Round, group: str) -> SheetRules:
    """The sheet's facts for one group of the round (the round as a whole when `group` is "")."""
    rules = round_rules(rnd)
    starts = {start.group: start for start in group_starts_get(rnd)}
    facts = starts.get(group)
    started = facts.started_at if facts else None
    start = started or (facts.planned_at if facts else None) or rnd.starts_at
    # A start the head judge gave is exact to the second; a planned one to the minute.
    shown = (formats.date_format(timezone.localtime(start), "j N Y, H:i:s" if started
                                 else "j N Y, H:i") if start else "")
    return SheetRules(
        start=shown, limit_minutes=rules.time_limit_seconds // 60,
        puzzle_sizes=rules.puzzle_sizes,
        missing_breakdown=missing_breakdown(rules.ruleset.penalty),
        count_remaining=rules.ruleset.counting.record == "remaining",
        min_cluster=rules.ruleset.counting.min_cluster)
