"""Reads of people's past results: their ratings, and the seeding of an event by them.

The history of an event is every final round of an event with the same code in a
championship that started earlier: the archive's, and this installation's own finished ones.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping

from django.db.models import Sum

from puzzlecomp.championships.models import (
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

RATED_STATUSES = ("finished", "unfinished", "dnf")


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
