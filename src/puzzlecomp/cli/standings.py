"""`puzzlecomp standings`: an event's overall standings, or a subcategory's, across its rounds."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from puzzlecomp.cli.championship import django_setup
from puzzlecomp.cli.common import (
    CommandError,
    add_format_argument,
    given_settings,
    located,
    with_declared_facts,
)
from puzzlecomp.formats.championship_input import (
    event_rounds_that_read,
    read_championship_as_far_as_it_goes,
    tiebreaker_rounds,
)
from puzzlecomp.formats.interchange import FORMAT as INTERCHANGE_FORMAT
from puzzlecomp.formats.interchange import (
    ChampionshipFile,
    InterchangeError,
    load_json,
    parse_championship_file,
)
from puzzlecomp.formats.ranking_output import rows_csv
from puzzlecomp.formats.results_csv import InputError, InputProblem, ResultRow
from puzzlecomp.rules.conditions import Value
from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.loading import load_ruleset
from puzzlecomp.rules.prizes import (
    PrizeRound,
    category_with_tiebreaker,
    held_tiebreakers,
    prize_round,
    tiebreaker_round_id,
)
from puzzlecomp.rules.ranking import RankedEntry, rank_round
from puzzlecomp.rules.rounds import resolve_round
from puzzlecomp.rules.ruleset import Event, Ruleset
from puzzlecomp.rules.settings import (
    championship_settings,
    settings_given_twice,
    settings_overridden,
)
from puzzlecomp.rules.standings import StandingLine, event_standings, official_places
from puzzlecomp.rules.subcategories import OVERALL
from puzzlecomp.rules.times import format_time

STANDINGS_COLUMNS = (
    "place",
    "overall_place",
    "entry",
    "name",
    "country",
    "round",
    "group",
    "round_rank",
    "status",
    "final_time",
    "pieces",
)


@dataclass(frozen=True)
class ChampionshipStandings:
    """An event's overall standings with the ruleset, settings and rounds they came from."""

    ruleset: Ruleset
    event: Event
    settings: dict[str, Value]
    rounds: tuple[str, ...]
    standings: list[StandingLine]
    # The ranking of each subcategory tiebreaker held, by subcategory.
    tiebreakers: dict[str, list[RankedEntry]]
    # Rounds whose results are final: a results document's rounds are taken as final, a
    # championship file's only in the state `final` (rules.prizes).
    final_rounds: tuple[str, ...] = ()

    @property
    def prizes(self) -> PrizeRound:
        """The round that decides the prizes, and whether it is final."""
        return prize_round(self.event, self.final_rounds, self.standings)


def add_championship_arguments(parser: argparse.ArgumentParser) -> None:
    """The options `standings` and `awards` share."""
    parser.add_argument(
        "championship",
        metavar="CHAMPIONSHIP",
        help="a championship file of `puzzlecomp championship export`, a folder of "
        "EVENT/ROUND.csv files, or a .json results document (docs/standings-and-awards.md)",
    )
    parser.add_argument(
        "--ruleset", help="ruleset id (default: the JSON document's ruleset)", default=None
    )
    parser.add_argument("--event", required=True, help="event id, e.g. individual, pairs, teams")
    parser.add_argument(
        "--setting",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a championship setting, e.g. host_region=NSW (overrides the JSON document's)",
    )
    parser.add_argument(
        "--category",
        default=None,
        help="overall or a subcategory id, e.g. debutant, junior-18 "
        "(default: overall standings; every category's awards)",
    )
    parser.add_argument(
        "--time-limit",
        type=int,
        metavar="MINUTES",
        help="override the time limit of every round (as `rank` does for one)",
    )
    parser.add_argument(
        "--pieces",
        type=int,
        metavar="N",
        help="override the size of every puzzle of every round (as `rank` does for one)",
    )
    add_format_argument(parser)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "standings",
        help="an event's overall standings across its rounds",
        description="Read every round of an event (a folder of EVENT/ROUND.csv or one JSON "
        "document) and write the standings: finalists by place, then those eliminated in each "
        "earlier round. See docs/standings-and-awards.md.",
    )
    add_championship_arguments(parser)
    parser.set_defaults(run=run)


