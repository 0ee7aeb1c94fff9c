"""WJPC 2025 pairs from 64 countries, first round to final: every round fits the hall."""

from __future__ import annotations

import random

from puzzlecomp.planning import FloorPlan, SeatingEntrant, seat_entries
from puzzlecomp.rules.people import Person
from puzzlecomp.rules.qualification import qualify_for_next_round
from puzzlecomp.rules.ranking import rank_round
from puzzlecomp.rules.results import Entry, Result, Status
from tests.conftest import round_of

COUNTRIES = [f"C{n:02d}" for n in range(64)]


def pair(entry_id: str, group: str, country: str) -> Entry:
    members = (Person(nationality=country), Person(nationality=country))
    return Entry(entry_id, country=country, group=group, members=members)


def seated(qualifiers, rules, floor_plan: FloorPlan) -> None:
    """Seat every next-round group as the organiser's "create next round" does."""
    for group in {q.to_group for q in qualifiers}:
        entrants = [
            SeatingEntrant(q.entry.id, previous_group=q.entry.group, previous_place=q.rank)
            for q in sorted(qualifiers, key=lambda q: (q.rank, q.entry.group, q.entry.id))
            if q.to_group == group
        ]
        seat_entries(entrants, floor_plan,
                     solo_count_per_group=rules.round.seating.solo_top_per_previous_group)


def test_wjpc_2025_pairs_with_64_countries_seat_from_first_round_to_final(wjpc_2025_floor_plan):
    """wjpc-2025.txt, Pairs: 800 pairs in groups A-D, 85 per group plus the country play-off
    to two semifinals of "a maximum of 180 pairs", 50 per semifinal to the final; the top 8 of
    each group sit alone. The 44 smallest countries place last, so every one of them is left for
    the play-off, the most the play-off could ask for."""
    rng = random.Random(2025)
    first = round_of("wjpc-2025", "pairs", "first")
    results = []
    for number in range(800):
        group = "ABCD"[number % 4]
        small = number >= 800 - 44 * 2
        country = COUNTRIES[20 + (number - 712) // 2] if small else COUNTRIES[number % 20]
        time = 3600 + number if small else rng.randint(1500, 3500)
        results.append((pair(f"P{number:03d}", group, country), Result(Status.FINISHED, time=time)))
    qualifiers = qualify_for_next_round(rank_round(results, first), first)
    for semifinal in ("S1", "S2"):
        assert len([q for q in qualifiers if q.to_group == semifinal]) <= 180
    seated(qualifiers, round_of("wjpc-2025", "pairs", "semifinal"), wjpc_2025_floor_plan)

    semifinal = round_of("wjpc-2025", "pairs", "semifinal")
    semi_results = [
        (pair(q.entry.id, q.to_group, q.entry.country),
         Result(Status.FINISHED, time=rng.randint(1500, 3500)))
        for q in qualifiers
    ]
    finalists = qualify_for_next_round(rank_round(semi_results, semifinal), semifinal)
    assert 100 <= len(finalists) <= 104
    seated(finalists, round_of("wjpc-2025", "pairs", "final"), wjpc_2025_floor_plan)
