"""Prizes of an event: who takes each award rule's places, skipping ineligible entrants."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from puzzlecomp.rules.conditions import Eligibility, Value
from puzzlecomp.rules.errors import RulesError, violation
from puzzlecomp.rules.ranking import RankedEntry
from puzzlecomp.rules.results import Entry, Status
from puzzlecomp.rules.ruleset import AwardRule, Event, Ruleset
from puzzlecomp.rules.standings import StandingLine, renumbered
from puzzlecomp.rules.subcategories import category_standings
from puzzlecomp.rules.tiebreakers import TiebreakerCall, tiebreakers_needed, with_tiebreaker


@dataclass(frozen=True, slots=True)
class AwardLine:
    """One prize handed to one entrant: the prize place and what comes with it."""

    category: str
    # Place among the entrants eligible for this award; tied entrants share it.
    place: int
    standing: StandingLine
    trophy: bool
    # None when the rule names no money for this place.
    money: int | None
    items: str
    # The rule is for the official ranking only (a national title): `place` is then the
    # entrant's place among those the official ranking admits.
    official: bool = False

    @property
    def entry(self) -> Entry:
        return self.standing.entry

    @property
    def overall_place(self) -> int | None:
        return self.standing.overall_place


def award_admits(
    rule: AwardRule,
    entry: Entry,
    ruleset: Ruleset,
    *,
    settings: Mapping[str, Value] | None = None,
) -> bool:
    """True when the entry may take a place of this award rule."""
    return all(test.admits(entry.members, settings) for test in _eligibility_tests(rule, ruleset))


def takes_prizes(line: StandingLine, ruleset: Ruleset) -> bool:
    """False for an assisted entrant where the ruleset gives assisted entrants no prize.

    australia-state-national.txt: "No time will be recorded for any competitor who receives
    outside assistance in completing their puzzle". Whether an entrant helped on request (placed
    after every unaided one) may still take a trophy left to it is not said: the ruleset's
    `assisted_take_prizes` decides, by default no (docs/rulesets.md, Assistance).
    """
    return ruleset.assisted_take_prizes or line.ranked.result.status is not Status.ASSISTED


def event_awards(
    standings: Sequence[StandingLine],
    event: Event,
    ruleset: Ruleset,
    *,
    settings: Mapping[str, Value] | None = None,
    tiebreakers: Mapping[str, Sequence[RankedEntry]] | None = None,
) -> list[AwardLine]:
    """Every prize of the event, award rules in ruleset order, each best place first.

    Ineligible entrants keep their place in the standings but are skipped: the prize for place 1
    goes to the best eligible entrant. Entrants sharing a place take that place's prize each, and
    the next prize place is skipped (competition ranking). DSQ/DNS entrants take no prize, nor
    assisted ones unless the ruleset says they may (`takes_prizes`).
    `tiebreakers` holds the ranking of each subcategory tiebreaker held (by category): its
    entrants take the places after the subcategory's finalists (rules.tiebreakers).
    Raises RulesError when an official_only rule meets a ruleset without an official ranking,
    or for a tiebreaker the subcategory does not need (tiebreaker.not_needed).
    """
    held = _held_tiebreakers(standings, event, settings, tiebreakers or {})
    awards: list[AwardLine] = []
    for rule in event.awards:
        lines = category_standings(standings, event, rule.category, settings=settings)
        if rule.category in held:
            call, ranking = held[rule.category]
            lines = with_tiebreaker(lines, call, ranking)
        awards.extend(_rule_awards(rule, lines, ruleset, settings))
    return awards


def _held_tiebreakers(
    standings: Sequence[StandingLine],
    event: Event,
    settings: Mapping[str, Value] | None,
    tiebreakers: Mapping[str, Sequence[RankedEntry]],
) -> dict[str, tuple[TiebreakerCall, Sequence[RankedEntry]]]:
    if not tiebreakers:
        return {}
    calls = {call.category: call
             for call in tiebreakers_needed(standings, event, settings=settings)}
    unneeded = [category for category in tiebreakers if category not in calls]
    if unneeded:
        raise RulesError([
            violation("tiebreaker.not_needed",
                      f"the {category} subcategory of {event.id} needs no tiebreaker: its "
                      "finalists fill its prizes", field="category", category=category)
            for category in unneeded
        ])
    return {category: (calls[category], ranking) for category, ranking in tiebreakers.items()}


def _rule_awards(
    rule: AwardRule,
    lines: Sequence[StandingLine],
    ruleset: Ruleset,
    settings: Mapping[str, Value] | None,
) -> list[AwardLine]:
    candidates = renumbered(
        lines, lambda line: takes_prizes(line, ruleset)
        and award_admits(rule, line.entry, ruleset, settings=settings)
    )
    return [
        AwardLine(
            category=rule.category,
            place=line.place,
            standing=line,
            trophy=rule.trophy,
            money=_money(rule, line.place),
            items=rule.items,
            official=rule.official_only,
        )
        for line in candidates
        if line.place is not None and rule.from_place <= line.place <= rule.to_place
    ]


def _eligibility_tests(rule: AwardRule, ruleset: Ruleset) -> list[Eligibility]:
    tests = []
    if rule.official_only:
        if ruleset.official_ranking is None:
            raise RulesError(
                violation(
                    "award.no_official_ranking",
                    f"an award of {ruleset.id} is for the official ranking only, "
                    "but the ruleset defines no official ranking",
                    field="official_only",
                    category=rule.category,
                )
            )
        tests.append(ruleset.official_ranking)
    if rule.eligible is not None:
        tests.append(rule.eligible)
    return tests


def _money(rule: AwardRule, place: int) -> int | None:
    index = place - rule.from_place
    return rule.money[index] if index < len(rule.money) else None
