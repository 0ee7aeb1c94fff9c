"""A waiting list that holds no money: free places offered in turn, each with a deadline to pay.

Waiting costs nothing. When a place frees, the first waiting entry is offered it and has the
organiser's number of days to pay the fee; paid by then, the place is its own; unpaid, the
offer lapses at the deadline and passes to the next waiting entry, whose deadline runs from
that moment. Nobody overtakes: an entry that does not fit the places free waits, and so does
everyone behind it.

Computed from the facts at a given moment (the clock is an argument): reading never writes.
The write that freed the place stores when the first offer started (`offered_at`); later
offers start at the deadline before them, so a lapsed offer passes on without any scheduler.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

OfferState = Literal["waiting", "offered", "holds", "lapsed"]


@dataclass(frozen=True)
class Waiting:
    """An entry on the waiting list, in the list's order."""

    key: int
    needs: int = 1  # places the entry takes (a pair where the event counts people: 2)
    offered_at: dt.datetime | None = None  # stored when its offer was made and mailed
    paid_in_full_at: dt.datetime | None = None  # when it had paid the whole fee; None: not yet


@dataclass(frozen=True)
class Offer:
    """Where a waiting entry stands at the moment asked about."""

    key: int
    state: OfferState
    position: int | None = None  # among the entries still waiting, from 1
    starts: dt.datetime | None = None
    deadline: dt.datetime | None = None


def offers_at(queue: Sequence[Waiting], *, free: int, days: int,
              now: dt.datetime) -> list[Offer]:
    """Each waiting entry's state at `now`: holding a place it paid for in time, offered one
    until its deadline, lapsed, or still waiting (with its position).

    `free` is the number of places nobody confirmed holds. An offer starts when its places
    freed: the stored `offered_at`, else the deadline of the lapsed offer whose places it takes,
    else `now` (a place freed but not offered yet: the next write offers it).
    """
    # One start time per free place: None until an offer lapsed on it.
    places: list[dt.datetime | None] = [None] * max(free, 0)
    found: list[Offer] = []
    position = 0
    blocked = False
    for entry in queue:
        if blocked or entry.needs > len(places):
            blocked = True
            position += 1
            found.append(Offer(entry.key, "waiting", position=position))
            continue
        places.sort(key=lambda since: (since is not None, since or now))
        taken, places = places[:entry.needs], places[entry.needs:]
        freed = [since for since in taken if since is not None]
        starts = entry.offered_at or (max(freed) if freed else now)
        deadline = starts + dt.timedelta(days=days)
        if entry.paid_in_full_at is not None and entry.paid_in_full_at <= deadline:
            found.append(Offer(entry.key, "holds", starts=starts, deadline=deadline))
        elif deadline < now:
            found.append(Offer(entry.key, "lapsed", starts=starts, deadline=deadline))
            places.extend([deadline] * entry.needs)
        else:
            found.append(Offer(entry.key, "offered", starts=starts, deadline=deadline))
    return found
