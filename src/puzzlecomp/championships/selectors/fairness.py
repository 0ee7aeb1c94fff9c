"""Each group's puzzle difficulty after a round, from its entrants' ratings and results
(planning/fairness.py; docs/seeding.md, Group fairness)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.utils import formats
from django.utils.translation import gettext

from puzzlecomp.championships.engine import round_ranking
from puzzlecomp.championships.models import EntryMember, Round
from puzzlecomp.championships.selectors.history import RATED_STATUSES, history_ratings
from puzzlecomp.planning.fairness import GroupDifficulty, GroupEntrant, group_difficulties


def round_group_difficulties(rnd: Round) -> list[GroupDifficulty]:
    """Each group's difficulty in the round's group order; empty for a round of one group or of
    several puzzles (a finisher's time there is not one puzzle's). RulesError when the round's
    rules are incomplete."""
    if len(rnd.groups or []) < 2:
        return []
    ranking = round_ranking(rnd)
    rules = ranking.rules
    if len(rules.puzzle_sizes) != 1:
        return []
    ratings = history_ratings(rnd.event)
    people: dict[int, list[str]] = defaultdict(list)
    for number, person in EntryMember.objects.filter(entry__event=rnd.event).values_list(
            "entry__number", "person_id"):
        people[number].append(str(person))
    entrants = []
    for number, row in ranking.rows.items():
        if row["status"] not in RATED_STATUSES:
            continue
        known = [ratings[p] for p in people[number] if p in ratings]
        placed = row["pieces"] if row["pieces"] is not None else (
            rules.total_pieces - row["remaining"] if row["remaining"] is not None else None)
        entrants.append(GroupEntrant(
            row["group"], sum(known) / len(known) if known else None,
            row["status"] == "finished" and row["time_seconds"] is not None,
            row["time_seconds"], placed))
    order = {group: i for i, group in enumerate(rnd.groups)}
    found = group_difficulties(entrants, puzzle_pieces=rules.total_pieces,
                               time_limit_seconds=rules.time_limit_seconds)
    return sorted(found, key=lambda d: (order.get(d.group, len(order)), d.group))


def stored_difficulties(difficulties: list[GroupDifficulty]) -> list[dict[str, Any]]:
    """The figures as the round keeps them once published (Round.group_difficulty)."""
    return [{"group": d.group, "entrants": d.entrants, "rated": d.rated,
             "percent": None if d.percent is None else round(d.percent, 1),
             "low": None if d.low is None else round(d.low, 1),
             "high": None if d.high is None else round(d.high, 1)}
            for d in difficulties]


def _signed(percent: float) -> str:
    sign = "+" if percent > 0 else "\N{MINUS SIGN}" if percent < 0 else "±"
    return f"{sign}{formats.number_format(abs(percent), 1)}\N{NO-BREAK SPACE}%"


def shown_difficulty(figure: dict[str, Any]) -> dict[str, Any]:
    """A stored figure as pages show it: the percentage signed, in the reader's number format,
    and its 90 % interval ("" for figures published before intervals were kept)."""
    percent, low, high = figure["percent"], figure.get("low"), figure.get("high")
    interval = "" if percent is None or low is None or high is None else gettext(
        "likely between %(low)s and %(high)s") % {"low": _signed(low), "high": _signed(high)}
    return {**figure, "text": "" if percent is None else _signed(percent),
            "interval": interval}


def shown_difficulties(figures: list[dict[str, Any]]) -> dict[str, Any]:
    """The figures as pages show them, and whether any group can be told apart from the
    average (None when no figure has an interval to tell)."""
    intervals = [(f["low"], f["high"]) for f in figures
                 if f.get("low") is not None and f.get("high") is not None]
    return {"figures": [shown_difficulty(figure) for figure in figures],
            "told_apart": any(low > 0 or high < 0 for low, high in intervals)
            if intervals else None}