def championship_standings(args: argparse.Namespace) -> ChampionshipStandings:
    """Read, rank every round and build the overall standings named on the command line."""
    document = _championship_file(Path(args.championship))
    if document is not None:
        return _file_standings(args, document)
    # Every problem of the document in one run: its reading, its settings, its rounds' rows,
    # its tiebreakers' (docs/formats.md).
    championship, read_problems = read_championship_as_far_as_it_goes(Path(args.championship))
    problems = list(read_problems)
    if args.ruleset and championship.ruleset_id and args.ruleset != championship.ruleset_id:
        raise CommandError(
            f"--ruleset {args.ruleset} differs from the ruleset {championship.ruleset_id} "
            f"of {args.championship}"
        )
    ruleset_id = args.ruleset or championship.ruleset_id
    if ruleset_id is None:
        raise CommandError("give --ruleset ID (a folder of CSV files does not name one)")
    ruleset = load_ruleset(ruleset_id)
    values: dict[str, Value] | None = None
    try:
        values = _settings(ruleset, championship.settings, args,
                           f"{args.championship} settings")
    except InputError as exc:
        problems += exc.problems  # the rounds are still ranked for their own problems
    try:
        event = ruleset.event(args.event)
    except KeyError:
        known = ", ".join(e.id for e in ruleset.events)
        raise CommandError(
            f"ruleset {ruleset.id} has no event {args.event!r}; known: {known}"
        ) from None
    rankings: dict[str, Sequence[RankedEntry]] = {}
    tiebreakers: dict[str, list[RankedEntry]] = {}
    # The file and rows of each tiebreaker held, to name them in its problems.
    tiebreaker_files: dict[str, tuple[str, list[ResultRow]]] = {}
    decides = tiebreaker_rounds(event)
    every_round, unread = event_rounds_that_read(championship, ruleset, event)
    problems += unread
    # A row or a round file that did not read leaves the standings incomplete for the
    # tiebreakers' checks; a tiebreaker file's own problems (a bad row, a tiebreaker the event
    # has no subcategory for) do not: the other tiebreakers are still checked in the same run.
    tiebreaker_sources = {
        r.source for r in championship.rounds
        if r.event_id == event.id and _is_tiebreaker_file(event, r.round_id)}
    rounds_ranked = not read_problems and not any(
        p.source not in tiebreaker_sources for p in unread)
    for round_results in every_round:
        category = decides.get(round_results.round_id)
        tiebreaker = event.subcategory_tiebreaker
        rnd = tiebreaker.round if category and tiebreaker else event.round(round_results.round_id)
        rules = resolve_round(
            ruleset,
            event.id,
            rnd.id,
            time_limit_minutes=args.time_limit,
            pieces=args.pieces,
        )
        rows = round_results.rows
        try:
            rows = with_declared_facts(rows, rules, round_results.source)
            ranking = rank_round([(r.entry, r.result) for r in rows], rules, settings=values)
        except RulesError as exc:
            problems.extend(located(exc, rows, round_results.source).problems)
            rounds_ranked = rounds_ranked and bool(category)
            continue
        except InputError as exc:
            problems.extend(exc.problems)
            rounds_ranked = rounds_ranked and bool(category)
            continue
        if category:
            tiebreakers[category] = ranking
            tiebreaker_files[category] = (round_results.source, rows)
        else:
            rankings[rnd.id] = ranking
    standings = event_standings(rankings, event)
    # A folder or results document records results, not states: each round given is final.
    final = (*rankings, *(tiebreaker_round_id(event, category) for category in tiebreakers))
    # The tiebreakers are checked against the standings, so only once every round ranked; with
    # the prize round not given, each tiebreaker held is refused whatever the other rounds say.
    if rounds_ranked or event.prize_round not in final:
        try:
            held_tiebreakers(standings, event, final_rounds=final, tiebreakers=tiebreakers,
                             settings=values)
        except RulesError as exc:
            problems += [
                problem for v in exc.violations
                for problem in located(RulesError(v), tiebreaker_files[v.params["category"]][1],
                                       tiebreaker_files[v.params["category"]][0]).problems
            ]
    if problems or values is None:
        raise InputError(problems)
    return ChampionshipStandings(
        ruleset, event, values, tuple(rankings), standings, tiebreakers, final,
    )


