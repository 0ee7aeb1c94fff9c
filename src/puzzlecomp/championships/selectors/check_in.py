"""Reads for the check-in desk: who is expected in a round, their check-in, and who may be
replaced under the ruleset's no-show rule."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from puzzlecomp.championships.engine import ruleset_of
from puzzlecomp.championships.models import (
    Championship,
    CheckIn,
    Entry,
    EntryMember,
    EntryStatus,
    Round,
    Seat,
)
from puzzlecomp.championships.selectors.planning import group_lines, is_first_round
from puzzlecomp.rules.check_in import CheckInStatus, offered_for_replacement, table_free_at
from puzzlecomp.rules.identity import folded

# A scanned QR code gives the entrant's private link; its last path part is the token.
_TOKEN_IN_LINK = re.compile(r"/disputes/([A-Za-z0-9_-]{16,64})/?(?:[?#].*)?$")


@dataclass(frozen=True)
class DeskLine:
    """One entrant at the check-in desk."""

    number: int
    name: str
    members: str
    country: str
    group: str
    table: int | None
    status: CheckInStatus | None
    at: dt.datetime | None
    by: str
    # The ruleset's no-show rule offers this entrant's table to someone else now.
    offered: bool = False

    def matches(self, query: str) -> bool:
        """True when the query is the entry's number or part of a name in it (case and
        accents ignored: "novak" finds Nováková on a keyboard without Czech letters)."""
        wanted = folded(query.strip())
        if not wanted:
            return True
        if wanted.lstrip("#").isascii() and wanted.lstrip("#").isdigit():
            return int(wanted.lstrip("#")) == self.number
        return wanted in folded(self.name) or wanted in folded(self.members)


@dataclass(frozen=True)
class Desk:
    """A round as the desk sees it: every entrant, counts per status, when tables free up."""

    lines: tuple[DeskLine, ...]
    counts: dict[str, int]
    tables_free_at: dt.datetime | None


def desk_get(rnd: Round, *, now: dt.datetime) -> Desk:
    """Every entrant of the round by name, with their check-in and the no-show rule's offer.

    The entrants are those of the round's list (`group_lines`): a first round's confirmed
    entries, a later round's seated ones; an entrant whose table was given away stays listed.
    """
    lines = group_lines(rnd)
    entry_ids = dict(Entry.objects.filter(event=rnd.event, number__in=[ln.number for ln in lines])
                     .values_list("number", "pk"))
    check_ins = {c.entry_id: c for c in CheckIn.objects.filter(round=rnd).select_related("by")}
    members: dict[int, list[str]] = {}
    sort_name: dict[int, str] = {}
    for entry_id, first, last in (EntryMember.objects.filter(entry_id__in=entry_ids.values())
                                  .order_by("entry_id", "position")
                                  .values_list("entry_id", "person__first_name",
                                               "person__last_name")):
        members.setdefault(entry_id, []).append(f"{first} {last}")
        sort_name.setdefault(entry_id, f"{last} {first}")
    # Individuals by surname; pairs and teams by the name they registered under.
    by_person = rnd.event.members_max == 1
    minutes = ruleset_of(rnd).no_show_after_minutes
    statuses = {str(ln.number): _status(check_ins.get(entry_ids[ln.number])) for ln in lines}
    offered = set(offered_for_replacement(statuses, round_start=rnd.starts_at,
                                          no_show_after_minutes=minutes, now=now))
    desk_lines = []
    keys: dict[int, str] = {}
    for line in lines:
        entry_id = entry_ids[line.number]
        keys[line.number] = folded(sort_name.get(entry_id, line.name) if by_person
                                      else line.name)
        check_in = check_ins.get(entry_ids[line.number])
        desk_lines.append(DeskLine(
            number=line.number, name=line.name,
            members=", ".join(members.get(entry_ids[line.number], ())),
            country=line.country, group=line.group, table=line.table,
            status=_status(check_in), at=check_in.at if check_in else None,
            by=check_in.by.get_username() if check_in and check_in.by else "",
            offered=str(line.number) in offered,
        ))
    desk_lines.sort(key=lambda ln: (keys[ln.number], ln.number))
    counts = {"all": len(desk_lines), "none": 0, "offered": len(offered)}
    for desk_line in desk_lines:
        key = desk_line.status or "none"
        counts[key] = counts.get(key, 0) + 1
    return Desk(tuple(desk_lines), counts,
                table_free_at(round_start=rnd.starts_at, no_show_after_minutes=minutes))


def desk_search(lines: Sequence[DeskLine], query: str) -> list[DeskLine]:
    """The lines the desk's search finds: by entry number or part of a name."""
    return [line for line in lines if line.matches(query)]


def entry_by_link(championship: Championship, scanned: str) -> Entry | None:
    """The entry whose private link (or bare token) was scanned from its QR code."""
    text = scanned.strip()
    found = _TOKEN_IN_LINK.search(text)
    token = found.group(1) if found else text
    if not re.fullmatch(r"[A-Za-z0-9_-]{16,64}", token):
        return None
    return Entry.objects.filter(event__championship=championship, token=token).first()


def replacement_candidates(rnd: Round) -> list[Entry]:
    """Entries that may take a freed table: the event's waiting list in its order, then
    confirmed entries the round does not expect (no seat, and in a first round no group)."""
    seated = Seat.objects.filter(round=rnd).values("entry_id")
    waiting = Entry.objects.filter(event=rnd.event, status=EntryStatus.WAITING)
    spare = Entry.objects.filter(event=rnd.event, status=EntryStatus.CONFIRMED)
    if is_first_round(rnd):
        spare = spare.filter(group="")
    return [entry for query in (waiting, spare)
            for entry in query.exclude(pk__in=seated).order_by("registered_at", "pk")
            .only("number", "name", "status")]


def check_in_status(rnd: Round, entry: Entry) -> CheckInStatus | None:
    """What the desk recorded for the entry in the round; None: not checked in."""
    return _status(CheckIn.objects.filter(round=rnd, entry=entry).first())


def _status(check_in: CheckIn | None) -> CheckInStatus | None:
    return None if check_in is None else cast(CheckInStatus, check_in.status)
