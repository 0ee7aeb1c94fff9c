"""Reads for groups, seating and printing: who is in which group, at which table, in what order."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Prefetch, QuerySet

from puzzlecomp.championships.engine import (
    engine_entry,
    flag_of,
    round_ranking,
    ruleset_of,
)
from puzzlecomp.championships.models import (
    Championship,
    Entry,
    EntryMember,
    EntryStatus,
    Event,
    GroupDraw,
    GroupMove,
    QualifierStatus,
    Round,
    Seat,
)
from puzzlecomp.championships.models import Qualifier as QualifierRow
from puzzlecomp.championships.selectors.history import event_seed_ranks
from puzzlecomp.championships.selectors.rounds import group_starts_get
from puzzlecomp.planning import (
    FloorPlan,
    GroupBalance,
    PlanningEntrant,
    PlanningError,
    Seating,
    SeatingEntrant,
    TableAssignment,
    group_balance,
)
from puzzlecomp.rules.qualification import Qualifier, QualifyReason, qualify_for_next_round
from puzzlecomp.rules.ruleset import Round as RoundSpec
from puzzlecomp.rules.ruleset import SeatingRule

# The label of the only "group" of a round that is not split into groups (a final).
WHOLE_ROUND = ""


@dataclass(frozen=True)
class GroupLine:
    """One line of a round's list: the entry, its group and, once seated, its table and seat."""

    number: int
    name: str
    country: str
    group: str
    table: int | None = None
    seat: int | None = None
    no_show: bool = False


@dataclass(frozen=True)
class TableLine:
    """One entry at one table, for the floor map and the printed sheets."""

    number: int
    name: str
    country: str
    seat: int
    no_show: bool = False
    # Withdrawn after the round began: the seat stays as history, struck through.
    cancelled: bool = False


@dataclass(frozen=True)
class HallTable:
    """A table of the hall as drawn: position in the SVG map and the entries sitting there."""

    table: int
    x: int
    y: int
    guest: bool
    entries: tuple[TableLine, ...]


@dataclass(frozen=True)
class FloorMap:
    width: int
    height: int
    tables: tuple[HallTable, ...]


TABLE_WIDTH, TABLE_HEIGHT, GAP = 112, 52, 8


def first_round(event: Event) -> Round | None:
    return event.rounds.order_by("position").first()


def is_first_round(rnd: Round) -> bool:
    return not rnd.event.rounds.filter(position__lt=rnd.position).exists()


def is_last_round(rnd: Round) -> bool:
    """Whether the round is its event's last (its final): nobody qualifies from it."""
    return not rnd.event.rounds.filter(position__gt=rnd.position).exists()


def previous_round(rnd: Round) -> Round | None:
    return rnd.event.rounds.filter(position__lt=rnd.position).order_by("-position").first()


def round_spec(rnd: Round) -> RoundSpec:
    """The ruleset's description of the round (groups to merge, seating rule)."""
    return ruleset_of(rnd).event(rnd.event.code).round(rnd.code)


def seating_rule(rnd: Round) -> SeatingRule:
    return round_spec(rnd).seating


def group_labels(rnd: Round) -> list[str]:
    """The round's groups; a round without groups is seated as one whole."""
    return list(rnd.groups) or [WHOLE_ROUND]


def floor_plan_of(championship: Championship) -> FloorPlan:
    """The hall of the championship; PlanningError when no rows are set up."""
    return FloorPlan(rows=tuple(championship.floor_rows or ()),
                     guest_tables=championship.guest_tables)


# Members joined to their person in one query: prefetching "members__person" in two steps
# makes Django 5.2 spell the second step as one OR per person, which SQLite refuses beyond
# 1,000 people ("Expression tree is too large").
MEMBERS = Prefetch("members", queryset=EntryMember.objects.select_related("person"))
ENTRY_MEMBERS = Prefetch("entry__members", queryset=EntryMember.objects.select_related("person"))


def confirmed_entries(event: Event) -> QuerySet[Entry]:
    """Confirmed entries with what the engine needs to know about their members."""
    return (Entry.objects.filter(event=event, status=EntryStatus.CONFIRMED)
            .select_related("event").prefetch_related(MEMBERS))


def entry_flags(rnd: Round, *, grouped_only: bool = False) -> dict[str, str]:
    """The flag (IOC code or the mixed flag) each confirmed entry competes under, by number.

    Reads only the nationalities (what `entry_flag` looks at), not whole rows: the flags of
    1,200 entries this way take a tenth of the time `engine_entry` on full rows would.
    The nationality of a member is the one they represent, else their own, as in
    `engine.engine_person`.
    """
    spec = ruleset_of(rnd).event(rnd.event.code)
    members = EntryMember.objects.filter(entry__event=rnd.event,
                                         entry__status=EntryStatus.CONFIRMED)
    entries = Entry.objects.filter(event=rnd.event, status=EntryStatus.CONFIRMED)
    if grouped_only:
        members, entries = members.exclude(entry__group=""), entries.exclude(group="")
    codes: dict[int, list[str]] = {}
    for number, represents, nationality in members.order_by("entry_id", "position").values_list(
            "entry__number", "represents", "person__nationality"):
        codes.setdefault(number, []).append(represents or nationality)
    return {
        str(number): flag_of(spec, codes.get(number, ()), country=country)[0]
        for number, country in entries.values_list("number", "country")
    }


