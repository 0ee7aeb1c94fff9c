"""Overall standings of an event: finalists first, then each earlier round's eliminated entrants."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from puzzlecomp.rules.errors import RulesError, violation
from puzzlecomp.rules.ranking import RankedEntry, competition_ranks
from puzzlecomp.rules.results import Entry, Status
from puzzlecomp.rules.ruleset import Event
from puzzlecomp.rules.scoring import SortKey

# DSQ before DNS, as in a round's ranking.
_UNPLACED_ORDER = {Status.DSQ: 0, Status.DNS: 1}


@dataclass(frozen=True, slots=True)
class StandingLine:
    """One entrant in a list of standings: its place there, its overall place, how far it got."""

    # Place in this list (overall, a subcategory, or the eligible entrants); None for DSQ/DNS.
    place: int | None
    overall_place: int | None
    # The furthest round the entrant competed in, and its line of that round's ranking.
    round_id: str
    ranked: RankedEntry

    @property
    def entry(self) -> Entry:
        return self.ranked.entry

    @property
    def round_rank(self) -> int | None:
        """The entrant's rank in its own group of its furthest round."""
        return self.ranked.rank


def event_standings(
    round_rankings: Mapping[str, Sequence[RankedEntry]], event: Event
) -> list[StandingLine]:
    """Everyone who competed, best first: by the furthest round reached, then as that round ranked.

    Within a round, entrants of parallel groups interleave by their rank in their own group, then
    by score (final time, then pieces); equal rank and equal score share a place. Entrants with no
    rank in their furthest round (DSQ, then DNS) follow that round's ranked entrants and get no
    place. Places are standard competition ranking over the placed entrants.
    Raises RulesError for a round the event does not have.
    """
    order = {rnd.id: index for index, rnd in enumerate(event.rounds)}
    unknown = [round_id for round_id in round_rankings if round_id not in order]
    if unknown:
        known = ", ".join(order)
        raise RulesError(
            [
                violation(
                    "round.unknown",
                    f"event {event.id} has no round {round_id!r}; known: {known}",
                    field="round",
                    round=round_id,
                )
                for round_id in unknown
            ]
        )
    furthest: dict[str, tuple[str, RankedEntry]] = {}
    for round_id in sorted(round_rankings, key=order.__getitem__):
        for line in round_rankings[round_id]:
            furthest[line.entry.id] = (round_id, line)

    def position(item: tuple[str, RankedEntry]) -> tuple[int, int, object, str]:
        round_id, line = item
        tier = -order[round_id]
        if line.rank is None:
            return (tier, 1, (_UNPLACED_ORDER[line.score.status], 0), line.entry.id)
        return (tier, 0, (line.rank, _sort_key(line)), line.entry.id)

    ordered = sorted(furthest.values(), key=position)
    placed = [item for item in ordered if item[1].rank is not None]
    places = dict(
        zip(
            (line.entry.id for _, line in placed),
            competition_ranks([position(item)[:3] for item in placed]),
            strict=True,
        )
    )
    return [
        StandingLine(places.get(line.entry.id), places.get(line.entry.id), round_id, line)
        for round_id, line in ordered
    ]


def renumbered(
    standings: Sequence[StandingLine], keep: Callable[[StandingLine], bool]
) -> list[StandingLine]:
    """The kept lines in the same order, placed among themselves; shared places stay shared."""
    kept = [line for line in standings if keep(line)]
    placed = [line for line in kept if line.place is not None]
    places = dict(
        zip(
            (line.entry.id for line in placed),
            competition_ranks([line.place for line in placed]),
            strict=True,
        )
    )
    return [replace(line, place=places.get(line.entry.id)) for line in kept]


def _sort_key(line: RankedEntry) -> SortKey:
    key = line.score.sort_key
    assert key is not None
    return key
