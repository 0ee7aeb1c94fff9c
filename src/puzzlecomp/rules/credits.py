"""Time credits: time lost through the organisation's mistake, given back in the rounds the
ruleset allows.

wjpc-2025.txt, Start of the round: when the puzzles handed out do not match the round's models,
the time lost is subtracted from the final time and, if needed, given as extra time. The
rulebook names no round without it, so `time_credits = "every_round"` is its rule;
`before_final` is a reading of the organiser's own (docs/rulesets.md, "Time credits").
"""

from __future__ import annotations

from puzzlecomp.rules.errors import RuleViolation, violation
from puzzlecomp.rules.ruleset import Event, Round, Ruleset


def is_final_round(event: Event, rnd: Round) -> bool:
    """True for the event's last round, its final (a subcategory tiebreaker is not)."""
    return event.rounds[-1].id == rnd.id


def time_credit_allowed(ruleset: Ruleset, event: Event, rnd: Round) -> bool:
    """Whether the head judge may give a time credit in this round under the ruleset."""
    return ruleset.time_credits == "every_round" or not is_final_round(event, rnd)


def time_credit_refusal(
    ruleset: Ruleset, event: Event, rnd: Round, *, credit: int, entry: str = ""
) -> RuleViolation | None:
    """Why a credit of `credit` seconds may not stand in this round, or None when it may."""
    if credit == 0 or time_credit_allowed(ruleset, event, rnd):
        return None
    return violation("result.credit_in_final",
                     f"{ruleset.id} gives no time credits in the event's final round",
                     entry=entry, field="time_credit")
