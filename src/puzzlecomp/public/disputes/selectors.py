"""A competitor's own published results, as their private dispute page shows them: each line
comes from the round's live snapshot (the engine's ranking every public page shows)."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from typing import Any

from puzzlecomp.championships.models import Dispute, Entry, Round, RoundState
from puzzlecomp.championships.selectors.rounds import dispute_window_ends
from puzzlecomp.live.snapshot import round_snapshot_cached
from puzzlecomp.rules.round_life import disputes_accepted


@dataclass(frozen=True)
class EntrantRound:
    """One round of a competitor's own results, as their private dispute page shows it."""

    round: Round
    line: dict[str, Any] | None
    window_ends: dt.datetime | None
    may_dispute: bool
    disputes: tuple[Dispute, ...]


def entrant_rounds_get(entry: Entry, *, now: dt.datetime) -> list[EntrantRound]:
    """The entry's published (and final) rounds with its line of the engine's ranking."""
    rounds = (Round.objects.filter(event=entry.event, results__entry=entry,
                                   state__in=(RoundState.PUBLISHED, RoundState.FINAL))
              .select_related("event__championship").order_by("position"))
    disputes: dict[int, list[Dispute]] = {}
    for dispute in Dispute.objects.filter(entry=entry).order_by("filed_at", "pk"):
        disputes.setdefault(dispute.round_id, []).append(dispute)
    found = []
    for rnd in rounds:
        snapshot = json.loads(round_snapshot_cached(rnd).body)
        line = next((ln for ln in snapshot["lines"] if ln["entry"] == entry.number), None)
        ends = dispute_window_ends(rnd)
        may = disputes_accepted(rnd.state, window_ends=ends, now=now)
        found.append(EntrantRound(rnd, line, ends, may, tuple(disputes.get(rnd.pk, ()))))
    return found
