"""Overall standings of an event: finalists first, then each earlier round's eliminated entrants."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from puzzlecomp.rules.conditions import Eligibility, Value
from puzzlecomp.rules.errors import RulesError, violation
from puzzlecomp.rules.ranking import RankedEntry, competition_ranks
from puzzlecomp.rules.results import Entry, Status
from puzzlecomp.rules.ruleset import Event
from puzzlecomp.rules.scoring import SortKey

# DSQ, then outside help, then DNS, as in a round's ranking.
_UNPLACED_ORDER = {Status.DSQ: 0, Status.OUTSIDE_HELP: 1, Status.DNS: 2}


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
    furthest: dict[str, tuple[int, str, RankedEntry]] = {}
    for round_id in sorted(round_rankings, key=order.__getitem__):
        for line in round_rankings[round_id]:
            furthest[line.entry.id] = (order[round_id], round_id, line)

    ordered: list[tuple[str, RankedEntry]] = []
    place_keys: list[tuple[int, int, SortKey]] = []
    for tier in sorted({tier for tier, _, _ in furthest.values()}, reverse=True):
        reached = [(round_id, line) for t, round_id, line in furthest.values() if t == tier]
        placed = sorted(
            (item for item in reached if item[1].rank is not None),
            key=lambda item: (_group_rank_and_score(item[1]), item[1].entry.id),
        )
        unplaced = sorted(
            (item for item in reached if item[1].rank is None),
            key=lambda item: (_UNPLACED_ORDER[item[1].score.status], item[1].entry.id),
        )
        ordered.extend(placed + unplaced)
        # Later rounds come first, so the tier counts down in the place key.
        place_keys.extend((-tier, *_group_rank_and_score(line)) for _, line in placed)
    placed_ids = [line.entry.id for _, line in ordered if line.rank is not None]
    places = dict(zip(placed_ids, competition_ranks(place_keys), strict=True))
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


def official_places(
    standings: Sequence[StandingLine],
    official: Eligibility | None,
    *,
    settings: Mapping[str, Value] | None = None,
) -> dict[str, int | None]:
    """Each entrant's place in the official ranking (entry id -> place), None outside it.

    The official ranking is the standings of the entrants the ruleset's official ranking admits
    (Norway: citizens or 5 years' residence; Czech: residence), placed among themselves in the
    same order, ties shared. Empty when the ruleset has no official ranking.
    """
    if official is None:
        return {}
    kept = renumbered(standings, lambda line: official.admits(line.entry.members, settings))
    places: dict[str, int | None] = {line.entry.id: None for line in standings}
    places.update((line.entry.id, line.place) for line in kept)
    return places


def _group_rank_and_score(line: RankedEntry) -> tuple[int, SortKey]:
    """How entrants of parallel groups interleave: rank in their own group, then the score."""
    assert line.rank is not None
    assert line.score.sort_key is not None
    return (line.rank, line.score.sort_key)
