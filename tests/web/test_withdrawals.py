"""Withdrawals leave every list (issue 24, item 5): a cancelled entry leaves the seating (and
so the table cards and the floor map), the public entrants, the check-in desk and the judges'
phones of rounds not started; a round under way keeps it as history. A waiting entry promoted
after the seating is flagged "needs a table" on the organiser's seating page.

wjpc-2025.txt, Individual First Round: a maximum of 1.200 players, so a place a cancellation
frees goes to the waiting list; Competition Area: the tables display who sits there.
"""

from __future__ import annotations

import datetime as dt
import html

from django.urls import reverse

from puzzlecomp.championships.models import (
    AuditEntry,
    Entry,
    EntryStatus,
    Role,
    RoundState,
    Seat,
)
from puzzlecomp.championships.selectors.check_in import desk_get
from puzzlecomp.championships.selectors.planning import tables_get, tables_needed
from puzzlecomp.championships.selectors.publishing import public_entries
from puzzlecomp.championships.services.device_overview import device_overview
from puzzlecomp.championships.services.devices import device_create
from puzzlecomp.championships.services.registration import entry_cancel, waiting_list_promote
from puzzlecomp.championships.services.rounds import round_state_set
from tests.web import test_live_control as live
from tests.web.test_live_control import START

seated = live.seated


def seated_entry(rnd, group: str = "A") -> Entry:
    return Seat.objects.filter(round=rnd, group=group).select_related("entry").order_by(
        "table", "seat").first().entry


def test_a_cancelled_entry_leaves_the_seating_entrants_and_check_in_of_a_round_to_come(
        seated):
    gone = seated_entry(seated)
    table = Seat.objects.get(round=seated, entry=gone).table
    entry_cancel(entry=gone, by=None)
    assert not Seat.objects.filter(round=seated, entry=gone).exists()
    assert gone.number not in {line.number for lines in tables_get(seated, "A").values()
                               for line in lines}
    slug = seated.event.championship.slug
    assert not public_entries(slug).filter(pk=gone.pk).exists()
    assert gone.number not in {line.number for line in desk_get(seated, now=START).lines}
    audit = AuditEntry.objects.filter(action="puzzlecomp.entry.cancelled").latest("pk")
    assert audit.data["tables_freed"] == [{"round": seated.code, "group": "A", "table": table}]


def test_a_round_under_way_keeps_the_seat_but_the_phone_drops_an_entry_without_result(
        seated, clock):
    championship = seated.event.championship
    championship.starts_at = START
    championship.save(update_fields=["starts_at"])
    gone = seated_entry(seated)
    table = Seat.objects.get(round=seated, entry=gone).table
    device = device_create(championship=championship, label="Phone", table_from=table,
                           table_to=table, user=None)[0]
    round_state_set(round=seated, state=RoundState.RUNNING, starts_at=START)
    entry_cancel(entry=gone, by=None)
    assert Seat.objects.filter(round=seated, entry=gone).exists()  # history
    (shown,) = device_overview(device).rounds
    on_phone = {e.number for t in shown.tables for e in t.entries}
    assert gone.number not in on_phone
    assert on_phone


def test_a_waiting_entry_promoted_after_the_seating_needs_a_table(seated, client_as):
    event = seated.event
    waiting = Entry.objects.create(event=event, number=999, name="Late Comer", country="NO",
                                   status=EntryStatus.WAITING,
                                   registered_at=START - dt.timedelta(days=30))
    entry_cancel(entry=seated_entry(seated), by=None)
    promoted = waiting_list_promote(event=event, by=None)
    assert promoted.pk == waiting.pk
    assert [e.number for e in tables_needed(seated, "A")] == [999]
    organiser = client_as(event.championship, Role.ORGANISER)
    url = reverse("control:planning:seating", args=[event.championship.slug, seated.pk])
    page = html.unescape(organiser.get(url + "?group=A").content.decode())
    assert "1 entrant needs a table" in page
    assert "999 Late Comer" in page