def planning_entrants(rnd: Round) -> list[PlanningEntrant]:
    """The confirmed entries of the round's event, as the group assignment sees them."""
    flags = entry_flags(rnd)
    ranks = event_seed_ranks(rnd.event)
    return [PlanningEntrant(str(number), flags[str(number)], rank)
            for number, rank in ranks.items()]


def groups_balance_get(rnd: Round) -> GroupBalance | None:
    """How even the current first-round groups are; None before any group is assigned."""
    group_of = {str(number): group for number, group in Entry.objects.filter(
        event=rnd.event, status=EntryStatus.CONFIRMED).exclude(group="").values_list(
        "number", "group")}
    if not group_of:
        return None
    flags = entry_flags(rnd, grouped_only=True)
    spec = round_spec(rnd)
    return group_balance(group_of, flags, groups=spec.groups or rnd.groups,
                         merges=spec.merging_groups)


def groups_seed_get(rnd: Round) -> int | None:
    """The seed of the latest group assignment of the round."""
    return (GroupDraw.objects.filter(round=rnd).order_by("-drawn_at", "-pk")
            .values_list("seed", flat=True).first())


def group_moves_get(event: Event, *, limit: int = 50) -> list[GroupMove]:
    """The latest hand-made group changes of the event, newest first."""
    return list(GroupMove.objects.filter(entry__event=event)
                .select_related("entry", "moved_by").order_by("-moved_at", "-pk")[:limit])


def group_lines(rnd: Round) -> list[GroupLine]:
    """Every entry of the round with its group and table, by group then entry number.

    First rounds list the event's confirmed entries; later rounds list the seated entries.
    """
    seats = {entry: (group, table, seat, no_show) for entry, group, table, seat, no_show in
             Seat.objects.filter(round=rnd).values_list("entry_id", "group", "table", "seat",
                                                        "no_show")}
    if is_first_round(rnd):
        entries = Entry.objects.filter(event=rnd.event, status=EntryStatus.CONFIRMED)
    else:
        entries = Entry.objects.filter(pk__in=seats)
    lines = []
    for pk, number, name, country, group in entries.values_list(
            "pk", "number", "name", "country", "group"):
        seat = seats.get(pk)
        if seat is None:
            lines.append(GroupLine(number, name, country, group))
        else:
            lines.append(GroupLine(number, name, country, seat[0], *seat[1:]))
    order = {label: i for i, label in enumerate(group_labels(rnd))}
    return sorted(lines, key=lambda ln: (order.get(ln.group, len(order)), ln.number))


def seating_order(rnd: Round, group: str, *, ranks: dict[int, int | None] | None = None,
                  ) -> tuple[list[SeatingEntrant], list[Entry]]:
    """The entries to seat in one group of the round, strongest first, with their rows.

    First rounds: seed rank (from the members' history where they have any, docs/seeding.md),
    then entry number. Later rounds: the qualifiers going to the group (confirmed ones once
    confirmed), by place in the previous round (wjpc-2025.txt: the top 8 of each group sit
    alone). `ranks` are the event's seed ranks when the caller has them already.
    """
    if is_first_round(rnd):
        ranks = event_seed_ranks(rnd.event) if ranks is None else ranks
        entries = sorted(
            Entry.objects.filter(event=rnd.event, status=EntryStatus.CONFIRMED, group=group),
            key=lambda e: (ranks.get(e.number) is None, ranks.get(e.number) or 0, e.number))
        return [SeatingEntrant(str(e.number)) for e in entries], entries
    qualifiers = [q for q in qualifiers_of_previous(rnd) if q.to_group == group]
    qualifiers.sort(key=lambda q: (q.rank, q.entry.group, int(q.entry.id)))
    by_number = {str(e.number): e for e in Entry.objects.filter(
        event=rnd.event, number__in=[int(q.entry.id) for q in qualifiers])}
    return ([SeatingEntrant(q.entry.id, q.entry.group, q.rank) for q in qualifiers],
            [by_number[q.entry.id] for q in qualifiers])


