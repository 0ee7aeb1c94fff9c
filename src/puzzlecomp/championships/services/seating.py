"""Seating a round's groups at the hall's tables, swapping seats and giving away a no-show's table.

One hall: each group of a round is seated on its own (the groups compete one after another),
so every group starts again from table 1 at the front.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

from puzzlecomp.championships.actions import (
    CHECK_IN,
    NO_SHOW_REPLACED,
    SEATING_ASSIGNED,
    SEATING_PUBLISHED,
    SEATING_UNDONE,
    SEATS_SWAPPED,
)
from puzzlecomp.championships.engine import ruleset_of
from puzzlecomp.championships.models import (
    Entry,
    EntryStatus,
    Round,
    RoundState,
    Seat,
)
from puzzlecomp.championships.selectors.check_in import check_in_status
from puzzlecomp.championships.selectors.history import event_seed_ranks
from puzzlecomp.championships.selectors.planning import (
    floor_plan_of,
    group_labels,
    group_start_at,
    is_first_round,
    seating_get,
    seating_order,
    seating_rule,
)
from puzzlecomp.championships.services.check_in import check_in_record
from puzzlecomp.championships.services.planning_backups import (
    SEATING,
    backup_latest,
    backup_make,
    backup_restore,
    nothing_to_undo,
)
from puzzlecomp.championships.services.work import unit_of_work
from puzzlecomp.planning import (
    PlanningError,
    Seating,
    reassign_no_show,
    seat_entries,
    swap_seats,
)
from puzzlecomp.rules import round_life
from puzzlecomp.rules.check_in import replacement_refusal
from puzzlecomp.rules.errors import RulesError


def _check_not_started(rnd: Round) -> None:
    if rnd.state != RoundState.PLANNED:
        raise PlanningError("seating.round_started",
                            "The round has started; its seating can no longer be redone.")


def _chosen_groups(rnd: Round, groups: list[str] | None) -> list[str]:
    labels = group_labels(rnd)
    chosen = labels if groups is None else groups
    unknown = [g for g in chosen if g not in labels]
    if unknown:
        raise PlanningError("groups.unknown_group", f"Round has no group {unknown[0]!r}.",
                            group=unknown[0])
    return chosen


def _planned_seats(rnd: Round, chosen: list[str]) -> list[Seat]:
    """The seats of the chosen groups in seeding order, not yet written."""
    plan = floor_plan_of(rnd.event.championship)
    rule = seating_rule(rnd)
    rows: list[Seat] = []
    # Rating the history once serves every group.
    ranks = event_seed_ranks(rnd.event) if is_first_round(rnd) else None
    for group in chosen:
        order, entries = seating_order(rnd, group, ranks=ranks)
        if not order:
            raise PlanningError("seating.empty_group",
                                f"Group {group} has no entries to seat.", group=group)
        seating = seat_entries(order, plan,
                               solo_count_per_group=rule.solo_top_per_previous_group,
                               seats_per_table=rule.entries_per_table,
                               share_only_when_needed=rule.shared == "when_needed")
        pk_of = {str(e.number): e.pk for e in entries}
        rows += [Seat(round=rnd, entry_id=pk_of[a.entry], group=group, table=a.table,
                      seat=a.seat) for a in seating.assignments]
    return rows


def seating_assign_preview(*, round: Round, groups: list[str] | None = None) -> tuple[int, int]:
    """What seating the groups again would change (nothing is written): (entries whose table
    or seat changes, entries seated now in those groups)."""
    rnd = round
    _check_not_started(rnd)
    chosen = _chosen_groups(rnd, groups)
    planned = {s.entry_id: (s.group, s.table, s.seat) for s in _planned_seats(rnd, chosen)}
    now = {entry: (group, table, seat) for entry, group, table, seat in
           Seat.objects.filter(round=rnd, group__in=chosen).values_list(
               "entry_id", "group", "table", "seat")}
    changed = sum(1 for entry in planned.keys() | now.keys()
                  if planned.get(entry) != now.get(entry))
    return changed, len(now)


def seating_assign(*, round: Round, groups: list[str] | None = None, user: Any = None) -> int:
    """Seat the given groups of the round (default: all) in seeding order; returns seats made.

    First rounds seat by seed rank then entry number; later rounds by place in the previous
    round, the ruleset's top entries of each previous group alone at a table. Seats replaced
    are kept in a PlanningBackup that `seating_undo` restores. Refused once the round started.
    """
    rnd = round
    _check_not_started(rnd)
    chosen = _chosen_groups(rnd, groups)
    with unit_of_work(SEATING_ASSIGNED, championship=rnd.event.championship, user=user,
                      round=rnd, groups=chosen) as work:
        rows = _planned_seats(rnd, chosen)
        backup_make(round=rnd, kind=SEATING, user=work.user)
        Seat.objects.filter(round=rnd, group__in=chosen).delete()
        # An entry seated in another group before (moved since) leaves that seat.
        Seat.objects.filter(round=rnd, entry_id__in=[r.entry_id for r in rows]).delete()
        Seat.objects.bulk_create(rows, batch_size=500)
        work.record(seats=len(rows))
    return len(rows)


def seating_undo(*, round: Round, user: Any = None) -> int:
    """Restore the seats the latest seating replaced, exactly; returns the entries whose table
    changed back. Refused once the round has started, and when no seating replaced any."""
    rnd = round
    _check_not_started(rnd)
    with unit_of_work(SEATING_UNDONE, championship=rnd.event.championship, user=user,
                      round=rnd) as work:
        backup = backup_latest(rnd, SEATING)
        if backup is None:
            raise nothing_to_undo()
        restored = backup_restore(backup)
        work.record(entries=restored)
    return restored


def _store(rnd: Round, group: str, seating: Seating, entries: dict[str, Entry]) -> None:
    """Write a group's seating back over its seats that are not no-shows."""
    Seat.objects.filter(round=rnd, group=group, no_show=False).delete()
    Seat.objects.filter(round=rnd, entry__in=entries.values(), no_show=False).delete()
    Seat.objects.bulk_create(
        Seat(round=rnd, entry=entries[a.entry], group=group, table=a.table, seat=a.seat)
        for a in seating.assignments
    )


