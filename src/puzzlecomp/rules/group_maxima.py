"""The rulebook's most entrants per group of a round, and the groups that pass it.

wjpc-2025.txt: the first rounds hold "a maximum of 200 participants per group" (teams: 100),
the individual second round and the pairs semifinal "a maximum of 180" per group. The reading
(docs/qualification.md, Group maxima): the maximum is what the organiser plans tables for, not a
qualification rule. The rulebook's own qualification rules (the first 85 of each group, ties at
the cut-off all going, the play-off) come first and may pass it, so a group past its maximum is
warned about, naming the group and its count, wherever groups are formed: `groups`, `advance`
and the organiser's groups and qualifiers screens. Nobody is left out for it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from puzzlecomp.rules.ruleset import Event


@dataclass(frozen=True, slots=True)
class GroupOverMaximum:
    """A group of a round holding more entrants than the rulebook's maximum per group."""

    round_id: str
    group: str
    count: int
    maximum: int

    def __str__(self) -> str:
        return (f"group {self.group} of round {self.round_id} has {self.count} entrants, "
                f"past the maximum of {self.maximum} per group")


def group_maximum(event: Event, round_id: str) -> int | None:
    """The most entrants a group of the round may hold; the first round falls back to the
    event's `max_per_group`. None: the rulebook names none."""
    rnd = event.round(round_id)
    if rnd.max_per_group is not None:
        return rnd.max_per_group
    return event.max_per_group if rnd.id == event.rounds[0].id else None


def groups_over_maximum(event: Event, round_id: str,
                        groups: Iterable[str]) -> list[GroupOverMaximum]:
    """Each group of the round (one item per entrant in it) past the maximum, in group order."""
    maximum = group_maximum(event, round_id)
    if maximum is None:
        return []
    counts = Counter(group for group in groups)
    return [GroupOverMaximum(round_id, group, count, maximum)
            for group, count in sorted(counts.items()) if count > maximum]
