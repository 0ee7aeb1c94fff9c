"""What a spectator sees first: whether a championship is on now, coming or over, which round
of an event shows its leaders, when its podium is known, and whom a search for entrants finds.

Pure: the pages pass the stored facts as values, so the home page, the championship page and
their tests agree on one answer.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Sequence
from enum import StrEnum

from puzzlecomp.rules.identity import folded
from puzzlecomp.rules.round_life import RoundState

# Rounds whose results move while spectators watch.
LIVE_STATES = frozenset({RoundState.RUNNING, RoundState.COUNTING})
# The last round's results decide the podium once the head judge has published them.
PODIUM_STATES = frozenset({RoundState.PUBLISHED, RoundState.FINAL})


class Phase(StrEnum):
    """Where a championship stands for the home page's lists."""

    LIVE = "live"
    UPCOMING = "upcoming"
    PAST = "past"


def championship_phase(*, starts_on: dt.date, ends_on: dt.date | None, rounds_live: bool,
                       archived: bool, today: dt.date) -> Phase:
    """Live while one of its rounds runs or is counted, and on its days; upcoming before its
    first day; past after its last day (a championship of one day ends on its first).

    A championship put into the archive is past whatever its dates say: its results are final.
    """
    if archived:
        return Phase.PAST
    if rounds_live:
        return Phase.LIVE
    if today < starts_on:
        return Phase.UPCOMING
    return Phase.LIVE if today <= (ends_on or starts_on) else Phase.PAST


def leaders_round(rounds: Sequence[tuple[str, bool]]) -> int | None:
    """Of an event's rounds in order, given as (state, has results), the index of the one
    whose leaders are shown: the last one running or being counted, else the last one with
    results; None while no round has any."""
    live = [i for i, (state, _) in enumerate(rounds) if state in LIVE_STATES]
    if live:
        return live[-1]
    with_results = [i for i, (state, results) in enumerate(rounds)
                    if results and state != RoundState.PLANNED]
    return with_results[-1] if with_results else None


def podium_known(rounds: Sequence[str]) -> bool:
    """Whether an event's podium is known: its last round (the final) has published or final
    results. The states are the event's rounds' in order."""
    return bool(rounds) and rounds[-1] in PODIUM_STATES


_NUMBER = re.compile(r"#?\s*(\d+)")


def entrant_matches(query: str, *, number: int, names: Iterable[str]) -> bool:
    """Whether a spectator's search finds an entrant: by its entry number ("12" or "#12"), or
    when every word of the query is part of one of its names, case and accents ignored
    ("novak" finds Nováková). An empty query finds no one."""
    words = folded(query).split()
    if not words:
        return False
    found = _NUMBER.fullmatch(query.strip())
    if found and int(found.group(1)) == number:
        return True
    texts = [folded(name) for name in names if name]
    return any(all(word in text for word in words) for text in texts)
