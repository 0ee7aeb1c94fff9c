"""The one way from stored rows to the rules engine: people, entries, results, round rules,
and the one ranking of a round (`round_ranking`, `round_ranking_of` for rows read elsewhere,
e.g. a championship file)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import F, Prefetch, Q, TextField
from django.db.models.functions import Cast, ExtractYear
from django.utils import timezone
from django_countries.fields import Country

from puzzlecomp.championships.models import Entry, EntryMember, Result, Round, Seat
from puzzlecomp.championships.models import Person as PersonRow
from puzzlecomp.formats.interchange import ChampionshipFile, MemberData, PersonData
from puzzlecomp.rules import people, results
from puzzlecomp.rules.conditions import Value
from puzzlecomp.rules.errors import RulesError, violation
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
    return round_rules_sized(rnd, round_pieces(rnd))


def round_rules_sized(rnd: Round, pieces: int | None) -> RoundRules:
    """The round's rules for the puzzle size `pieces` already read (round_pieces)."""
    rules = round_rules_of(rnd.event.championship.ruleset_id, rnd.event.code, rnd.code,
                           rnd.time_limit_minutes, pieces)
    # An archived round no rule sizes (docs/archive.md, Unsized rounds).
    return dataclasses.replace(rules, sizes_known=False) if rnd.size_unknown else rules


def round_pieces(rnd: Round) -> int | None:
    """The organiser's puzzle size of the round: the one size its puzzles share, else None."""
    # Prefetched puzzles cost nothing; otherwise read the sizes as values (every judge's
    # write asks, and a Puzzle instance per row cost 5 % of a write).
    if "puzzles" in getattr(rnd, "_prefetched_objects_cache", {}):
        return shared_size(p.pieces for p in rnd.puzzles.all())
    return shared_size(rnd.puzzles.order_by().filter(pieces__isnull=False)
                       .values_list("pieces", flat=True))


def shared_size(sizes: Iterable[int | None]) -> int | None:
    """The one size among `sizes` (a blank or 0 is no size), else None: a round's puzzles of
    more than one size have no single size to check a count against."""
    found = {size for size in sizes if size}
    return found.pop() if len(found) == 1 else None


@functools.lru_cache(maxsize=1024)
def round_rules_of(ruleset_id: str, event_code: str, round_code: str,
                   time_limit_minutes: int | None, pieces: int | None) -> RoundRules:
    """A round's rules from its stored ids, time limit and puzzle size (one size for every
    puzzle, None: the ruleset's); RulesError naming what is missing."""
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
                  today: dt.date | None = None, debutant: bool | None = None) -> people.Person:
    """The rule-relevant facts of a stored person (and of their place in an entry)."""
    return engine_person_of(
        event_code=event_code, represents=_code(represents), nationality=_code(person.nationality),
        residence=_code(person.residence), region=person.region,
        years_resident=person.years_resident, birth_year=birth_year(person),
        earlier_events=person.earlier_events, debutant=debutant,
        first_state_competition_of_year=first_state_competition_of_year,
    )


def engine_person_of(*, event_code: str, represents: str, nationality: str, residence: str,
                     region: str, years_resident: int | None, birth_year: int | None,
                     earlier_events: Sequence[str] | None, debutant: bool | None = None,
                     first_state_competition_of_year: bool | None = None) -> people.Person:
    """The rule-relevant facts of a person from plain stored values (ISO country codes), for
    reads of whole rounds that skip model instances.

    `debutant` and `first_state_competition_of_year` are the entry member's facts derived from
    history (services/facts.py); without them a debutant is one whose typed earlier events
    do not name the event.
    """
    own = ioc_of_code(nationality)
    return people.Person(
        nationality=ioc_of_code(represents) or own,
        residence=ioc_of_code(residence) or own,
        region=region or None,
        years_resident=years_resident,
        birth_year=birth_year,
        debutant=event_code not in (earlier_events or []) if debutant is None else debutant,
        first_state_competition_of_year=first_state_competition_of_year,
    )


def _code(country: object) -> str:
    """The stored ISO code of a django-countries value (or of a plain code string)."""
    return str(getattr(country, "code", country) or "")


