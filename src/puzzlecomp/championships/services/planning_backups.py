"""What a new group draw or seating replaces, kept so that Undo restores it exactly.

A backup is written inside the unit of work of the draw or seating that replaces something
(`services.groups.groups_assign`, `services.seating.seating_assign`); the undo writes are
there too. Nothing is kept when there was nothing to replace.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from puzzlecomp.championships.models import (
    Entry,
    GroupDraw,
    PlanningBackup,
    PlanningKind,
    Round,
    Seat,
)
from puzzlecomp.planning import PlanningError

# The two kinds of backup (typed as values: the choices' members read as tuples to mypy).
GROUPS = PlanningKind("groups")
SEATING = PlanningKind("seating")


def seats_of(rnd: Round) -> list[dict[str, Any]]:
    """Every seat of the round as plain values (entry numbers, not keys)."""
    return [{"entry": number, "group": group, "table": table, "seat": seat, "no_show": no_show,
             "time_credit": credit}
            for number, group, table, seat, no_show, credit in
            Seat.objects.filter(round=rnd).order_by("table", "seat", "pk").values_list(
                "entry__number", "group", "table", "seat", "no_show", "time_credit")]


def entry_groups_of(rnd: Round) -> dict[str, str]:
    """Every entry of the round's event with its group (JSON keys are text)."""
    return {str(number): group for number, group in
            Entry.objects.filter(event=rnd.event).values_list("number", "group")}


def backup_make(*, round: Round, kind: PlanningKind, user: Any,
                draw: GroupDraw | None = None) -> PlanningBackup | None:
    """Keep the round's groups (for a draw) and seats as they are now, before they are replaced;
    None when there is nothing to replace."""
    rnd = round
    seats = seats_of(rnd)
    groups = entry_groups_of(rnd) if kind == GROUPS else {}
    if not seats and not any(groups.values()):
        return None
    return PlanningBackup.objects.create(round=rnd, kind=kind, groups=groups, seats=seats,
                                         draw=draw, made_by=user)


def backup_latest(rnd: Round, kind: PlanningKind) -> PlanningBackup | None:
    """The backup an Undo restores: the latest of its kind not undone yet."""
    return (PlanningBackup.objects.filter(round=rnd, kind=kind, undone_at__isnull=True)
            .order_by("-made_at", "-pk").first())


def backup_restore(backup: PlanningBackup) -> int:
    """Put the groups (for a draw) and the seats back as the backup holds them; returns the
    entries whose group or table changed back. Marks the backup undone."""
    rnd = backup.round
    numbers = dict(Entry.objects.filter(event=rnd.event).values_list("number", "pk"))
    restored = 0
    if backup.kind == GROUPS:
        now = entry_groups_of(rnd)
        for number, group in now.items():
            wanted = backup.groups.get(number, "")
            if wanted != group:
                Entry.objects.filter(pk=numbers[int(number)]).update(group=wanted)
                restored += 1
        if backup.draw_id is not None:
            # The draw undone no longer holds: the one before it is the latest again.
            GroupDraw.objects.filter(pk=backup.draw_id).delete()
            backup.draw = None
    before = {s["entry"]: (s["group"], s["table"], s["seat"]) for s in seats_of(rnd)}
    Seat.objects.filter(round=rnd).delete()
    kept = [s for s in backup.seats if s["entry"] in numbers]
    Seat.objects.bulk_create(
        [Seat(round=rnd, entry_id=numbers[s["entry"]], group=s["group"], table=s["table"],
              seat=s["seat"], no_show=s["no_show"], time_credit=s["time_credit"])
         for s in kept], batch_size=500)
    after = {s["entry"]: (s["group"], s["table"], s["seat"]) for s in kept}
    if backup.kind == SEATING:
        restored = sum(1 for n in before.keys() | after.keys() if before.get(n) != after.get(n))
    backup.undone_at = timezone.now()
    backup.save(update_fields=["undone_at"])
    return restored


def nothing_to_undo() -> PlanningError:
    return PlanningError("planning.nothing_to_undo", "There is nothing to undo.")
