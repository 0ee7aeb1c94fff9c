"""Which missing-piece facts a judge records at a check: only those the ruleset's penalty reads.

The judge's phone and the printed result sheet ask these and nothing else, so a Norwegian judge
is never asked about adjacent clusters (a WJPC and Australian question) and a WJPC judge never
about pieces found in the bag (the Norwegian distinction between lost and misplaced pieces).
"""

from __future__ import annotations

from typing import Literal

from puzzlecomp.rules.ruleset import PenaltyRule

Breakdown = Literal["contiguous", "found"]


def missing_breakdown(rule: PenaltyRule) -> tuple[Breakdown, ...]:
    """The parts of the missing pieces the judge counts besides their number.

    - "all" (Czech rules, the blind-bag and relay contests): every missing piece costs alike,
      the number is enough.
    - "not_contiguous" (WJPC 2025, Australia): adjacent missing pieces are a manufacturing
      defect and cost nothing, so the judge counts those in adjacent clusters.
    - "found_only" (Norway NM 2025): a lost piece costs nothing and a misplaced one (found in
      the bag or on the floor) costs the penalty, so the judge counts those found.
    """
    if rule.charge == "not_contiguous":
        return ("contiguous",)
    if rule.charge == "found_only":
        return ("found",)
    return ()
