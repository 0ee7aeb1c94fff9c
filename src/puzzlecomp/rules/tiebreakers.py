"""Subcategory tiebreakers (wjpc-2025.txt, Subcategories (*)): "If there aren't enough
participants in the finals of any subcategory, a tiebreaker will be held between the top 5
finishers in the final round before they are eliminated."

Readings (docs/standings-and-awards.md): "enough" is the subcategory's prize places; the five
are the subcategory's best entrants eliminated before the final, by their overall place (ties at
the fifth place all take part); the tiebreaker's ranking fills the places after the finalists.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from puzzlecomp.rules.conditions import Value
from puzzlecomp.rules.errors import RulesError, RuleViolation, violation
from puzzlecomp.rules.ranking import RankedEntry
from puzzlecomp.rules.ruleset import Event
from puzzlecomp.rules.standings import StandingLine
from puzzlecomp.rules.subcategories import subcategory_standings


@dataclass(frozen=True, slots=True)
class TiebreakerCall:
    """A subcategory whose prizes the final leaves unfilled, and who holds its tiebreaker."""

    category: str
    final_round: str
    # Prize places the finalists of the subcategory leave open.
    open_places: int
    entrants: tuple[StandingLine, ...]


def tiebreakers_needed(
    standings: Sequence[StandingLine],
    event: Event,
    *,
    settings: Mapping[str, Value] | None = None,
) -> list[TiebreakerCall]:
    """Every subcategory of the event with fewer placed finalists than prize places, and
    someone eliminated earlier to call."""
    rule = event.subcategory_tiebreaker
    if rule is None:
        return []
    final = event.rounds[-1].id
    calls = []
    for subcategory in event.subcategories:
        places = max((a.to_place for a in event.awards if a.category == subcategory.id), default=0)
        lines = subcategory_standings(standings, subcategory, settings=settings)
        finalists = [line for line in lines if line.round_id == final and line.place is not None]
        if len(finalists) >= places:
            continue
        eliminated = [line for line in lines if line.round_id != final and line.place is not None]
        if len(eliminated) > rule.entrants:
            last = eliminated[rule.entrants - 1].place
            eliminated = [line for line in eliminated if line.place == last or (
                line.place is not None and last is not None and line.place < last)]
        if eliminated:  # nobody to call: the places stay empty
            calls.append(
                TiebreakerCall(subcategory.id, final, places - len(finalists), tuple(eliminated))
            )
    return calls


def with_tiebreaker(
    lines: Sequence[StandingLine], call: TiebreakerCall, ranking: Sequence[RankedEntry]
) -> list[StandingLine]:
    """A subcategory's standings once its tiebreaker is held: the finalists keep their places,
    the tiebreaker's entrants follow in its order, everyone else has no place.

    Raises RulesError (tiebreaker.not_called) for a result of an entrant not called to it.
    """
    called = {line.entry.id: line for line in call.entrants}
    strangers: list[RuleViolation] = [
        violation("tiebreaker.not_called",
                  f"entry {line.entry.id} is not one of the entrants called to the "
                  f"{call.category} tiebreaker", entry=line.entry.id, field="entry",
                  category=call.category)
        for line in ranking if line.entry.id not in called
    ]
    if strangers:
        raise RulesError(strangers)
    finalists = [line for line in lines
                 if line.round_id == call.final_round and line.place is not None]
    held_ids = {line.entry.id for line in ranking}
    held = [
        replace(called[line.entry.id],
                place=len(finalists) + line.rank if line.rank is not None else None)
        for line in ranking
    ]
    # Everyone else, called entrants who did not come included, takes no prize place.
    rest = [replace(line, place=None) for line in lines
            if line not in finalists and line.entry.id not in held_ids]
    return [*finalists, *held, *rest]
