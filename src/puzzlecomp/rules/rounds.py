"""A round as it will be run: the ruleset's round with the organiser's overrides applied."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from puzzlecomp.rules.errors import RulesError, RuleViolation, violation
from puzzlecomp.rules.ruleset import Event, Round, Ruleset


@dataclass(frozen=True)
class RoundRules:
    """Everything the engine needs to score and rank one round."""

    ruleset: Ruleset
    event: Event
    round: Round
    time_limit_seconds: int
    puzzle_sizes: tuple[int, ...]
    # False for an archived round whose puzzles no rule or editions file can size (counts
    # past the rules' size were published): its counts are not checked against a size, and
    # it counts for no record or best by puzzle size (docs/archive.md, Unsized rounds).
    sizes_known: bool = True

    @functools.cached_property
    def total_pieces(self) -> int:
        return sum(self.puzzle_sizes)


def find_round(ruleset: Ruleset, event_id: str, round_id: str | None = None) -> tuple[Event, Round]:
    """The event and round with these ids (round: default the event's first); RulesError if none."""
    try:
        event = ruleset.event(event_id)
    except KeyError:
        known = ", ".join(e.id for e in ruleset.events)
        raise RulesError(
            violation(
                "event.unknown",
                f"ruleset {ruleset.id} has no event {event_id!r}; known: {known}",
                field="event",
                event=event_id,
            )
        ) from None
    try:
        return event, event.round(round_id) if round_id else event.rounds[0]
    except KeyError:
        known = ", ".join(r.id for r in event.rounds)
        raise RulesError(
            violation(
                "round.unknown",
                f"event {event_id} of {ruleset.id} has no round {round_id!r}; known: {known}",
                field="round",
                round=round_id,
            )
        ) from None


def round_rule_problems(
    ruleset: Ruleset,
    event_id: str,
    round_id: str | None = None,
    *,
    time_limit_minutes: int | None = None,
    pieces: int | None = None,
) -> list[RuleViolation]:
    """What the round's rules still lack with these overrides: a time limit, a puzzle size.

    The messages name what is missing, not how to give it: the command line adds its options,
    the web app its settings page.
    """
    _, rnd = find_round(ruleset, event_id, round_id)
    problems = []
    if time_limit_minutes is not None and time_limit_minutes <= 0:
        problems.append(violation("round.time_limit_invalid", "the time limit must be positive",
                                  field="time_limit"))
    if pieces is not None and pieces <= 0:
        problems.append(violation("round.pieces_invalid", "the puzzle size must be positive",
                                  field="pieces"))
    if (time_limit_minutes or rnd.time_limit_minutes) is None:
        problems.append(
            violation(
                "round.time_limit_required",
                f"{ruleset.id} states no time limit for {event_id} {rnd.id}",
                field="time_limit",
            )
        )
    if any((pieces or size) is None for size in rnd.puzzle_sizes):
        problems.append(
            violation(
                "round.pieces_required",
                f"{ruleset.id} states no puzzle size for {event_id} {rnd.id}",
                field="pieces",
            )
        )
    return problems


def resolve_round(
    ruleset: Ruleset,
    event_id: str,
    round_id: str | None = None,
    *,
    time_limit_minutes: int | None = None,
    pieces: int | None = None,
) -> RoundRules:
    """The round's rules with overrides; refuses unknown ids and missing limits or sizes."""
    event, rnd = find_round(ruleset, event_id, round_id)
    problems = round_rule_problems(ruleset, event_id, rnd.id,
                                   time_limit_minutes=time_limit_minutes, pieces=pieces)
    if problems:
        raise RulesError(problems)
    limit = time_limit_minutes or rnd.time_limit_minutes
    assert limit is not None
    sizes = tuple(pieces or size for size in rnd.puzzle_sizes)
    return RoundRules(
        ruleset=ruleset,
        event=event,
        round=rnd,
        time_limit_seconds=limit * 60,
        puzzle_sizes=tuple(s for s in sizes if s is not None),
    )
