"""Time credits: time lost through the organisation's mistake, given back in the rounds the
ruleset allows.

wjpc-2025.txt, Start of the round: when the puzzles handed out do not match the round's models,
the time lost is subtracted from the final time and, if needed, given as extra time. The
rulebook names no round without it, so `time_credits = "every_round"` is its rule;
`before_final` is a reading of the organiser's own (docs/rulesets.md, "Time credits").
"""

from __future__ import annotations

from puzzlecomp.rules import limits
from puzzlecomp.rules.errors import RuleViolation, violation
from puzzlecomp.rules.ruleset import Event, Round, Ruleset


def is_final_round(event: Event, rnd: Round) -> bool:
    """True for the event's last round, its final (a subcategory tiebreaker is not)."""
    return event.rounds[-1].id == rnd.id


def time_credit_allowed(ruleset: Ruleset, event: Event, rnd: Round) -> bool:
    """Whether the head judge may give a time credit in this round under the ruleset."""
    return ruleset.time_credits == "every_round" or not is_final_round(event, rnd)


def credit_bound(rnd: Round, time_limit_seconds: int | None = None) -> int:
    """The largest credit in seconds: the round's time limit (time lost cannot exceed the time
    there was), never more than a day (rules/limits.py)."""
    limit = time_limit_seconds or (rnd.time_limit_minutes or 0) * 60 or limits.MAX_SECONDS
    return min(limit, limits.MAX_SECONDS)


def time_credit_refusal(
    ruleset: Ruleset, event: Event, rnd: Round, *, credit: int, entry: str = "",
    time_limit_seconds: int | None = None,
) -> RuleViolation | None:
    """Why a credit of `credit` seconds may not stand in this round, or None when it may.

    `time_limit_seconds` is the round's limit where the organiser set its own (else the
    ruleset's).
    """
    most = credit_bound(rnd, time_limit_seconds)
    if credit > most:
        return violation("result.credit_too_large",
                         f"a time credit is at most the round's time limit, {most} s",
                         entry=entry, field="time_credit", max=most)
    if credit == 0 or time_credit_allowed(ruleset, event, rnd):
        return None
    return violation("result.credit_in_final",
                     f"{ruleset.id} gives no time credits in the event's final round",
                     entry=entry, field="time_credit")
