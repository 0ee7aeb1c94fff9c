"""Subcategories of an event (Debutant, Junior, Senior): who belongs, and their own standings."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from puzzlecomp.rules.conditions import Eligibility, Value
from puzzlecomp.rules.errors import RulesError, violation
from puzzlecomp.rules.results import Entry
from puzzlecomp.rules.ruleset import Event, Subcategory
from puzzlecomp.rules.standings import StandingLine, renumbered

OVERALL = "overall"


def subcategory_admits(
    subcategory: Subcategory, entry: Entry, *, settings: Mapping[str, Value] | None = None
) -> bool:
    """True when the entry belongs to the subcategory; unknown facts (no birth year) never do."""
    membership = Eligibility(
        description=subcategory.name, when=subcategory.when, members=subcategory.members
    )
    return membership.admits(entry.members, settings)


def subcategory_standings(
    standings: Sequence[StandingLine],
    subcategory: Subcategory,
    *,
    settings: Mapping[str, Value] | None = None,
) -> list[StandingLine]:
    """The subcategory's entrants in overall order, placed among themselves (overall place kept)."""
    return renumbered(
        standings, lambda line: subcategory_admits(subcategory, line.entry, settings=settings)
    )


def category_standings(
    standings: Sequence[StandingLine],
    event: Event,
    category: str,
    *,
    settings: Mapping[str, Value] | None = None,
) -> list[StandingLine]:
    """The standings of "overall" or of one of the event's subcategories by id.

    Raises RulesError (category.unknown) for any other id.
    """
    check_category(event, category)
    for subcategory in event.subcategories:
        if subcategory.id == category:
            return subcategory_standings(standings, subcategory, settings=settings)
    return list(standings)


def check_category(event: Event, category: str) -> None:
    """Raise RulesError (category.unknown) unless the id is "overall" or a subcategory's."""
    known = [OVERALL, *(s.id for s in event.subcategories)]
    if category not in known:
        raise RulesError(
            violation(
                "category.unknown",
                f"event {event.id} has no category {category!r}; known: {', '.join(known)}",
                field="category",
                category=category,
            )
        )
