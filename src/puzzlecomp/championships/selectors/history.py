"""Reads of people's past results: their ratings, and the seeding of an event by them.

The history of an event is every final round of an event with the same code in a
championship that started earlier: the archive's, and this installation's own finished ones.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping

from django.db.models import Sum

from puzzlecomp.championships.models import (
    Championship,
    Entry,
    EntryMember,
    EntryStatus,
    Event,
    Puzzle,
    Result,
    RoundState,
    Seat,
)
from puzzlecomp.planning.rating import (
    PastResult,
    SeedingEntry,
    rate_people,
    seed_entries,
    seed_ranks,
)
from puzzlecomp.rules.history import (
    Participation,
    is_debutant,
    is_first_state_competition_of_year,
)

RATED_STATUSES = ("finished", "unfinished", "dnf")
ACTIVE = (EntryStatus.UNCONFIRMED, EntryStatus.CONFIRMED, EntryStatus.WAITING)


def history_ratings(event: Event) -> Mapping[str, float]:
    """Every person's rating (by person id) from the history of the event (docs/seeding.md)."""
    results = Result.objects.filter(
        round__event__code=event.code, round__state=RoundState.FINAL,
        round__event__championship__starts_at__lt=event.championship.starts_at,
        status__in=RATED_STATUSES)
    rows = list(results.values_list(
        "entry_id", "round_id", "round__event__championship__starts_at", "archive_group",
        "status", "time_seconds", "pieces", "round__time_limit_minutes"))
    round_ids = {row[1] for row in rows}
    pieces_of = dict(Puzzle.objects.filter(round_id__in=round_ids).values("round_id")
                     .annotate(total=Sum("pieces")).values_list("round_id", "total"))
    seat_group = {(rnd, entry): group for rnd, entry, group in Seat.objects.filter(
        round_id__in=round_ids).exclude(group="").values_list("round_id", "entry_id", "group")}
    members: dict[int, list[str]] = defaultdict(list)
    for entry, person in EntryMember.objects.filter(
            entry__results__in=results).distinct().values_list("entry_id", "person_id"):
        members[entry].append(str(person))
    past = []
    for entry, rnd, starts_at, group, status, seconds, pieces, limit in rows:
        puzzle_pieces = pieces_of.get(rnd)
        if not members[entry] or not limit or not puzzle_pieces:
            continue  # without a limit or a puzzle size an unfinished entry has no pace
        finished = status == "finished" and seconds is not None
        past.append(PastResult(
            edition=starts_at.year, round=f"{rnd}:{group or seat_group.get((rnd, entry), '')}",
            people=tuple(members[entry]), completed=finished, time_seconds=seconds,
            pieces_placed=pieces, puzzle_pieces=puzzle_pieces, time_limit_seconds=limit * 60))
    return rate_people(past)


def event_seed_ranks(event: Event) -> dict[int, int | None]:
    """Each confirmed entry's seed rank (by entry number): by its members' history where they
    have any, else the typed `seed_rank` after them (docs/seeding.md)."""
    entries = list(Entry.objects.filter(event=event, status=EntryStatus.CONFIRMED)
                   .order_by("number").values_list("pk", "number", "seed_rank"))
    members: dict[int, list[str]] = defaultdict(list)
    for entry, person in EntryMember.objects.filter(
            entry__event=event, entry__status=EntryStatus.CONFIRMED).order_by(
            "entry_id", "position").values_list("entry_id", "person_id"):
        members[entry].append(str(person))
    ratings = history_ratings(event) if members else {}
    seeds = seed_entries(
        [SeedingEntry(str(number), tuple(members[pk])) for pk, number, _ in entries], ratings)
    ranks = seed_ranks(seeds, {str(number): typed for _, number, typed in entries})
    return {int(entry): rank for entry, rank in ranks.items()}


def member_facts_derived(*, championship: Championship) -> dict[int, tuple[bool, bool]]:
    """(debutant, first state competition of the year) of every member of an active entry, by
    EntryMember id, as their earlier confirmed entries give them (rules/history.py)."""
    members = list(EntryMember.objects.filter(
        entry__event__championship=championship, entry__status__in=ACTIVE)
        .values_list("pk", "person_id", "entry__event__code", "person__earlier_events"))
    past: dict[int, list[Participation]] = defaultdict(list)
    for person, ruleset_id, event, starts_at in EntryMember.objects.filter(
            person_id__in={member[1] for member in members},
            entry__status=EntryStatus.CONFIRMED,
            entry__event__championship__starts_at__lt=championship.starts_at).values_list(
            "person_id", "entry__event__championship__ruleset_id", "entry__event__code",
            "entry__event__championship__starts_at"):
        past[person].append(Participation(ruleset_id, event, starts_at.date()))
    starts_on = championship.starts_at.date()
    return {
        pk: (
            # Earlier events typed in for the person (not in this database) count too.
            event not in (typed_events or [])
            and is_debutant(past[person], ruleset_id=championship.ruleset_id, event=event,
                            starts_on=starts_on),
            is_first_state_competition_of_year(past[person], ruleset_id=championship.ruleset_id,
                                               starts_on=starts_on),
        )
        for pk, person, event, typed_events in members
    }
