"""First-round groups: assigning them (wjpc-2025.txt "Group Assignment for First Round"),
moving an entry by hand for a stated reason, and publishing them to the entrants."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.db import transaction
from django.template.loader import render_to_string

from puzzlecomp.championships.actions import (
    GROUP_MOVED,
    GROUPS_ASSIGNED,
    GROUPS_PUBLISHED,
    GROUPS_UNDONE,
)
from puzzlecomp.championships.models import (
    Entry,
    EntryStatus,
    GroupDraw,
    GroupMove,
    Round,
    RoundState,
    Seat,
)
from puzzlecomp.championships.selectors.planning import (
    confirmed_entries,
    contacts_of,
    groups_balance_get,
    is_first_round,
    planning_entrants,
    round_spec,
)
from puzzlecomp.championships.services.facts import member_facts_derive
from puzzlecomp.championships.services.planning_backups import (
    GROUPS,
    backup_latest,
    backup_make,
    backup_restore,
    nothing_to_undo,
)
from puzzlecomp.championships.services.registration import entrant_link
from puzzlecomp.championships.services.work import unit_of_work
from puzzlecomp.planning import GroupAssignment, GroupBalance, PlanningError, assign_groups


def _check_first_round_open(rnd: Round) -> None:
    if not rnd.groups or not is_first_round(rnd):
        raise PlanningError("groups.not_first_round",
                            "Groups are assigned in an event's first round only.")
    if rnd.state != RoundState.PLANNED:
        raise PlanningError("groups.round_started",
                            "The round has started; its groups can no longer change.")


@dataclass(frozen=True)
class GroupsChange:
    """What a new draw would change: entries whose group changes, of all, and seats cleared."""

    changed: int
    entries: int
    seats: int


def _check_may_draw(rnd: Round) -> None:
    _check_first_round_open(rnd)
    if rnd.groups_published:
        raise PlanningError("groups.already_published",
                            "The groups are published; move entries one by one instead.")


def _draw(rnd: Round, seed: int) -> GroupAssignment:
    spec = round_spec(rnd)
    return assign_groups(planning_entrants(rnd), groups=spec.groups or rnd.groups,
                         merges=spec.merging_groups, seed=seed)


def groups_assign_preview(*, round: Round, seed: int) -> GroupsChange:
    """What drawing the groups again with `seed` would change (nothing is written): the
    organiser confirms a new draw over groups already drawn."""
    rnd = round
    _check_may_draw(rnd)
    assignment = _draw(rnd, seed)
    now = dict(Entry.objects.filter(event=rnd.event, status=EntryStatus.CONFIRMED)
               .values_list("number", "group"))
    changed = sum(1 for number, group in assignment.group_of.items()
                  if now.get(int(number)) != group)
    return GroupsChange(changed=changed, entries=len(assignment.group_of),
                        seats=Seat.objects.filter(round=rnd).count())


def groups_assign(*, round: Round, seed: int, user: Any = None) -> GroupAssignment:
    """Assign every confirmed entry of the event a first-round group, reproducibly from `seed`.

    Seats of the round are cleared, as they were made for the old groups. The seed, who and
    when are kept in a GroupDraw; the groups and seats replaced, in a PlanningBackup that
    `groups_undo` restores.
    """
    rnd = round
    _check_may_draw(rnd)
    with unit_of_work(GROUPS_ASSIGNED, championship=rnd.event.championship, user=user,
                      round=rnd) as work:
        member_facts_derive(championship=rnd.event.championship)
        assignment = _draw(rnd, seed)
        backup = backup_make(round=rnd, kind=GROUPS, user=work.user)
        confirmed = Entry.objects.filter(event=rnd.event, status=EntryStatus.CONFIRMED)
        # One UPDATE per group: bulk_update's CASE per row takes a second for 1,200 entries.
        for group in assignment.balance.sizes:
            numbers = [int(n) for n in assignment.members(group)]
            for start in range(0, len(numbers), 500):
                confirmed.filter(number__in=numbers[start:start + 500]).update(group=group)
        cleared, _ = Seat.objects.filter(round=rnd).delete()
        draw = GroupDraw.objects.create(round=rnd, seed=seed, entries=len(assignment.group_of),
                                        drawn_by=work.user)
        if backup is not None:
            backup.draw = draw
            backup.save(update_fields=["draw"])
        b = assignment.balance
        work.record(event=rnd.event.code, seed=seed,
                    entries=len(assignment.group_of), seats_cleared=cleared,
                    sizes=dict(b.sizes), max_country_spread=b.max_country_spread)
    return assignment


def groups_undo(*, round: Round, user: Any = None) -> int:
    """Restore the groups and seats the latest group draw replaced, exactly; returns the
    entries whose group changed back. Refused once the round has started or its groups are
    published, and when no draw replaced anything."""
    rnd = round
    _check_may_draw(rnd)
    with unit_of_work(GROUPS_UNDONE, championship=rnd.event.championship, user=user,
                      round=rnd) as work:
        backup = backup_latest(rnd, GROUPS)
        if backup is None:
            raise nothing_to_undo()
        seed = backup.draw.seed if backup.draw else None
        restored = backup_restore(backup)
        work.record(event=rnd.event.code, seed=seed, entries=restored)
    return restored


def entry_group_move(*, entry: Entry, to_group: str, reason: str, user: Any) -> GroupBalance:
    """Move one entry to another first-round group by hand, recording who and why.

    Returns the balance of the groups after the move. The entry loses its seat in the round.
    """
    rnd = entry.event.rounds.order_by("position").first()
    assert rnd is not None
    _check_first_round_open(rnd)
    reason = reason.strip()
    if not reason:
        raise PlanningError("groups.reason_required",
                            f"Say why entry {entry.number} changes group.", entry=entry.number)
    if to_group not in rnd.groups:
        raise PlanningError("groups.unknown_group", f"Round has no group {to_group!r}.",
                            group=to_group)
    if entry.status != EntryStatus.CONFIRMED:
        raise PlanningError("groups.entry_not_confirmed",
                            f"Entry {entry.number} is not confirmed.", entry=entry.number)
    if entry.group == to_group:
        raise PlanningError("groups.same_group",
                            f"Entry {entry.number} is already in group {to_group}.",
                            entry=entry.number, group=to_group)
    with unit_of_work(GROUP_MOVED, championship=rnd.event.championship, user=user, round=rnd,
                      entry=entry.number, from_group=entry.group, to_group=to_group,
                      reason=reason) as work:
        GroupMove.objects.create(entry=entry, from_group=entry.group, to_group=to_group,
                                 moved_by=work.user, reason=reason)
        entry.group = to_group
        entry.save(update_fields=["group"])
        Seat.objects.filter(round=rnd, entry=entry).delete()
    balance = groups_balance_get(rnd)
    assert balance is not None
    return balance


def groups_publish(*, round: Round, user: Any = None) -> int:
    """Publish the first-round groups and email each entrant theirs; returns the emails queued.

    wjpc-2025.txt: the groups are released before the competition and each participant is
    notified of their group by email. Emails leave after the commit.
    """
    rnd = round
    if not rnd.groups or not is_first_round(rnd):
        raise PlanningError("groups.not_first_round",
                            "Groups are assigned in an event's first round only.")
    with unit_of_work(GROUPS_PUBLISHED, championship=rnd.event.championship, user=user,
                      round=rnd) as work:
        entries = [e for e in confirmed_entries(rnd.event) if e.group]
        if not entries:
            raise PlanningError("groups.not_assigned",
                                "Assign the groups before publishing them.")
        rnd.groups_published = True
        rnd.save(update_fields=["groups_published"])
        messages = group_emails(rnd, entries)
        work.record(emails=len(messages))
        transaction.on_commit(lambda: get_connection().send_messages(messages))
    return len(messages)


def group_emails(rnd: Round, entries: list[Entry]) -> list[EmailMessage]:
    """One email per entry with its group, the round's start and, once seated, its table."""
    seats = {s.entry_id: s for s in Seat.objects.filter(round=rnd, no_show=False)}
    championship = rnd.event.championship
    messages = []
    for entry in entries:
        recipients = contacts_of(entry)
        if not recipients:
            continue
        seat = seats.get(entry.pk)
        results_link = entrant_link(entry)
        context = {"championship": championship, "round": rnd, "event": rnd.event,
                   "entry": entry, "table": seat.table if seat else None,
                   "site_url": settings.SITE_URL, "results_link": results_link}
        subject = render_to_string("emails/group_assigned_subject.txt", context).strip()
        body = render_to_string("emails/group_assigned.txt", context)
        messages.append(EmailMessage(subject, body, to=recipients))
    return messages