def _is_tiebreaker_file(event: Event, round_id: str) -> bool:
    """Whether a round file of the event is meant as a subcategory tiebreaker's
    ("tiebreaker-junior-18", or "tiebreaker-nope" for a subcategory the event lacks)."""
    rule = event.subcategory_tiebreaker
    return rule is not None and round_id.startswith(f"{rule.round.id}-")


def _settings(ruleset: Ruleset, stored: Mapping[str, object], args: argparse.Namespace,
              where: str) -> dict[str, Value]:
    """The document's settings with the --setting options in their place, checked; a problem
    names --setting or the document's settings, with the setting as its field."""
    given = given_settings(args)
    # The document's own contradiction is refused whatever a --setting puts in its place.
    problems = [InputProblem(where, None, "", v.field, v.message)
                for v in settings_given_twice(stored)]
    try:
        values = championship_settings(ruleset, settings_overridden(stored, given))
    except RulesError as exc:
        on_command_line = {name.casefold() for name in given}
        problems.extend(
            InputProblem("--setting" if v.field.casefold() in on_command_line else where,
                         None, "", v.field, v.message)
            for v in exc.violations)
    if problems:
        raise InputError(list(dict.fromkeys(problems)))
    return values


def _championship_file(path: Path) -> ChampionshipFile | None:
    """The file of `puzzlecomp championship export`, validated; None for any other input."""
    if path.suffix.lower() != ".json" or not path.is_file():
        return None
    try:
        data = load_json(path.read_bytes())
    except (OSError, InterchangeError):
        return None  # read_championship names the problem
    if not isinstance(data, dict) or data.get("format") != INTERCHANGE_FORMAT:
        return None
    try:
        return parse_championship_file(data)
    except InterchangeError as exc:
        raise InputError([InputProblem(str(path), None, "", p.path, p.message)
                          for p in exc.problems]) from None


def _file_standings(args: argparse.Namespace,
                    document: ChampionshipFile) -> ChampionshipStandings:
    """The standings of a championship file, ranked as the web app ranks it: the file's
    ruleset, settings, time limits, puzzle sizes, groups and entrants."""
    source = str(args.championship)
    ruleset_id = document.championship.ruleset_id
    if args.ruleset and args.ruleset != ruleset_id:
        raise CommandError(f"--ruleset {args.ruleset} differs from the ruleset {ruleset_id} "
                           f"of {source}")
    ruleset = load_ruleset(ruleset_id)
    values = _settings(ruleset, document.championship.settings, args,
                       f"{source} championship.settings")
    document = document.model_copy(update={
        "championship": document.championship.model_copy(update={"settings": values})})
    try:
        event = ruleset.event(args.event)
    except KeyError:
        known = ", ".join(e.id for e in ruleset.events)
        raise CommandError(
            f"ruleset {ruleset.id} has no event {args.event!r}; known: {known}") from None
    django_setup()
    from puzzlecomp.championships.engine import round_ranking_in_file

    in_file = {(r.event, r.round) for r in document.results}
    stored = {r.code for e in document.events if e.code == event.id for r in e.rounds}
    rankings: dict[str, Sequence[RankedEntry]] = {}
    problems: list[InputProblem] = []
    for rnd in event.rounds:
        if rnd.id not in stored or (event.id, rnd.id) not in in_file:
            continue
        try:
            rankings[rnd.id] = round_ranking_in_file(document, event.id, rnd.id).lines
        except RulesError as exc:
            problems.extend(InputProblem(f"{source} results", None, v.entry, v.field,
                                         f"{event.id} {rnd.id}: {v.message}")
                            for v in exc.violations)
    # Each subcategory tiebreaker held is a round of the file ("tiebreaker-junior-18").
    tiebreakers: dict[str, list[RankedEntry]] = {}
    for code in sorted(stored):
        category = event.tiebreaker_category(code)
        if category is None or (event.id, code) not in in_file:
            continue
        try:
            tiebreakers[category] = round_ranking_in_file(document, event.id, code).lines
        except RulesError as exc:
            problems.extend(InputProblem(f"{source} results", None, v.entry, v.field,
                                         f"{event.id} {code}: {v.message}")
                            for v in exc.violations)
    if problems:
        raise InputError(problems)
    if not rankings:
        raise InputError([InputProblem(source, None, "", "event",
                                       f"no results for event {event.id}")])
    final = tuple(r.code for e in document.events if e.code == event.id for r in e.rounds
                  if r.state == "final")
    standings = event_standings(rankings, event)
    try:
        held_tiebreakers(standings, event, final_rounds=final, tiebreakers=tiebreakers,
                         settings=values)
    except RulesError as exc:
        raise InputError([InputProblem(
            f"{source} results", None, v.entry, v.field,
            f"{event.id} tiebreaker-{v.params['category']}: {v.message}")
            for v in exc.violations]) from None
    return ChampionshipStandings(
        ruleset, event, values, tuple(rankings), standings, tiebreakers, final)


