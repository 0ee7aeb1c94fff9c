"""The organiser publishes each group's puzzle difficulty with a round's results, or takes it
back (issue 15, group fairness after a round; docs/seeding.md, Group fairness)."""

from __future__ import annotations

from typing import Any

from puzzlecomp.championships.actions import GROUP_DIFFICULTY_SET
from puzzlecomp.championships.models import Round, RoundState
from puzzlecomp.championships.selectors.fairness import (
    round_group_difficulties,
    stored_difficulties,
)
from puzzlecomp.championships.services.work import unit_of_work
from puzzlecomp.rules.errors import RulesError, violation

_DONE_STATES = (RoundState.PUBLISHED, RoundState.FINAL)


def group_difficulty_publish(*, round: Round, publish: bool,
                             user: Any = None) -> list[dict[str, Any]]:
    """Publish the groups' difficulty as it stands now with the round's results (`publish`), or
    take it off the results page; the figures published.

    RulesError when the round's results are not published or it has nothing to compare
    (one group, several puzzles).
    """
    rnd = round
    if publish and rnd.state not in _DONE_STATES:
        raise RulesError(violation("fairness.results_not_published",
                                   "the group difficulty is published with the results: "
                                   "publish the round's results first", field="round"))
    figures = stored_difficulties(round_group_difficulties(rnd)) if publish else []
    if publish and not any(f["percent"] is not None for f in figures):
        raise RulesError(violation("fairness.nothing_to_compare",
                                   "no two groups have enough entrants with history to "
                                   "compare", field="round"))
    with unit_of_work(GROUP_DIFFICULTY_SET, championship=rnd.event.championship, user=user,
                      round=rnd, published=publish):
        Round.objects.filter(pk=rnd.pk).update(group_difficulty=figures)
        rnd.group_difficulty = figures
    return figures