def engine_entry(entry: Entry) -> results.Entry:
    """An entry as the engine sees it (members from `with_members` prefetching)."""
    members = tuple(
        engine_person(m.person, event_code=entry.event.code, represents=m.represents,
                      debutant=m.debutant,
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


# The members of an entry stored without any: one person of whom nothing is known.
NO_MEMBERS = (people.Person(),)


def entrant_group(*, first_round: bool, entry_group: str, seat_group: str | None,
                  archive_group: str = "") -> str:
    """The group an entrant sat in during a round: a first round's groups are the entries'
    own (assigned before seating); a later round's come from its seats (S1 merges A and B).
    An archived round has no seats: its result rows keep the published group."""
    if archive_group:
        return archive_group
    if first_round:
        return entry_group
    return seat_group or ""


@dataclass(frozen=True)
class RoundRanking:
    """A round's ranking (the engine's, group by group as the entrants sat), the rules it was
    ranked under and the stored result rows it ranked, by entry number."""

    lines: list[RankedEntry]
    rules: RoundRules
    rows: dict[int, dict[str, Any]]


def round_ranking_of(rows: Sequence[dict[str, Any]],
                     members: Mapping[int, tuple[people.Person, ...]], rules: RoundRules,
                     settings: Mapping[str, Value]) -> RoundRanking:
    """The ranking of a round from stored rows as plain values: every page, download, API
    answer, snapshot and command ranks through here.

    Each row holds `number`, `name`, `country`, `group` (see `entrant_group`) and the
    `RESULT_FIELDS`; `members` are the engine's people of each entry number. Groups are
    ranked in the order of their first row.
    """
    pairs = [(results.Entry(id=str(row["number"]), name=row["name"], country=row["country"],
                            group=row["group"], members=members.get(row["number"]) or NO_MEMBERS),
              engine_result_of(row)) for row in rows]
    return RoundRanking(rank_round(pairs, rules, settings=settings), rules,
                        {row["number"]: row for row in rows})


def round_ranking(rnd: Round, *, rules: RoundRules | None = None) -> RoundRanking:
    """The round's ranking from the database (RulesError when its rules are incomplete).

    Read as plain values (one query for the results with their entries, one for the members
    with their persons): model instances and a prefetch per row cost ten times more for a WJPC
    round of 1,200 results, which the live snapshot ranks on every notice.
    """
    event = rnd.event
    rules = rules or round_rules(rnd)
    first = not event.rounds.filter(position__lt=rnd.position).exists()
    seat_group = ({} if first else
                  dict(Seat.objects.filter(round=rnd).values_list("entry_id", "group")))
    # By primary key: the groups are ranked in the order their first result appears.
    rows = list(Result.objects.filter(round=rnd).order_by("pk").values(
        "entry_id", "checked", "version", "archive_group", "published_rank",
        *(f for f in RESULT_FIELDS if f != "puzzles"),
        number=F("entry__number"), name=F("entry__name"), country=F("entry__country"),
        entry_group=F("entry__group"), puzzles_json=Cast("puzzles", TextField())))
    for row in rows:
        row["puzzles"] = json_list(row.pop("puzzles_json"))
        row["group"] = entrant_group(first_round=first, entry_group=row.pop("entry_group"),
                                     seat_group=seat_group.get(row["entry_id"]),
                                     archive_group=row.pop("archive_group"))
    members = {number: tuple(persons) for number, persons in _members_of_round(rnd).items()}
    ranking = round_ranking_of(rows, members, rules, event.championship.settings)
    if event.championship.archived:
        return _published_places(ranking)
    return ranking


def _published_places(ranking: RoundRanking) -> RoundRanking:
    """An archived round shows the places the results were published with: the same as the
    engine's but for finishes past the rules' limit, now did-not-finish at their published
    place (docs/archive.md)."""
    lines = [line._replace(rank=published) if (published := ranking.rows[int(line.entry.id)]
                                                .get("published_rank")) else line
             for line in ranking.lines]
    order = {group: i for i, group in enumerate(dict.fromkeys(ln.entry.group for ln in lines))}
    lines.sort(key=lambda ln: (order[ln.entry.group], ln.rank is None, ln.rank or 0))
    return dataclasses.replace(ranking, lines=lines)


def round_entrants_without_result(rnd: Round, *, members: bool = True) -> list[results.Entry]:
    """The entrants seated in the round (no-shows aside) who have no result yet: while the
    round runs, those still puzzling. Grouped as `round_ranking` groups them; without
    `members` (when no rule reads them) they stand for one person of whom nothing is known."""
    first = not rnd.event.rounds.filter(position__lt=rnd.position).exists()
    seats = list(Seat.objects.filter(round=rnd, no_show=False)
                 .exclude(entry__results__round=rnd)
                 .values_list("entry__number", "entry__name", "entry__country", "entry__group",
                              "group"))
    if not seats:
        return []
    persons = _members_of_round(rnd, Q(entry__seats__round=rnd, entry__seats__no_show=False)
                                & ~Q(entry__results__round=rnd)) if members else {}
    return [results.Entry(id=str(number), name=name, country=country,
                          group=entrant_group(first_round=first, entry_group=entry_group,
                                              seat_group=seat_group),
                          members=tuple(persons.get(number, ())) or NO_MEMBERS)
            for number, name, country, entry_group, seat_group in seats]


def _members_of_round(rnd: Round, entries: Q | None = None) -> dict[int, list[people.Person]]:
    """The engine's people of every entry with a result in the round (or of `entries`), by
    entry number, in the order of `EntryMember.position`."""
    members: dict[int, list[people.Person]] = {}
    for (number, represents, first_of_year, nationality, residence, region, years_resident,
         born, earlier_events, debutant) in (
            EntryMember.objects.filter(Q(entry__results__round=rnd) if entries is None
                                       else entries)
            .order_by("entry_id", "position", "pk")
            .values_list("entry__number", "represents", "first_state_competition_of_year",
                         "person__nationality", "person__residence", "person__region",
                         "person__years_resident", ExtractYear("person__birth_date"),
                         Cast("person__earlier_events", TextField()), "debutant")):
        members.setdefault(number, []).append(engine_person_of(
            event_code=rnd.event.code, represents=represents, nationality=nationality,
            residence=residence, region=region, years_resident=years_resident,
            birth_year=born, earlier_events=json_list(earlier_events), debutant=debutant,
            first_state_competition_of_year=first_of_year))
    return members


def round_ranking_in_file(document: ChampionshipFile, event_code: str,
                          round_code: str) -> RoundRanking:
    """The round's ranking from a championship file (docs/interchange.md): the same rows, the
    same groups and the same rules as from the database it was exported from.

    RulesError (`event.unknown`, `round.unknown`, or what the round's rules lack).
    """
    event = next((e for e in document.events if e.code == event_code), None)
    if event is None:
        raise RulesError(violation("event.unknown", f"the file has no event {event_code!r}",
                                   field="event", event=event_code))
    rnd = next((r for r in event.rounds if r.code == round_code), None)
    if rnd is None:
        raise RulesError(violation("round.unknown", f"event {event_code} has no round "
                                   f"{round_code!r} in the file", field="round",
                                   round=round_code))
    first = not any(other.position < rnd.position for other in event.rounds)
    seat_group = {s.entry: s.group for s in document.seats
                  if (s.event, s.round) == (event_code, round_code)}
    entries = {e.number: e for e in document.entries if e.event == event_code}
    people_of = {p.id: p for p in document.people}
    rows, members = [], {}
    for result in document.results:
        if (result.event, result.round) != (event_code, round_code):
            continue
        entry = entries.get(result.entry)
        if entry is None:
            continue  # a result of no entry: the file's reference check names it
        rows.append({**result.model_dump(include={*RESULT_FIELDS, "checked", "version"}),
                     "number": entry.number, "name": entry.name, "country": entry.country,
                     "group": entrant_group(first_round=first, entry_group=entry.group,
                                            seat_group=seat_group.get(entry.number),
                                            archive_group=result.archive_group)})
        members[entry.number] = tuple(
            _file_person(people_of[m.person], m, event_code)
            for m in sorted(entry.members, key=lambda m: m.position)
            if m.person in people_of)  # a member of no person: named by the reference check
    sizes = {p.pieces for p in rnd.puzzles if p.pieces}
    rules = round_rules_of(document.championship.ruleset_id, event_code, round_code,
                           rnd.time_limit_minutes, sizes.pop() if len(sizes) == 1 else None)
    return round_ranking_of(rows, members, rules, document.championship.settings)


def _file_person(person: PersonData, member: MemberData, event_code: str) -> people.Person:
    return engine_person_of(
        event_code=event_code, represents=member.represents, nationality=person.nationality,
        residence=person.residence, region=person.region, years_resident=person.years_resident,
        birth_year=person.birth_date.year if person.birth_date else None,
        earlier_events=person.earlier_events, debutant=member.debutant,
        first_state_competition_of_year=member.first_state_competition_of_year)


def json_list(text: str | None) -> list[Any]:
    """A stored JSON list read as text: most are empty, and skipping the decoder for those
    (and Django's JSON converter for all) saves a tenth of a large round's read."""
    return json.loads(text) if text and text != "[]" else []


def now() -> dt.datetime:
    return timezone.now()