def qualifiers_of_previous(rnd: Round) -> list[Qualifier]:
    """Who goes from the previous round into this one: the organiser's confirmed qualifiers
    (withdrawn ones left out) once there are any, else the engine's; PlanningError if unknown."""
    previous = previous_round(rnd)
    confirmed = (QualifierRow.objects.filter(from_round=previous)
                 .select_related("entry__event").prefetch_related(ENTRY_MEMBERS)
                 if previous is not None else QualifierRow.objects.none())
    if confirmed.exists():
        return [
            Qualifier(dataclasses.replace(engine_entry(row.entry), group=row.from_group),
                      row.rank, row.to_group, QualifyReason(row.reason))
            for row in confirmed if row.status == QualifierStatus.CONFIRMED
        ]
    if previous is None or not previous.results.exists():
        raise PlanningError(
            "seating.previous_round_without_results",
            "The previous round has no results yet, so its qualifiers are not known.",
        )
    ranking = round_ranking(previous)
    return qualify_for_next_round(ranking.lines, ranking.rules)


def seating_get(rnd: Round, group: str) -> Seating:
    """The stored seats of one group of the round (no-shows left out) as a planning Seating."""
    seats = Seat.objects.filter(round=rnd, group=group, no_show=False).select_related("entry")
    return Seating(tuple(TableAssignment(s.table, s.seat, str(s.entry.number)) for s in seats))


def seated_groups(rnd: Round) -> set[str]:
    return set(Seat.objects.filter(round=rnd).values_list("group", flat=True).distinct())


def tables_get(rnd: Round, group: str) -> dict[int, tuple[TableLine, ...]]:
    """The entries at each table of one group's seating, by seat; no-shows last."""
    seats = Seat.objects.filter(round=rnd, group=group).select_related("entry").order_by(
        "table", "no_show", "seat")
    tables: dict[int, list[TableLine]] = {}
    for s in seats:
        tables.setdefault(s.table, []).append(
            TableLine(s.entry.number, s.entry.name, s.entry.country, s.seat, s.no_show,
                      s.entry.status == EntryStatus.CANCELLED))
    return {table: tuple(lines) for table, lines in tables.items()}


def floor_map_get(rnd: Round, group: str) -> FloorMap:
    """The hall drawn row by row from the front, each row centred, with who sits where."""
    plan = floor_plan_of(rnd.event.championship)
    tables = tables_get(rnd, group)
    widest = max(plan.rows)
    width = widest * (TABLE_WIDTH + GAP) + GAP
    drawn = []
    for position in plan.positions():
        row_size = plan.rows[position.row]
        offset = (widest - row_size) * (TABLE_WIDTH + GAP) // 2
        drawn.append(HallTable(
            table=position.table,
            x=GAP + offset + position.column * (TABLE_WIDTH + GAP),
            y=GAP + position.row * (TABLE_HEIGHT + GAP),
            guest=position.guest,
            entries=tables.get(position.table, ()),
        ))
    return FloorMap(width=width, height=len(plan.rows) * (TABLE_HEIGHT + GAP) + GAP,
                    tables=tuple(drawn))


def group_start_at(rnd: Round, group: str) -> dt.datetime | None:
    """When `group` of the round starts: the start the head judge gave it, else its planned
    start, for a round whose groups start one after another (WJPC groups A-F on the same
    tables); the round's own start otherwise."""
    by_group = {start.group: start for start in group_starts_get(rnd)}
    start = by_group.get(group)
    if start is None:
        return rnd.starts_at
    return start.started_at or start.planned_at or rnd.starts_at


def group_of_label(rnd: Round, group: str | None) -> str:
    """The group asked for, defaulting to the round's first; PlanningError when unknown."""
    labels = group_labels(rnd)
    if group is None or (group == "" and labels != [WHOLE_ROUND]):
        return labels[0]
    if group not in labels:
        raise PlanningError("groups.unknown_group", f"Round has no group {group!r}.",
                            group=group)
    return group


def contacts_of(entry: Entry) -> list[str]:
    """Where to write to an entry: its contact email, else its members' own addresses."""
    if entry.contact_email:
        return [entry.contact_email]
    return sorted({m.person.email for m in entry.members.all() if m.person.email})


def entries_by_number(event: Event, numbers: Sequence[int]) -> dict[int, Entry]:
    return {e.number: e for e in Entry.objects.filter(event=event, number__in=numbers)}


def tables_needed(rnd: Round, group: str) -> list[Entry]:
    """The entrants of a first round's group who have no table although the group is seated
    (a waiting entry promoted after the seating, an entry confirmed late): the organiser
    seats them again or gives them a table by hand. Empty before the group is seated."""
    if not is_first_round(rnd) or not Seat.objects.filter(round=rnd, group=group).exists():
        return []
    entries = confirmed_entries(rnd.event).exclude(seats__round=rnd)
    if rnd.groups:
        entries = entries.filter(group__in=(group, ""))
    return list(entries.order_by("number"))
