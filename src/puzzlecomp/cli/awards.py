"""`puzzlecomp awards`: who takes each prize of an event, by the ruleset's award rules."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from typing import Any

from puzzlecomp.cli.standings import (
    add_championship_arguments,
    championship_standings,
    still_to_come,
)
from puzzlecomp.formats.ranking_output import rows_csv
from puzzlecomp.rules.awards import AwardLine
from puzzlecomp.rules.prizes import (
    decided_awards,
    decided_tiebreakers,
    pending_tiebreakers,
    tiebreaker_round_id,
)
from puzzlecomp.rules.ruleset import Event
from puzzlecomp.rules.subcategories import check_category
from puzzlecomp.rules.tiebreakers import TiebreakerCall

TIEBREAKER_COLUMNS = (
    "category", "open_places", "entry", "name", "country", "overall_place", "round",
)
AWARD_COLUMNS = (
    "category",
    "place",
    "entry",
    "name",
    "country",
    "overall_place",
    "round",
    "trophy",
    "money",
    "currency",
    "items",
)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "awards",
        help="an event's prizes: trophies, money and items per place",
        description="Read every round of an event (a folder of EVENT/ROUND.csv or one JSON "
        "document) and list who takes each prize of the ruleset. Ineligible entrants keep their "
        "place but are skipped. See docs/standings-and-awards.md.",
    )
    add_championship_arguments(parser)
    parser.add_argument(
        "--tiebreakers",
        action="store_true",
        help="list the subcategory tiebreakers the results call for, and who takes part, "
        "instead of the prizes",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    result = championship_standings(args)
    if args.category is not None:
        check_category(result.event, args.category)
    if result.prizes.provisional:
        sys.stderr.write(still_to_come(result) + "\n")
    if args.tiebreakers:
        calls = decided_tiebreakers(result.standings, result.event,
                                    final_rounds=result.final_rounds, settings=result.settings)
        rows = tiebreaker_rows(call for call in calls if args.category in (None, call.category))
        sys.stdout.write(json.dumps(rows, indent=2, ensure_ascii=False) + "\n"
                         if args.format == "json" else rows_csv(rows, TIEBREAKER_COLUMNS))
        return 0
    awards = [
        award
        for award in decided_awards(
            result.standings, result.event, result.ruleset, final_rounds=result.final_rounds,
            settings=result.settings, tiebreakers=result.tiebreakers,
        )
        if args.category in (None, award.category)
    ]
    pending = [call for call in pending_tiebreakers(
        result.standings, result.event, final_rounds=result.final_rounds,
        settings=result.settings) if args.category in (None, call.category)]
    for call in pending:
        sys.stderr.write(tiebreaker_to_come(result.event, call) + "\n")
    currency = result.ruleset.currency
    rows = award_rows(awards, currency)
    if args.format == "json":
        document = {
            "ruleset": result.ruleset.id,
            "event": result.event.id,
            "category": args.category,
            "currency": currency,
            "rounds": list(result.rounds),
            "provisional": result.prizes.provisional,
            "prize_round": result.prizes.round_id,
            "pending_tiebreakers": [tiebreaker_round_id(result.event, call.category)
                                    for call in pending],
            "awards": rows,
        }
        sys.stdout.write(json.dumps(document, indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(
            rows_csv(
                [{**row, "trophy": "yes" if row["trophy"] else "no"} for row in rows], AWARD_COLUMNS
            )
        )
    return 0


def tiebreaker_rows(calls: Iterable[TiebreakerCall]) -> list[dict[str, Any]]:
    """One row per entrant called to a subcategory tiebreaker."""
    return [
        {
            "category": call.category,
            "open_places": call.open_places,
            "entry": line.entry.id,
            "name": line.entry.name,
            "country": line.entry.country,
            "overall_place": line.overall_place,
            "round": line.round_id,
        }
        for call in calls
        for line in call.entrants
    ]


def award_rows(awards: Sequence[AwardLine], currency: str) -> list[dict[str, Any]]:
    """One plain dict per prize (None where blank); money is in the ruleset's currency."""
    return [
        {
            "category": award.category,
            "place": award.place,
            "entry": award.entry.id,
            "name": award.entry.name,
            "country": award.entry.country,
            "overall_place": award.overall_place,
            "round": award.standing.round_id,
            "trophy": award.trophy,
            "money": award.money,
            "currency": currency if award.money is not None else None,
            "items": award.items,
        }
        for award in awards
    ]


def tiebreaker_to_come(event: Event, call: TiebreakerCall) -> str:
    """The note for a subcategory whose tiebreaker is not final: its open places wait for it."""
    return (f"pending: the {tiebreaker_round_id(event, call.category)} round of {event.id} "
            f"decides {call.open_places} place(s) of {call.category} and is still to come "
            "(not final); no prize is named for them before")
