"""Rank a round: standard competition ranking (1, 2, 2, 4), with an official ranking beside it."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import NamedTuple, TypeVar

from puzzlecomp.rules.conditions import Value
from puzzlecomp.rules.errors import RulesError, RuleViolation
from puzzlecomp.rules.results import Entry, Result, Status
from puzzlecomp.rules.rounds import RoundRules
from puzzlecomp.rules.scoring import Score, score_result

K = TypeVar("K", bound=Hashable)

_UNRANKED_ORDER = {Status.DSQ: 0, Status.DNS: 1}


class RankedEntry(NamedTuple):
    """One line of a round's ranking (a named tuple: rankings have thousands of lines)."""

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
    groups: dict[str, list[tuple[Entry, Result, Score]]] = {}
    for item in scored:
        groups.setdefault(item[0].group, []).append(item)
    ranked: list[RankedEntry] = []
    for members in groups.values():
        ranked.extend(_rank_group(members, rules, settings))
    return ranked


def _rank_group(
    scored: list[tuple[Entry, Result, Score]],
    rules: RoundRules,
    settings: Mapping[str, Value] | None,
) -> list[RankedEntry]:
    # Sort plain tuples (key, entry id, position): no Python-level key function per entry.
    order = sorted(
        (score.sort_key, entry.id, position)
        for position, (entry, _, score) in enumerate(scored)
        if score.sort_key is not None
    )
    keys = [key for key, _, _ in order]
    ranks = competition_ranks(keys)
    official_ranks: list[int | None] = [None] * len(order)
    eligible: list[bool | None] = [None] * len(order)
    official = rules.ruleset.official_ranking
    if official is not None:
        eligible = [official.admits(scored[i][0].members, settings) for _, _, i in order]
        positions = [n for n, ok in enumerate(eligible) if ok]
        for n, rank in zip(positions, competition_ranks([keys[n] for n in positions]), strict=True):
            official_ranks[n] = rank
    lines = [
        RankedEntry(*scored[i], ranks[n], official_ranks[n], eligible[n])
        for n, (_, _, i) in enumerate(order)
    ]
    unranked = sorted(
        (item for item in scored if item[2].sort_key is None),
        key=lambda item: (_UNRANKED_ORDER[item[2].status], item[0].id),
    )
    lines.extend(RankedEntry(entry, result, score, None) for entry, result, score in unranked)
    return lines
