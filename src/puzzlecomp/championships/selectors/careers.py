"""Every counted result across championships, read once: what person pages, country pages,
ranking lists, records and the record badge of live results are made of (docs/archive.md).

A counted result is a checked result of a final round of a published championship: the
archive's and this installation's own. They are read into memory once and again only when a
counted result changes (a one-row signature query tells), so each page is served from memory.
Names and consent are never kept here: pages read them fresh for the people they show.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import threading
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from django.db.models import Count, Max, Q, Sum
from django.db.models.functions import ExtractYear

from puzzlecomp.championships.engine import ioc_of_code, round_ranking
from puzzlecomp.championships.models import (
    EntryMember,
    PersonChange,
    Puzzle,
    Result,
    Round,
    RoundState,
)
from puzzlecomp.planning.ranking_list import FieldResult, result_points
from puzzlecomp.planning.records import (
    TimedResult,
    national_records,
    world_records,
)
from puzzlecomp.rules import people, results
from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.history import edition_rules_known, ruleset_series
from puzzlecomp.rules.loading import load_ruleset
from puzzlecomp.rules.subcategories import subcategory_admits

T = TypeVar("T")
COUNTED = Q(round__state=RoundState.FINAL, checked=True,
            round__event__championship__published=True)
# Statuses that are a result (a time or a count of pieces); dnf, dsq, dns are listed only.
SCORED_STATUSES = ("finished", "unfinished")


@dataclass(frozen=True)
class RoundFacts:
    """A final round and where it belongs: championship, series, event, puzzle size."""

    id: int
    championship_slug: str
    championship_name: str
    series: str
    ruleset_id: str
    starts_on: dt.date
    archived: bool
    event_code: str
    event_name: str
    event_position: int
    code: str
    name: str
    position: int
    # The event's last round: its places are the championship's podium.
    last: bool
    puzzle_pieces: int | None
    limit_seconds: int | None

    @property
    def edition(self) -> str:
        """Sorts the series' editions in the order they took place."""
        return f"{self.starts_on.isoformat()} {self.championship_slug}"

    @property
    def year(self) -> int:
        return self.starts_on.year


@dataclass(frozen=True)
class CountedResult:
    id: int
    round: RoundFacts
    entry: int
    entry_number: int
    entry_name: str
    # The IOC code of the flag the entry competed under ("" mixed or unknown).
    country: str
    people: tuple[int, ...]
    group: str
    place: int | None
    status: str
    final_seconds: int | None
    pieces: int | None
    categories: frozenset[str]


@dataclass
class Archive:
    """The counted results, indexed for the pages."""

    results: list[CountedResult]
    points: dict[int, float]
    by_id: dict[int, CountedResult] = field(default_factory=dict)
    by_person: dict[int, list[CountedResult]] = field(default_factory=dict)
    timed: list[TimedResult] = field(default_factory=list)
    world: dict[tuple[str, int, str], TimedResult] = field(default_factory=dict)
    national: dict[tuple[str, int, str], TimedResult] = field(default_factory=dict)
    # (round id, final time, country) of the finishes of each (event, puzzle size).
    by_size: dict[tuple[str, int], list[tuple[int, int, str]]] = field(default_factory=dict)
    # What pages derive from these results alone (ranking lists), kept as long as they are.
    memo: dict[Any, Any] = field(default_factory=dict)

    def remembered(self, key: Any, make: Callable[[], T]) -> T:
        """`make()` once per archive read; the same value while the results stay the same."""
        if key not in self.memo:
            self.memo[key] = make()
        return self.memo[key]  # type: ignore[no-any-return]

    def __post_init__(self) -> None:
        by_person: dict[int, list[CountedResult]] = defaultdict(list)
        for result in self.results:
            self.by_id[result.id] = result
            for person in result.people:
                by_person[person].append(result)
        self.by_person = dict(by_person)
        self.timed = [timed_result(r) for r in self.results
                      if r.final_seconds is not None and r.round.puzzle_pieces]
        self.world = world_records(self.timed)
        self.national = national_records(self.timed)
        by_size: dict[tuple[str, int], list[tuple[int, int, str]]] = defaultdict(list)
        for result in self.results:
            if result.final_seconds is not None and result.round.puzzle_pieces:
                by_size[(result.round.event_code, result.round.puzzle_pieces)].append(
                    (result.round.id, result.final_seconds, result.country))
        self.by_size = dict(by_size)


def timed_result(result: CountedResult) -> TimedResult:
    return TimedResult(
        result=result.id, event=result.round.event_code,
        puzzle_pieces=result.round.puzzle_pieces or 0,
        final_seconds=result.final_seconds or 0, country=result.country, people=result.people,
        categories=result.categories, order=(result.round.edition, result.round.position))


_lock = threading.Lock()
_cached: tuple[tuple[Any, ...], Archive] | None = None


def counted_results() -> Archive:
    """Every counted result, from memory while no counted result (nor who is who) has
    changed."""
    global _cached
    # A merge or split of people (a PersonChange) moves entries without touching a result.
    signature = (
        *Result.objects.filter(COUNTED).aggregate(
            n=Count("pk"), last=Max("recorded_at"), top=Max("pk")).values(),
        *PersonChange.objects.aggregate(top=Max("pk")).values(),
    )
    with _lock:
        if _cached is not None and _cached[0] == signature:
            return _cached[1]
        archive = _read()
        _cached = (signature, archive)
        return archive


