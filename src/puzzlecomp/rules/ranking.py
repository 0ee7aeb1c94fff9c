"""Rank a round: standard competition ranking (1, 2, 2, 4), with an official ranking beside it."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import TypeVar

from puzzlecomp.rules.conditions import Value
from puzzlecomp.rules.errors import RulesError, RuleViolation
from puzzlecomp.rules.results import Entry, Result, Status
from puzzlecomp.rules.rounds import RoundRules
from puzzlecomp.rules.scoring import Score, score_result

K = TypeVar("K", bound=Hashable)

_UNRANKED_ORDER = {Status.DSQ: 0, Status.DNS: 1}


@dataclass(frozen=True, slots=True)
class RankedEntry:
    """One line of a round's ranking."""

    entry: Entry
    result: Result
    score: Score
    rank: int | None
    official_rank: int | None = None
    eligible: bool | None = None


def competition_ranks(sorted_keys: Sequence[K]) -> list[int]:
    """Ranks for keys already in order: equal keys share a place and the next place is skipped."""
    ranks: list[int] = []
    previous: K | None = None
    for position, key in enumerate(sorted_keys):
        ranks.append(ranks[-1] if position and key == previous else position + 1)
        previous = key
    return ranks


def rank_round(
    results: Sequence[tuple[Entry, Result]],
    rules: RoundRules,
    *,
    settings: Mapping[str, Value] | None = None,
) -> list[RankedEntry]:
    """Rank every group of a round on its own, groups in order of first appearance.

    Raises RulesError with every problem found (bad results, duplicate entries), ranking none.
    """
    problems: list[RuleViolation] = []
    scored: list[tuple[Entry, Result, Score]] = []
    seen: set[str] = set()
    for entry, result in results:
        if entry.id in seen:
            problems.append(
                RuleViolation(
                    "entry.duplicate", f"entry {entry.id} appears twice", "entry", entry.id
                )
            )
        seen.add(entry.id)
        try:
            scored.append((entry, result, score_result(result, rules, entry=entry.id)))
        except RulesError as exc:
            problems.extend(exc.violations)
    if problems:
        raise RulesError(problems)
    order = {group: i for i, group in enumerate(dict.fromkeys(e.group for e, _, _ in scored))}
    scored.sort(key=lambda item: order[item[0].group])
    ranked: list[RankedEntry] = []
    for _, members in groupby(scored, key=lambda item: item[0].group):
        ranked.extend(_rank_group(list(members), rules, settings))
    return ranked


def _rank_group(
    scored: list[tuple[Entry, Result, Score]],
    rules: RoundRules,
    settings: Mapping[str, Value] | None,
) -> list[RankedEntry]:
    ranked_part = [item for item in scored if item[2].sort_key is not None]
    ranked_part.sort(key=lambda item: (item[2].sort_key, item[0].id))
    keys = [item[2].sort_key for item in ranked_part]
    ranks = competition_ranks(keys)

    official = rules.ruleset.official_ranking
    eligible = [
        official.admits(entry.members, settings) if official else None
        for entry, _, _ in ranked_part
    ]
    official_ranks: list[int | None] = [None] * len(ranked_part)
    if official is not None:
        positions = [i for i, ok in enumerate(eligible) if ok]
        for position, rank in zip(
            positions, competition_ranks([keys[i] for i in positions]), strict=True
        ):
            official_ranks[position] = rank

    lines = [
        RankedEntry(entry, result, score, rank, official_ranks[i], eligible[i])
        for i, ((entry, result, score), rank) in enumerate(zip(ranked_part, ranks, strict=True))
    ]
    unranked = sorted(
        (item for item in scored if item[2].sort_key is None),
        key=lambda item: (_UNRANKED_ORDER[item[2].status], item[0].id),
    )
    lines.extend(RankedEntry(entry, result, score, None) for entry, result, score in unranked)
    return lines