def run(args: argparse.Namespace) -> int:
    result = championship_standings(args)
    category = args.category or OVERALL
    held = held_tiebreakers(result.standings, result.event, final_rounds=result.final_rounds,
                            tiebreakers=result.tiebreakers, settings=result.settings)
    lines = category_with_tiebreaker(result.standings, result.event, category, held,
                                     settings=result.settings)
    rows = standing_rows(lines)
    columns: tuple[str, ...] = STANDINGS_COLUMNS
    # Where the ruleset has an official ranking (Norway: citizens or 5 years' residence), each
    # line carries its place there beside the overall place (None: outside it).
    official = official_places(result.standings, result.ruleset.official_ranking,
                               settings=result.settings)
    if official:
        at = columns.index("overall_place") + 1
        columns = (*columns[:at], "official_place", *columns[at:])
        rows = [{**row, "official_place": official.get(row["entry"])} for row in rows]
    prizes = result.prizes
    if prizes.provisional:
        sys.stderr.write(still_to_come(result) + "\n")
    if args.format == "json":
        document = {
            "ruleset": result.ruleset.id,
            "event": result.event.id,
            "category": category,
            "rounds": list(result.rounds),
            "provisional": prizes.provisional,
            "prize_round": prizes.round_id,
            "standings": [
                {**row, "final_time_seconds": line.ranked.score.final_time}
                for row, line in zip(rows, lines, strict=True)
            ],
        }
        sys.stdout.write(json.dumps(document, indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(rows_csv(rows, columns))
    return 0


def still_to_come(result: ChampionshipStandings) -> str:
    """The note for standings before the prize round is final: places are provisional."""
    return (f"provisional: the {result.prizes.round_id} round of {result.event.id} decides the "
            "titles and prizes and is still to come (not final); no prize is named before")


def standing_rows(lines: Sequence[StandingLine]) -> list[dict[str, Any]]:
    """One plain dict per line, values as they appear in the CSV (None where blank)."""
    rows = []
    for line in lines:
        score = line.ranked.score
        rows.append(
            {
                "place": line.place,
                "overall_place": line.overall_place,
                "entry": line.entry.id,
                "name": line.entry.name,
                "country": line.entry.country,
                "round": line.round_id,
                "group": line.entry.group,
                "round_rank": line.round_rank,
                "status": score.status.value,
                "final_time": format_time(score.final_time)
                if score.final_time is not None
                else None,
                "pieces": score.pieces,
            }
        )
    return rows