def _rounds() -> dict[int, RoundFacts]:
    rounds = list(Round.objects.filter(
        state=RoundState.FINAL, event__championship__published=True).values_list(
        "pk", "event__championship__slug", "event__championship__name",
        "event__championship__ruleset_id", "event__championship__starts_at",
        "event__championship__archived", "event_id", "event__code", "event__name",
        "event__position", "code", "name", "position", "time_limit_minutes"))
    event_ids = {row[6] for row in rounds}
    last = dict(Round.objects.filter(event_id__in=event_ids).values("event_id")
                .annotate(top=Max("position")).values_list("event_id", "top"))
    pieces = dict(Puzzle.objects.filter(round_id__in=[row[0] for row in rounds])
                  .values("round_id").annotate(total=Sum("pieces"))
                  .values_list("round_id", "total"))
    return {
        pk: RoundFacts(
            id=pk, championship_slug=slug, championship_name=name,
            series=ruleset_series(ruleset_id), ruleset_id=ruleset_id,
            starts_on=starts.date(), archived=archived, event_code=code,
            event_name=event_name, event_position=event_position, code=round_code,
            name=round_name, position=position, last=position == last[event],
            puzzle_pieces=pieces.get(pk) or None,
            limit_seconds=limit * 60 if limit else None)
        for (pk, slug, name, ruleset_id, starts, archived, event, code, event_name,
             event_position, round_code, round_name, position, limit) in rounds
    }


@dataclass(frozen=True)
class _Member:
    person: int
    nationality: str
    birth_year: int | None
    debutant: bool


def _members(entry_ids: set[int]) -> dict[int, list[_Member]]:
    members: dict[int, list[_Member]] = defaultdict(list)
    for entry, person, represents, nationality, born, debutant in (
            EntryMember.objects.filter(entry__event__championship__published=True,
                                       entry__event__rounds__state=RoundState.FINAL)
            .distinct().order_by("entry_id", "position", "pk")
            .values_list("entry_id", "person_id", "represents", "person__nationality",
                         ExtractYear("person__birth_date"), "debutant")):
        if entry in entry_ids:
            members[entry].append(_Member(person, str(represents or nationality or ""), born,
                                          bool(debutant)))
    return members


@functools.lru_cache(maxsize=4096)
def _categories(ruleset_id: str, event_code: str,
                facts: tuple[tuple[int | None, bool], ...]) -> frozenset[str]:
    """The subcategories an entry of these members' (birth year, debutant) belongs to."""
    try:
        spec = load_ruleset(ruleset_id).event(event_code)
    except (RulesError, KeyError):
        return frozenset()
    entry = results.Entry(id="", members=tuple(
        people.Person(birth_year=born, debutant=debutant) for born, debutant in facts)
        or (people.Person(),))
    return frozenset(s.id for s in spec.subcategories if subcategory_admits(s, entry))


def _engine_lines(rnd: RoundFacts) -> tuple[RoundFacts, dict[int, tuple[Any, ...]]]:
    """The round with the puzzle size and limit its rules resolve to, and (place, final time,
    group, status) by entry number, from the engine's ranking of a round of this installation
    (the archive keeps the published places instead)."""
    try:
        ranked = round_ranking(Round.objects.select_related("event__championship")
                               .get(pk=rnd.id))
    except RulesError:
        return rnd, {}
    return (dataclasses.replace(rnd, puzzle_pieces=ranked.rules.total_pieces or None,
                                limit_seconds=ranked.rules.time_limit_seconds or None),
            {int(line.entry.id): (line.rank, line.score.final_time, line.entry.group,
                                  str(line.score.status)) for line in ranked.lines})


def _read() -> Archive:
    rounds = _rounds()
    rows = list(Result.objects.filter(COUNTED, round_id__in=rounds).order_by("pk").values_list(
        "pk", "round_id", "entry_id", "entry__number", "entry__name", "entry__country",
        "status", "time_seconds", "pieces", "published_rank", "archive_group"))
    members = _members({row[2] for row in rows})
    engine = {pk: _engine_lines(rnd) for pk, rnd in rounds.items() if not rnd.archived}
    rounds.update({pk: facts for pk, (facts, _) in engine.items()})
    counted = []
    for pk, round_id, entry, number, name, country, status, seconds, pieces, rank, group in rows:
        rnd = rounds[round_id]
        if not rnd.archived:
            ranked = engine[round_id][1]
            if number not in ranked:
                continue  # the round's rules are incomplete: nothing ranked to count
            rank, seconds, group, status = ranked[number]
        its = members.get(entry, [])
        # An archived edition imported with another edition's rules: its birth-year limits
        # are unknown, so no age category (the debutant fact stands).
        aged = not rnd.archived or edition_rules_known(rnd.ruleset_id, rnd.year)
        counted.append(CountedResult(
            id=pk, round=rnd, entry=entry, entry_number=number, entry_name=name,
            country=country or _common_flag(its), people=tuple(m.person for m in its),
            group=group, place=rank, status=status,
            final_seconds=seconds if status == "finished" else None,
            pieces=pieces if status == "unfinished" else None,
            categories=_categories(rnd.ruleset_id, rnd.event_code,
                                   tuple((m.birth_year if aged else None, m.debutant)
                                         for m in its))))
    return Archive(counted, result_points(_field_results(counted)))


def _common_flag(members: Iterable[_Member]) -> str:
    codes = {m.nationality for m in members}
    return (ioc_of_code(codes.pop()) or "") if len(codes) == 1 else ""


def _field_results(counted: Iterable[CountedResult]) -> Iterable[FieldResult]:
    for result in counted:
        if result.status not in SCORED_STATUSES:
            continue
        yield FieldResult(
            result=result.id, field=f"{result.round.id}:{result.group}",
            finished=result.status == "finished", final_seconds=result.final_seconds,
            pieces_placed=result.pieces, puzzle_pieces=result.round.puzzle_pieces,
            time_limit_seconds=result.round.limit_seconds)
