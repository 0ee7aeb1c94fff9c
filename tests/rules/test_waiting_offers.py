"""A waiting list that holds no money (issue 28, part 6): pure rule, no database.

The rulebooks keep a waiting list when an event is full (WJPC rulebook, registration; Czech
rulebook, přihlášky: kapacita). Waiting costs nothing; a freed place is offered in turn with a
deadline to pay, and passes on by itself when the deadline goes by unpaid.
"""

from __future__ import annotations

import datetime as dt

from hypothesis import given
from hypothesis import strategies as st

from puzzlecomp.rules.payments.offers import Waiting, offers_at

T0 = dt.datetime(2026, 8, 1, 12, tzinfo=dt.UTC)
DAY = dt.timedelta(days=1)


def states(queue: list[Waiting], *, free: int, now: dt.datetime, days: int = 5) -> list[str]:
    return [offer.state for offer in offers_at(queue, free=free, days=days, now=now)]


def test_without_a_free_place_everyone_waits_with_their_position():
    found = offers_at([Waiting(1), Waiting(2)], free=0, days=5, now=T0)
    assert [(o.state, o.position) for o in found] == [("waiting", 1), ("waiting", 2)]


def test_a_freed_place_is_offered_to_the_first_waiting_entry_with_a_deadline():
    first, second = offers_at([Waiting(1, offered_at=T0), Waiting(2)], free=1, days=5,
                              now=T0 + DAY)
    assert (first.state, first.deadline) == ("offered", T0 + 5 * DAY)
    assert (second.state, second.position) == ("waiting", 1)


def test_an_offer_unpaid_by_its_deadline_passes_to_the_next_whose_deadline_runs_from_then():
    first, second, third = offers_at([Waiting(1, offered_at=T0), Waiting(2), Waiting(3)],
                                     free=1, days=5, now=T0 + 6 * DAY)
    assert first.state == "lapsed"
    assert (second.state, second.starts, second.deadline) == ("offered", T0 + 5 * DAY,
                                                              T0 + 10 * DAY)
    assert (third.state, third.position) == ("waiting", 1)


def test_an_offer_passes_down_the_list_as_long_as_nobody_pays():
    assert states([Waiting(1, offered_at=T0), Waiting(2), Waiting(3)], free=1,
                  now=T0 + 11 * DAY) == ["lapsed", "lapsed", "offered"]


def test_paying_by_the_deadline_holds_the_place_and_the_next_keeps_waiting():
    queue = [Waiting(1, offered_at=T0, paid_in_full_at=T0 + 2 * DAY), Waiting(2)]
    assert states(queue, free=1, now=T0 + 30 * DAY) == ["holds", "waiting"]


def test_paying_after_the_deadline_is_too_late():
    queue = [Waiting(1, offered_at=T0, paid_in_full_at=T0 + 6 * DAY), Waiting(2)]
    assert states(queue, free=1, now=T0 + 7 * DAY) == ["lapsed", "offered"]


def test_nobody_overtakes_an_entry_that_needs_more_places_than_are_free():
    queue = [Waiting(1, needs=2), Waiting(2, needs=1)]
    assert states(queue, free=1, now=T0) == ["waiting", "waiting"]


def test_a_place_freed_but_not_offered_yet_is_offered_from_now():
    (offer,) = offers_at([Waiting(1)], free=1, days=3, now=T0)
    assert (offer.state, offer.deadline) == ("offered", T0 + 3 * DAY)


def test_a_stored_offer_reads_the_same_as_the_computed_one():
    computed = offers_at([Waiting(1, offered_at=T0), Waiting(2)], free=1, days=5,
                         now=T0 + 6 * DAY)
    stored = offers_at([Waiting(1, offered_at=T0), Waiting(2, offered_at=T0 + 5 * DAY)],
                       free=1, days=5, now=T0 + 6 * DAY)
    assert computed == stored


@given(free=st.integers(0, 4), hours=st.integers(0, 24 * 40),
       paid=st.lists(st.one_of(st.none(), st.integers(0, 24 * 40)), min_size=0, max_size=8))
def test_never_more_offers_and_holders_than_free_places(free: int, hours: int,
                                                       paid: list[int | None]) -> None:
    queue = [Waiting(i, offered_at=T0 if i == 0 else None,
                     paid_in_full_at=None if p is None else T0 + dt.timedelta(hours=p))
             for i, p in enumerate(paid)]
    found = states(queue, free=free, now=T0 + dt.timedelta(hours=hours))
    assert sum(1 for s in found if s in ("offered", "holds")) <= free
