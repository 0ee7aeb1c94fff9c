"""Rank a round: standard competition ranking (1, 2, 2, 4), with an official ranking beside it."""

from __future__ import annotations

import gc
from collections.abc import Hashable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import NamedTuple, TypeVar

from puzzlecomp.rules.conditions import Value
from puzzlecomp.rules.errors import RulesError, RuleViolation
from puzzlecomp.rules.results import Entry, Result, Status
from puzzlecomp.rules.rounds import RoundRules
from puzzlecomp.rules.scoring import Score, SortKey, score_result

K = TypeVar("K", bound=Hashable)

_UNRANKED_ORDER = {Status.DSQ: 0, Status.OUTSIDE_HELP: 1, Status.DNS: 2}
# Building the tuple directly skips NamedTuple's argument parsing (most of its cost).
_new_line = tuple.__new__


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
    with _cyclic_gc_paused():
        return _rank_round(results, rules, settings)


@contextmanager
def _cyclic_gc_paused() -> Iterator[None]:
    """Ranking builds no reference cycles, but CPython's full collections walk every live object
    the process holds, so without this a large round costs more per entry than a small one."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _rank_round(
    results: Sequence[tuple[Entry, Result]],
    rules: RoundRules,
    settings: Mapping[str, Value] | None,
) -> list[RankedEntry]:
    problems: list[RuleViolation] = []
    seen: set[str] = set()
    # Positions of each group's results, and their scores: parallel lists rather than a tuple
    # per entry keep large rounds cheap for the allocator and the garbage collector.
    groups: dict[str, list[int]] = {}
    scores: list[Score] = []
    for position, (entry, result) in enumerate(results):
        if entry.id in seen:
            problems.append(
                RuleViolation(
                    "entry.duplicate", f"entry {entry.id} appears twice", "entry", entry.id
                )
            )
        seen.add(entry.id)
        try:
            scores.append(score_result(result, rules, entry=entry.id))
        except RulesError as exc:
            problems.extend(exc.violations)
        groups.setdefault(entry.group, []).append(position)
    if problems:
        raise RulesError(problems)
    sort_keys = [score.sort_key for score in scores]
    ids = [entry.id for entry, _ in results]
    ranked: list[RankedEntry] = []
    for positions in groups.values():
        ranked.extend(_rank_group(positions, results, scores, sort_keys, ids, rules, settings))
    return ranked


def _rank_group(
    positions: list[int],
    results: Sequence[tuple[Entry, Result]],
    scores: list[Score],
    sort_keys: list[SortKey | None],
    ids: list[str],
    rules: RoundRules,
    settings: Mapping[str, Value] | None,
) -> list[RankedEntry]:
    ranked = [p for p in positions if sort_keys[p] is not None]
    # Two stable sorts of positions (by entry id, then by score) with C-level key functions:
    # no tuple and no Python call per entry.
    ranked.sort(key=ids.__getitem__)
    ranked.sort(key=sort_keys.__getitem__)  # type: ignore[arg-type]
    keys = [sort_keys[p] for p in ranked]
    ranks = competition_ranks(keys)
    official_ranks: list[int | None] = [None] * len(ranked)
    eligible: list[bool | None] = [None] * len(ranked)
    official = rules.ruleset.official_ranking
    if official is not None:
        eligible = [official.admits(results[p][0].members, settings) for p in ranked]
        chosen = [n for n, ok in enumerate(eligible) if ok]
        for n, rank in zip(chosen, competition_ranks([keys[n] for n in chosen]), strict=True):
            official_ranks[n] = rank
    lines = [
        _new_line(RankedEntry, (*results[p], scores[p], ranks[n], official_ranks[n], eligible[n]))
        for n, p in enumerate(ranked)
    ]
    unranked = sorted(
        (p for p in positions if scores[p].sort_key is None),
        key=lambda p: (_UNRANKED_ORDER[scores[p].status], results[p][0].id),
    )
    lines.extend(RankedEntry(*results[p], scores[p], None) for p in unranked)
    return lines

