"""When titles and prizes may be named: only from the round each rulebook awards them on (the
event's `prize_round`; WJPC: the final), and only once that round is final.

wjpc-2025.txt, Individual Final: the World Champion is decided in the final; Prizes: the
ceremony follows the last final. Before then the standings are provisional: they may list
places, but no title, prize money or trophy, and no subcategory tiebreaker is called.
A final round with no placed result (no results, or every entrant DNS/DSQ) has decided no
champion either: it stays provisional, so the semifinalists are never handed the titles.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from puzzlecomp.rules.awards import AwardLine, event_awards
from puzzlecomp.rules.conditions import Value
from puzzlecomp.rules.errors import RulesError, RuleViolation, violation
from puzzlecomp.rules.ranking import RankedEntry
from puzzlecomp.rules.ruleset import Event, Ruleset
from puzzlecomp.rules.standings import StandingLine
from puzzlecomp.rules.subcategories import category_standings
from puzzlecomp.rules.tiebreakers import TiebreakerCall, tiebreakers_needed, with_tiebreaker


@dataclass(frozen=True, slots=True)
class PrizeRound:
    """The round that decides an event's prizes, and whether it is final yet."""

    round_id: str
    decided: bool
    # False while the prize round has no placed result, final or not.
    placed: bool = True

    @property
    def provisional(self) -> bool:
        """True while the standings may still change: no title or prize may be named."""
        return not self.decided


def prize_round(
    event: Event, final_rounds: Collection[str], standings: Sequence[StandingLine]
) -> PrizeRound:
    """The event's prize round; decided when it is among the rounds whose results are final and
    at least one entrant holds a place in it (wjpc-2025.txt, Individual Final: the champion is
    the winner of the final, so a final with no placed result names nobody)."""
    round_id = event.prize_round
    placed = any(line.round_id == round_id and line.place is not None for line in standings)
    return PrizeRound(round_id, round_id in final_rounds and placed, placed)


def decided_awards(
    standings: Sequence[StandingLine],
    event: Event,
    ruleset: Ruleset,
    *,
    final_rounds: Collection[str],
    settings: Mapping[str, Value] | None = None,
    tiebreakers: Mapping[str, Sequence[RankedEntry]] | None = None,
) -> list[AwardLine]:
    """The event's prizes (rules.awards.event_awards) once its prize round is final; none before.

    A subcategory whose tiebreaker is called but not final yet (`pending_tiebreakers`) keeps
    its finalists' prizes; the places the tiebreaker decides carry none until it is final.
    Raises RulesError as event_awards and held_tiebreakers do, only once the prize round is final.
    """
    if not prize_round(event, final_rounds, standings).decided:
        return []
    held = held_tiebreakers(standings, event, final_rounds=final_rounds,
                            tiebreakers=tiebreakers or {}, settings=settings)
    final = {category: ranking for category, (_, ranking) in held.items()}
    awards = event_awards(standings, event, ruleset, settings=settings, tiebreakers=final)
    pending = {call.category: call for call in decided_tiebreakers(
        standings, event, final_rounds=final_rounds, settings=settings)
        if call.category not in held}
    return [award for award in awards if award.category not in pending
            or award.standing.round_id == pending[award.category].final_round]


def tiebreaker_round_id(event: Event, category: str) -> str:
    """The round that holds a subcategory's tiebreaker ("tiebreaker-junior-18"); "" without."""
    rule = event.subcategory_tiebreaker
    return f"{rule.round.id}-{category}" if rule is not None else ""


def pending_tiebreakers(
    standings: Sequence[StandingLine],
    event: Event,
    *,
    final_rounds: Collection[str],
    settings: Mapping[str, Value] | None = None,
) -> list[TiebreakerCall]:
    """The tiebreakers the final calls whose round is not final yet (not held, or its results
    still open): wjpc-2025.txt, Subcategories (*), the tiebreaker decides the places the
    finalists leave open, so those places carry no prize before it is final."""
    return [call for call in decided_tiebreakers(standings, event, final_rounds=final_rounds,
                                                 settings=settings)
            if tiebreaker_round_id(event, call.category) not in final_rounds]


def decided_tiebreakers(
    standings: Sequence[StandingLine],
    event: Event,
    *,
    final_rounds: Collection[str],
    settings: Mapping[str, Value] | None = None,
) -> list[TiebreakerCall]:
    """The subcategory tiebreakers to call, once the prize round is final; none before (who is
    short of finalists is known only when the final is)."""
    if not prize_round(event, final_rounds, standings).decided:
        return []
    return tiebreakers_needed(standings, event, settings=settings)


def held_tiebreakers(
    standings: Sequence[StandingLine],
    event: Event,
    *,
    final_rounds: Collection[str],
    tiebreakers: Mapping[str, Sequence[RankedEntry]],
    settings: Mapping[str, Value] | None = None,
) -> dict[str, tuple[TiebreakerCall, Sequence[RankedEntry]]]:
    """Each tiebreaker whose round is final with the call it answers (one not final yet decides
    nothing: `pending_tiebreakers`), every one checked the same way for standings and awards:
    RulesError with every problem of every tiebreaker at once, each naming its category, and
    its entry where there is one: `tiebreaker.not_needed` (its finalists fill the subcategory's
    prizes, or the final is not final yet) and `tiebreaker.not_called`."""
    if not tiebreakers:
        return {}
    calls = {call.category: call for call in decided_tiebreakers(
        standings, event, final_rounds=final_rounds, settings=settings)}
    prizes = prize_round(event, final_rounds, standings)
    problems: list[RuleViolation] = []
    for category, ranking in tiebreakers.items():
        call = calls.get(category)
        if call is None:
            why = ("its finalists fill its prizes" if prizes.decided else
                   f"the {event.prize_round} round is not final yet"
                   if event.prize_round not in final_rounds else
                   f"the {event.prize_round} round has no placed result yet")
            problems.append(violation(
                "tiebreaker.not_needed",
                f"the {category} subcategory of {event.id} needs no tiebreaker: {why}",
                field="category", category=category))
            continue
        called = {line.entry.id for line in call.entrants}
        problems.extend(
            violation("tiebreaker.not_called",
                      f"entry {line.entry.id} is not one of the entrants called to the "
                      f"{category} tiebreaker", entry=line.entry.id, field="entry",
                      category=category)
            for line in ranking if line.entry.id not in called)
    if problems:
        raise RulesError(problems)
    return {category: (calls[category], ranking) for category, ranking in tiebreakers.items()
            if tiebreaker_round_id(event, category) in final_rounds}


def category_with_tiebreaker(
    standings: Sequence[StandingLine],
    event: Event,
    category: str,
    held: Mapping[str, tuple[TiebreakerCall, Sequence[RankedEntry]]],
    *,
    settings: Mapping[str, Value] | None = None,
) -> list[StandingLine]:
    """A category's standings, its tiebreaker's order deciding the places after the finalists
    once it is held (the order `awards` gives its prizes in)."""
    lines = category_standings(standings, event, category, settings=settings)
    if category in held:
        call, ranking = held[category]
        lines = with_tiebreaker(lines, call, ranking)
    return lines
