"""Adapters between stored rows and the pure rules engine (rows in, engine values out)."""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.db.models import Prefetch
from django.utils import timezone
from django_countries.fields import Country

from puzzlecomp.championships.models import Entry, EntryMember, Result, Round
from puzzlecomp.championships.models import Person as PersonRow
from puzzlecomp.rules import people, results
from puzzlecomp.rules.flags import entry_flag, is_mixed
from puzzlecomp.rules.loading import load_ruleset
from puzzlecomp.rules.ranking import RankedEntry, rank_round
from puzzlecomp.rules.rounds import RoundRules, resolve_round
from puzzlecomp.rules.ruleset import Event as EventSpec
from puzzlecomp.rules.ruleset import Ruleset


def ruleset_of(rnd_or_entry: Round | Entry) -> Ruleset:
    event = rnd_or_entry.event
    return load_ruleset(event.championship.ruleset_id)


def round_rules(rnd: Round) -> RoundRules:
    """The round's rules, with the organiser's time limit and puzzle size applied."""
    # Prefetched puzzles cost nothing; otherwise read the sizes as values (every judge's
    # write asks, and a Puzzle instance per row cost 5 % of a write).
    if "puzzles" in getattr(rnd, "_prefetched_objects_cache", {}):
        sizes = {p.pieces for p in rnd.puzzles.all() if p.pieces}
    else:
        sizes = set(rnd.puzzles.order_by().filter(pieces__isnull=False)
                    .values_list("pieces", flat=True))
        sizes.discard(0)
    return _resolved(rnd.event.championship.ruleset_id, rnd.event.code, rnd.code,
                     rnd.time_limit_minutes, sizes.pop() if len(sizes) == 1 else None)


@functools.lru_cache(maxsize=1024)
def _resolved(ruleset_id: str, event_code: str, round_code: str,
              time_limit_minutes: int | None, pieces: int | None) -> RoundRules:
    # Rulesets are files loaded once, so the same inputs always resolve the same (and every
    # judge's record asks).
    return resolve_round(load_ruleset(ruleset_id), event_code, round_code,
                         time_limit_minutes=time_limit_minutes, pieces=pieces)


def ioc(country: object) -> str | None:
    """The IOC code of a django-countries value (e.g. GER for Germany), None when blank."""
    code = getattr(country, "ioc_code", "") or getattr(country, "alpha3", "")
    return code or None


@functools.cache
def ioc_of_code(alpha2: str) -> str | None:
    """The IOC code of a stored ISO country code (e.g. "DE" -> "GER"); None when blank."""
    return ioc(Country(alpha2)) if alpha2 else None


def flag_of(spec: EventSpec, iso_codes: Sequence[str], *, country: str = "") -> tuple[str, bool]:
    """The flag members of these countries (ISO codes) compete under, and whether it is the
    mixed flag; `country` is the fallback when no member's nationality is known."""
    members = tuple(people.Person(nationality=ioc_of_code(code)) for code in iso_codes)
    entry = results.Entry(id="", country=country, members=members or (people.Person(),))
    return entry_flag(entry, spec), is_mixed(entry, spec)


def birth_year(person: PersonRow) -> int | None:
    return person.birth_date.year if person.birth_date else None


def engine_person(person: PersonRow, *, event_code: str, represents: object = None,
                  first_state_competition_of_year: bool | None = None,
                  today: dt.date | None = None) -> people.Person:
    """The rule-relevant facts of a stored person (and of their place in an entry)."""
    return engine_person_of(
        event_code=event_code, represents=_code(represents), nationality=_code(person.nationality),
        residence=_code(person.residence), region=person.region,
        years_resident=person.years_resident, birth_year=birth_year(person),
        earlier_events=person.earlier_events,
        first_state_competition_of_year=first_state_competition_of_year,
    )


def engine_person_of(*, event_code: str, represents: str, nationality: str, residence: str,
                     region: str, years_resident: int | None, birth_year: int | None,
                     earlier_events: Sequence[str] | None,
                     first_state_competition_of_year: bool | None = None) -> people.Person:
    """The rule-relevant facts of a person from plain stored values (ISO country codes), for
    reads of whole rounds that skip model instances."""
    own = ioc_of_code(nationality)
    return people.Person(
        nationality=ioc_of_code(represents) or own,
        residence=ioc_of_code(residence) or own,
        region=region or None,
        years_resident=years_resident,
        birth_year=birth_year,
        debutant=event_code not in (earlier_events or []),
        first_state_competition_of_year=first_state_competition_of_year,
    )


def _code(country: object) -> str:
    """The stored ISO code of a django-countries value (or of a plain code string)."""
    return str(getattr(country, "code", country) or "")


def engine_entry(entry: Entry) -> results.Entry:
    """An entry as the engine sees it (members from `with_members` prefetching)."""
    members = tuple(
        engine_person(m.person, event_code=entry.event.code, represents=m.represents,
                      first_state_competition_of_year=m.first_state_competition_of_year)
        for m in entry.members.all()
    )
    return results.Entry(
        id=str(entry.number), name=entry.name, country=entry.country, group=entry.group,
        members=members or (people.Person(),),
    )


def with_members(lookup: str = "members") -> Prefetch:
    """Prefetch entry members with their person in one join.

    A plain `members__person` prefetch makes Django 5.2 put one OR per row into the person
    query, which SQLite refuses beyond 1,000 rows ("Expression tree is too large").
    """
    return Prefetch(lookup, queryset=EntryMember.objects.select_related("person"))


# The columns of a stored result the engine reads (`engine_result_of` takes them as a mapping).
RESULT_FIELDS = ("status", "time_seconds", "pieces", "remaining", "missing", "missing_contiguous",
                 "missing_found", "time_credit", "puzzles")


def engine_result(row: Result) -> results.Result:
    return engine_result_of({name: getattr(row, name) for name in RESULT_FIELDS})


def engine_result_of(values: Mapping[str, Any]) -> results.Result:
    """A result as the engine sees it, from the `RESULT_FIELDS` of a stored row."""
    return results.Result(
        status=results.Status(values["status"]),
        time=values["time_seconds"],
        pieces=values["pieces"],
        remaining=values["remaining"],
        missing=results.MissingPieces(values["missing"], values["missing_contiguous"],
                                      values["missing_found"]),
        time_credit=values["time_credit"],
        puzzles=tuple(engine_puzzle(p) for p in values["puzzles"] or ()),
    )


def engine_puzzle(stored: dict[str, Any]) -> results.PuzzleRecord:
    """One puzzle of a multi-puzzle result, as stored in `Result.puzzles`."""
    return results.PuzzleRecord(
        time=stored.get("time"), pieces=stored.get("pieces"), remaining=stored.get("remaining"),
        missing=results.MissingPieces(stored.get("missing", 0), stored.get("contiguous", 0),
                                      stored.get("found", 0)),
    )


def round_ranking(rnd: Round) -> list[RankedEntry]:
    """The round's ranking as the engine computes it from the stored results."""
    rows: Iterable[Result] = (
        Result.objects.filter(round=rnd)
        .select_related("entry__event")
        .prefetch_related(with_members("entry__members"))
    )
    pairs = []
    for row in rows:
        entry = engine_entry(row.entry)
        pairs.append((entry, engine_result(row)))
    return rank_round(pairs, round_rules(rnd), settings=rnd.event.championship.settings)


def now() -> dt.datetime:
    return timezone.now()