def _seated_entries(rnd: Round, group: str) -> dict[str, Entry]:
    seats = Seat.objects.filter(round=rnd, group=group, no_show=False).select_related("entry")
    return {str(s.entry.number): s.entry for s in seats}


def _group_of(rnd: Round, entry: Entry) -> str:
    seat = Seat.objects.filter(round=rnd, entry=entry, no_show=False).first()
    if seat is None:
        raise PlanningError("seating.unknown_entry", f"Entry {entry.number} has no seat.",
                            entry=entry.number)
    return seat.group


def seating_publish(*, round: Round, user: Any = None) -> int:
    """Publish a round's seating: entrant pages and the API show each entry's table from now
    on (before, the seating is the organiser's draft). Returns the seats published."""
    rnd = round
    with unit_of_work(SEATING_PUBLISHED, championship=rnd.event.championship, user=user,
                      round=rnd) as work:
        seats = Seat.objects.filter(round=rnd).count()
        if not seats:
            raise PlanningError("seating.not_assigned", "Seat the entries before publishing.")
        rnd.seating_published = True
        rnd.save(update_fields=["seating_published"])
        work.record(seats=seats)
    return seats


def seats_swap(*, round: Round, entry_a: Entry, entry_b: Entry, user: Any) -> None:
    """Exchange the seats of two entries of the same group."""
    rnd = round
    with unit_of_work(SEATS_SWAPPED, championship=rnd.event.championship, user=user, round=rnd,
                      entries=[entry_a.number, entry_b.number]) as work:
        group = _group_of(rnd, entry_a)
        if _group_of(rnd, entry_b) != group:
            raise PlanningError("seating.different_groups",
                                f"Entries {entry_a.number} and {entry_b.number} are in "
                                "different groups, which sit in the hall at different times.",
                                entry=entry_a.number, other=entry_b.number)
        swapped = swap_seats(seating_get(rnd, group), str(entry_a.number), str(entry_b.number))
        _store(rnd, group, swapped, _seated_entries(rnd, group))
        work.record(group=group)


def no_show_allowed_at(rnd: Round, group: str = "") -> dt.datetime | None:
    """When a missing entrant's table in `group` may be given away (the ruleset's no-show
    minutes after the group's start); None before a start is set, or where the ruleset has no
    such rule."""
    return round_life.no_show_allowed_at(group_start_at(rnd, group),
                                         ruleset_of(rnd).no_show_after_minutes)


def seat_no_show(*, round: Round, no_show: Entry, replacement: Entry, user: Any,
                 at: dt.datetime | None = None) -> None:
    """Mark an entry as not shown up and give its table to another entry of the event.

    Refused before the ruleset's no-show time after the round's start, and for an entrant the
    check-in desk recorded as present or late. The replacement (a confirmed or waiting-list
    entry) leaves any seat it had in the round and is checked in as present.
    """
    rnd = round
    at = at or timezone.now()
    # The no-show's own group's start (WJPC groups play one after another on the same tables).
    starts_at = group_start_at(rnd, _group_of(rnd, no_show))
    refused = round_life.no_show_refusal(minutes=ruleset_of(rnd).no_show_after_minutes,
                                         starts_at=starts_at, at=at)
    if refused is not None:
        params = dict(refused.params)
        if "allowed" in params:
            params["time"] = timezone.localtime(params.pop("allowed")).strftime("%H:%M")
        raise PlanningError(refused.code, refused.message, **params)
    status_refused = replacement_refusal(
        check_in_status(rnd, no_show), entrant=str(no_show.number), round_start=starts_at,
        no_show_after_minutes=ruleset_of(rnd).no_show_after_minutes, now=at)
    if status_refused is not None:
        raise RulesError(status_refused)
    if replacement.event_id != rnd.event_id or replacement.status not in (
            EntryStatus.CONFIRMED, EntryStatus.WAITING):
        raise PlanningError("seating.replacement_not_eligible",
                            f"Entry {replacement.number} is not a confirmed or waiting entry "
                            "of this event.", entry=replacement.number)
    with unit_of_work(NO_SHOW_REPLACED, championship=rnd.event.championship, user=user,
                      round=rnd, entry=no_show.number,
                      replacement=replacement.number) as work:
        group = _group_of(rnd, no_show)
        entries = _seated_entries(rnd, group) | {str(replacement.number): replacement}
        seating = reassign_no_show(seating_get(rnd, group), str(no_show.number),
                                   str(replacement.number))
        freed = seating.assignment_of(str(replacement.number))
        Seat.objects.filter(round=rnd, entry=no_show).delete()
        entries.pop(str(no_show.number))
        _store(rnd, group, seating, entries)
        # The no-show keeps a record of the table it left, marked as such.
        Seat.objects.create(round=rnd, entry=no_show, group=group, table=freed.table,
                            seat=freed.seat, no_show=True)
        check_in_record(round=rnd, entry=no_show, status="replaced", by=user, at=at)
        check_in_record(round=rnd, entry=replacement, status="present", by=user, at=at)
        work.record(group=group, table=freed.table)
        work.announce(rnd, CHECK_IN)
