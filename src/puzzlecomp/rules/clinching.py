"""While a round runs: whether an entrant's qualification is already certain (clinched), only
expected from the results so far (provisional), or certainly out.

Two things can still move a running round's ranking: entrants still puzzling, who may finish
ahead of anyone, and finishes awaiting the judge's check, whose recorded missing pieces the check
may find in adjacent clusters or elsewhere (the count itself is confirmed, not changed), so
charging anything from the least to the largest penalty the ruleset's rule gives for it. An
entrant has clinched when it qualifies in its worst completion of the round: everyone still
puzzling finishes first, its own pending check charges the most, the others' the least. It is
certainly out when it misses out in its best completion: everyone still puzzling ends behind
(did not finish), its own pending check charges the least, the others' the most. Both
completions are ranked and qualified by the engine itself (`rank_round`,
`qualify_for_next_round`), so every rule of the round applies as it will.

A country play-off place depends on other countries' direct qualifiers, which a better result
elsewhere can take away as well as give: it is never clinched, and nobody is certainly out of a
round that has a play-off (docs/qualification.md).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Mapping, Sequence
from enum import StrEnum

from puzzlecomp.rules.conditions import Value
from puzzlecomp.rules.qualification import QualifyReason, qualify_for_next_round
from puzzlecomp.rules.ranking import RankedEntry, rank_round
from puzzlecomp.rules.results import Entry, MissingPieces, Result, Status
from puzzlecomp.rules.rounds import RoundRules
from puzzlecomp.rules.scoring import penalty_seconds


class Certainty(StrEnum):
    CLINCHED = "clinched"
    PROVISIONAL = "provisional"
    OUT = "out"


# The fastest finish a round allows: an entrant still puzzling can at best finish at once.
_FIRST_FINISH = 1


def most_charged(result: Result) -> Result:
    """The result with every recorded missing piece charged: none in adjacent clusters, all
    found elsewhere (the largest penalty a check of the recorded count gives under any rule)."""
    return _classified(result, lambda m: MissingPieces(m, 0, m))


def least_charged(result: Result) -> Result:
    """The result with as few missing pieces charged as a check can find: all of them in one
    adjacent cluster (two or more), none found elsewhere."""
    return _classified(result, lambda m: MissingPieces(m, m if m >= 2 else 0, 0))


def _classified(result: Result, classify: Callable[[int], MissingPieces]) -> Result:
    return dataclasses.replace(
        result,
        missing=classify(result.missing.missing),
        puzzles=tuple(dataclasses.replace(p, missing=classify(p.missing.missing))
                      for p in result.puzzles),
    )


def _penalty(result: Result, rules: RoundRules) -> int:
    return sum(penalty_seconds(m, rules.ruleset.penalty)
               for m in (result.missing, *(p.missing for p in result.puzzles)))


def awaits_penalty(result: Result) -> bool:
    """Whether checking this result could still add a penalty: a finish with missing pieces."""
    return result.status is Status.FINISHED and (
        result.missing.missing > 0 or any(p.missing.missing > 0 for p in result.puzzles)
    )


def qualification_certainty(
    ranking: Sequence[RankedEntry],
    rules: RoundRules,
    *,
    pending: Collection[str] = (),
    puzzling: Sequence[Entry] = (),
    settings: Mapping[str, Value] | None = None,
) -> dict[str, Certainty]:
    """Entry id -> how certain its qualification is, for every line of `ranking` (empty for an
    event's last round).

    `pending` are the entries whose finish awaits the judge's check; `puzzling` the entrants
    still at the tables without a result. Raises RulesError as `qualify_for_next_round` does.
    """
    if rules.round.qualification is None or not ranking:
        return {}
    playoff = rules.round.qualification.playoff is not None
    now = {line.entry.id: line.result for line in ranking}
    most, least = {}, {}
    for i in pending:
        if i in now and awaits_penalty(now[i]):
            most[i], least[i] = most_charged(now[i]), least_charged(now[i])
            if _penalty(most[i], rules) == _penalty(least[i], rules):
                # The rule charges every missing piece alike (czech-championship: "all").
                del most[i], least[i]
    ahead = [(e, Result(Status.FINISHED, time=_FIRST_FINISH)) for e in puzzling]
    behind = [(e, Result(Status.DNF)) for e in puzzling]
    entries = [line.entry for line in ranking]

    def qualified(results: Mapping[str, Result], extra: list[tuple[Entry, Result]],
                  only: Entry | None = None) -> set[str]:
        # One entrant's completion: its own group decides its direct place.
        pairs = [(e, results.get(e.id, now[e.id])) for e in entries
                 if only is None or e.group == only.group]
        pairs += [p for p in extra if only is None or p[0].group == only.group]
        lines = rank_round(pairs, rules, settings=settings)
        return {q.entry.id for q in qualify_for_next_round(lines, rules)
                if q.reason is not QualifyReason.PLAYOFF}

    # Shared by every entrant without a pending check; those with one are ranked again alone.
    worst = qualified(least, ahead)
    # Nobody is out of a round with a play-off: its best completion need not be ranked.
    best = set() if playoff else qualified(most, behind)
    found: dict[str, Certainty] = {}
    for entry in entries:
        clinched = entry.id in worst
        if clinched and entry.id in most:
            clinched = entry.id in qualified({**least, entry.id: most[entry.id]}, ahead, entry)
        out = not playoff and entry.id not in best
        if out and entry.id in least:
            out = entry.id not in qualified({**most, entry.id: least[entry.id]}, behind, entry)
        found[entry.id] = (Certainty.CLINCHED if clinched
                           else Certainty.OUT if out else Certainty.PROVISIONAL)
    return found
