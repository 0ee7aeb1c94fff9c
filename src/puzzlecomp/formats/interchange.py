"""The championship interchange file: one versioned JSON document (docs/interchange.md).

Pure: it validates and cross-checks a document, it knows nothing of the database. Every problem
names its place in the document, e.g. `entries[12].members[0].represents`.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import zoneinfo
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Annotated, Any, Literal, TypeVar

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    field_validator,
)

from puzzlecomp.formats.json_objects import given_twice, json_object, repeated_keys
from puzzlecomp.rules import limits
from puzzlecomp.rules.errors import RulesError, RuleViolation
from puzzlecomp.rules.limits import has_control_characters
from puzzlecomp.rules.loading import load_ruleset
from puzzlecomp.rules.qualification import QualifyReason
from puzzlecomp.rules.results import Status
from puzzlecomp.rules.settings import championship_settings

K = TypeVar("K")

FORMAT = "puzzlecomp-championship"
# Version 2 adds the facts of the championship's own tables (model choices, group draws and
# moves, relay draws, time credit grants); version 3 the archive's and people's: the archived
# flag, each person's archive id, members' derived debutant fact and the organiser's
# overrides, and the group difficulty published with a round; version 4 the championship's
# time zone; version 5 the groups' planned and actual starts (`group_starts` of a round). An
# older file reads as having none of them.
VERSION = 5
VERSIONS = (1, 2, 3, 4, 5)

# ISO 3166 alpha-2, as stored; the importer also checks the code names a country.
CountryCode = Annotated[str, Field(pattern=r"^[A-Z]{2}$")]
OptionalCountryCode = Annotated[str, Field(pattern=r"^(?:[A-Z]{2})?$")]
Slug = Annotated[str, Field(pattern=r"^[-a-zA-Z0-9_]+$", max_length=50)]
Money = Annotated[Decimal, Field(ge=0, le=limits.MAX_MONEY, decimal_places=2)]
Group = Annotated[str, Field(max_length=20)]
# Every number has a bound from the domain (rules/limits.py): a file cannot ask for a hall of
# two million tables.
Position = Annotated[int, Field(ge=0, le=1_000)]
Number = Annotated[int, Field(ge=0, le=limits.MAX_ENTRY_NUMBER)]
Table = Annotated[int, Field(ge=0, le=limits.MAX_TABLES)]
Pieces = Annotated[int, Field(ge=0, le=limits.MAX_PIECES)]
Seconds = Annotated[int, Field(ge=0, le=limits.MAX_SECONDS)]
Minutes = Annotated[int, Field(ge=0, le=limits.MAX_MINUTES)]
Members = Annotated[int, Field(ge=0, le=limits.MAX_MEMBERS)]
RowsOf = limits.MAX_ROUND_ROWS


def _one_line(value: str) -> str:
    if limits.has_line_break(value):
        raise ValueError("a name is one line: remove the line break")
    if limits.has_line_control_characters(value):
        raise ValueError("a name is one line of plain text: remove the tab or control character")
    return value


# A name heads pages and an email's subject: one line.
Name = Annotated[str, AfterValidator(_one_line)]


def text(max_length: int) -> Any:
    return Field(default="", max_length=max_length)


def _texts(value: Any) -> Iterable[str]:
    """Every string inside a value (lists, dicts' keys and values), at any depth."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, list | tuple):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())


class Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    @field_validator("*")
    @classmethod
    def _plain_text(cls, value: Any) -> Any:
        if any(has_control_characters(t) for t in _texts(value)):
            raise ValueError("control characters (such as NUL) are not allowed in text")
        return value


class ChampionshipData(Model):
    slug: Slug
    name: Name = Field(min_length=1, max_length=200)
    ruleset_id: str = Field(min_length=1, max_length=60)
    venue: str = text(200)
    starts_at: AwareDatetime
    # False: an archived edition whose date no source gives; `starts_at` is 1 January of its
    # year, only to order editions (docs/archive.md).
    date_known: bool = True
    ends_on: dt.date | None = None
    settings: dict[str, Any] = Field(default={}, max_length=50)
    floor_rows: list[Annotated[int, Field(gt=0, le=limits.MAX_TABLES_PER_ROW)]] = Field(
        default=[], max_length=limits.MAX_ROWS)
    guest_tables: Table = 0
    published: bool = False
    # Registration terms the organiser set where the ruleset names none.
    registration_opens_at: AwareDatetime | None = None
    registration_closes_at: AwareDatetime | None = None
    refund_days_before: Annotated[int, Field(ge=0, le=365)] | None = None
    fee_currency: str = text(3)
    # A championship of the archive: read-only, part of the history (docs/archive.md).
    archived: bool = False
    # The IANA time zone where it is held (version 4); None: the importing site's TIME_ZONE.
    time_zone: str | None = Field(default=None, max_length=64)
    # Days a waiting entry offered a place has to pay (None: promoted by hand), and whether
    # entries are confirmed only once paid (docs/payments.md).
    offer_days: Annotated[int, Field(ge=1, le=60)] | None = None
    confirm_on_payment: bool = False

    @field_validator("time_zone")
    @classmethod
    def _known_zone(cls, zone: str | None) -> str | None:
        if zone is None:
            return None
        try:
            zoneinfo.ZoneInfo(zone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            raise ValueError(f"{zone!r} is not an IANA time zone (e.g. Europe/Madrid)") from None
        return zone

    @field_validator("floor_rows")
    @classmethod
    def _hall_bounded(cls, rows: list[int]) -> list[int]:
        if sum(rows) > limits.MAX_TABLES:
            raise ValueError(f"the hall has {sum(rows)} tables; at most {limits.MAX_TABLES}")
        return rows


class PuzzleData(Model):
    position: Position = 0
    brand: str = text(100)
    pieces: Pieces | None = None
    motif: str = text(200)
    picture: bool = True
    models_to_choose_from: Annotated[int, Field(ge=0, le=limits.MAX_MODELS)] | None = None


RoundStateName = Literal["planned", "running", "counting", "provisional", "published", "final"]


class GroupDifficultyData(Model):
    """A group's puzzle difficulty as published with the round's results (docs/seeding.md)."""

    group: Group
    entrants: Annotated[int, Field(ge=0, le=limits.MAX_ENTRIES)]
    rated: Annotated[int, Field(ge=0, le=limits.MAX_ENTRIES)]
    percent: Annotated[float, Field(ge=-100, le=10_000)] | None = None
    # Its 90 % interval (issue 30); absent from files written before intervals were kept.
    low: Annotated[float, Field(ge=-100, le=10_000)] | None = None
    high: Annotated[float, Field(ge=-100, le=10_000)] | None = None


class GroupStartData(Model):
    """A group of a round whose groups play one after another: its planned start, the start
    the head judge gave and its state."""

    group: Group
    planned_at: AwareDatetime | None = None
    started_at: AwareDatetime | None = None
    state: RoundStateName = "planned"


class RoundData(Model):
    code: str = Field(min_length=1, max_length=40)
    name: Name = Field(max_length=100)
    position: Position = 0
    time_limit_minutes: Minutes | None = None
    groups: list[Group] = Field(default=[], max_length=limits.MAX_GROUPS)
    state: RoundStateName = "planned"
    starts_at: AwareDatetime | None = None
    published_at: AwareDatetime | None = None
    assembly_stopped_at: AwareDatetime | None = None
    groups_published: bool = False
    seating_published: bool = False
    puzzles: list[PuzzleData] = Field(default=[], max_length=limits.MAX_PUZZLES)
    group_difficulty: list[GroupDifficultyData] = Field(default=[],
                                                        max_length=limits.MAX_GROUPS)
    group_starts: list[GroupStartData] = Field(default=[], max_length=limits.MAX_GROUPS)


class EventData(Model):
    code: str = Field(min_length=1, max_length=40)
    name: Name = Field(max_length=100)
    kind: str = Field(max_length=20)
    members_min: Members = 1
    members_max: Members = 1
    capacity: Annotated[int, Field(ge=0, le=limits.MAX_ENTRIES)] | None = None
    position: Position = 0
    # When the organiser published the event's standings and awards (absent: not public).
    standings_published_at: AwareDatetime | None = None
    # The fee the organiser set where the ruleset names none.
    fee_amount: Money | None = None
    fee_per: Literal["entry", "person"] = "entry"
    fee_early_amount: Money | None = None
    fee_early_until: dt.date | None = None
    rounds: list[RoundData] = Field(default=[], max_length=limits.MAX_ROUNDS)


class PersonData(Model):
    # The person's number in this file, which entries' members refer to.
    id: Annotated[int, Field(gt=0, le=10**9)]
    first_name: str = Field(max_length=100)
    last_name: str = Field(max_length=100)
    email: str = text(254)
    # Blank for a person of the archive whose results name no country.
    nationality: OptionalCountryCode
    other_nationalities: list[CountryCode] = Field(default=[], max_length=10)
    residence: OptionalCountryCode = ""
    region: str = text(20)
    years_resident: Annotated[int, Field(ge=0, le=limits.MAX_YEARS)] | None = None
    birth_date: dt.date | None = None
    earlier_events: list[Annotated[str, Field(max_length=100)]] = Field(default=[],
                                                                       max_length=100)
    consent_publish: bool = False
    consent_photos: bool = False
    # The person's identity across championships (the archive's person id); an import finds
    # the person of this installation who has it instead of creating another.
    archive_id: Annotated[str, Field(min_length=1, max_length=40)] | None = None


class FactOverrideData(Model):
    """The organiser's value for a fact derived from history, with the reason."""

    fact: Literal["debutant", "first_state_competition_of_year"]
    value: bool
    reason: str = Field(min_length=1, max_length=300)
    at: AwareDatetime


class MemberData(Model):
    person: int
    position: Members = 0
    represents: OptionalCountryCode = ""
    accompanied_by_adult: bool = False
    first_state_competition_of_year: bool | None = None
    # The consent its registrant gave for this championship; null (a file from before it was
    # kept per championship): the person's consent.
    consent_publish: bool | None = None
    consent_photos: bool | None = None
    # Derived from history (null: not derived); the overrides win over derivation.
    debutant: bool | None = None
    overrides: list[FactOverrideData] = Field(default=[], max_length=2)


class EntryData(Model):
    event: str = Field(max_length=40)
    number: Number
    name: str = text(200)
    country: str = text(20)
    mixed: bool = False
    status: Literal["unconfirmed", "confirmed", "waiting", "cancelled", "unpaid"] = "unconfirmed"
    contact_email: str = text(254)
    registered_at: AwareDatetime
    confirmed_at: AwareDatetime | None = None
    fee_amount: Money | None = None
    fee_currency: str = text(3)
    paid_amount: Money = Decimal("0")
    paid_at: AwareDatetime | None = None
    cancelled_at: AwareDatetime | None = None
    refund_amount: Money | None = None
    group: Group = ""
    seed_rank: Number | None = None
    # The language the entry registered in (its result emails are written in it).
    language: str = text(10)
    # When a waiting entry was offered a free place (its deadline to pay runs from here).
    offered_at: AwareDatetime | None = None
    members: list[MemberData] = Field(default=[], max_length=limits.MAX_MEMBERS)


class SeatData(Model):
    event: str = Field(max_length=40)
    round: str = Field(max_length=40)
    entry: Number
    group: Group = ""
    table: Table
    seat: Members = 1
    no_show: bool = False
    # Seconds of time credit the head judge granted (absent: none granted).
    time_credit: Seconds | None = None


class CheckInData(Model):
    event: str = Field(max_length=40)
    round: str = Field(max_length=40)
    entry: Number
    status: Literal["present", "late", "no_show", "replaced"]
    at: AwareDatetime


class PuzzleRecordData(BaseModel):
    """One per-puzzle record of a multi-puzzle result (services/recording.py writes them): every
    value of its own type, no text for a number, so what the import stores the engine reads."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    time: Seconds | None = None
    pieces: Pieces | None = None
    remaining: Pieces | None = None
    missing: Pieces = 0
    contiguous: Pieces = 0
    found: Pieces = 0
    verified: bool = True
    authorised: bool = True


PUZZLE_RECORDS: TypeAdapter[list[PuzzleRecordData]] = TypeAdapter(list[PuzzleRecordData])


class ResultData(Model):
    event: str = Field(max_length=40)
    round: str = Field(max_length=40)
    entry: Number
    status: Status
    time_seconds: Seconds | None = None
    pieces: Pieces | None = None
    remaining: Pieces | None = None
    missing: Pieces = 0
    missing_contiguous: Pieces = 0
    missing_found: Pieces = 0
    time_credit: Seconds = 0
    # Per-puzzle records of multi-puzzle rounds, kept as stored.
    puzzles: list[Annotated[dict[str, Any], Field(max_length=20)]] = Field(
        default=[], max_length=limits.MAX_PUZZLES)
    checked: bool = True
    competitor_confirmed: bool = False
    note: str = text(300)
    recorded_at: AwareDatetime
    version: Annotated[int, Field(gt=0, le=limits.MAX_VERSION)] = 1
    # An archived result's rank as published and the group it was ranked in.
    published_rank: Number | None = None
    archive_group: Group = ""


class QualifierData(Model):
    event: str = Field(max_length=40)
    round: str = Field(max_length=40)
    entry: Number
    rank: Number
    from_group: Group = ""
    to_group: Group = ""
    reason: QualifyReason
    status: Literal["confirmed", "withdrawn"] = "confirmed"
    # The entry number of the withdrawn qualifier whose place this one took.
    replaces: Number | None = None
    confirmed_at: AwareDatetime


class DisputeData(Model):
    event: str = Field(max_length=40)
    round: str = Field(max_length=40)
    entry: Number
    text: str = Field(max_length=5_000)
    filed_at: AwareDatetime
    status: Literal["open", "upheld", "rejected"] = "open"
    resolution: str = Field(default="", max_length=5_000)
    resolved_at: AwareDatetime | None = None


# A label of a relay pool ("Surname First (#number)").
PoolLabel = Annotated[str, Field(max_length=250)]
Seed = Annotated[int, Field(ge=0, le=limits.MAX_SEED)]


class ModelChoiceData(Model):
    event: str = Field(max_length=40)
    round: str = Field(max_length=40)
    entry: Number
    models: list[Annotated[int, Field(gt=0, le=limits.MAX_MODELS)]] = Field(
        max_length=limits.MAX_PUZZLES)
    chosen_at: AwareDatetime


class GroupDrawData(Model):
    event: str = Field(max_length=40)
    round: str = Field(max_length=40)
    seed: Seed
    entries: Annotated[int, Field(ge=0, le=limits.MAX_ENTRIES)] = 0
    drawn_at: AwareDatetime


class GroupMoveData(Model):
    event: str = Field(max_length=40)
    entry: Number
    from_group: Group = ""
    to_group: Group
    reason: str = text(300)
    moved_at: AwareDatetime


class RelayTeamData(Model):
    # The team's entry number.
    number: Number
    members: list[PoolLabel] = Field(max_length=limits.MAX_MEMBERS)


class RelayDrawData(Model):
    event: str = Field(max_length=40)
    seed: Seed
    team_size: Annotated[int, Field(gt=0, le=limits.MAX_MEMBERS)]
    pool: list[PoolLabel] = Field(default=[], max_length=limits.MAX_ENTRIES)
    teams: list[RelayTeamData] = Field(default=[], max_length=limits.MAX_ENTRIES)
    left_over: list[PoolLabel] = Field(default=[], max_length=limits.MAX_ENTRIES)
    drawn_at: AwareDatetime


class TimeCreditData(Model):
    event: str = Field(max_length=40)
    round: str = Field(max_length=40)
    entry: Number
    seconds: Seconds
    reason: str = text(300)
    granted_at: AwareDatetime


class PaymentAccountData(Model):
    """The organiser's bank account, as set (docs/payments.md)."""

    holder: str = Field(min_length=1, max_length=70)
    iban: str = text(34)
    bic: str = text(11)
    local_account: str = text(30)
    bsb: str = text(7)
    account_number: str = text(20)
    instructions: str = text(2000)


class BankTransactionData(Model):
    """A bank statement's transaction, imported once, with its match and the treasurer's
    decision; `event` and `entry` name the entry it pays (None: none)."""

    transaction_id: str = Field(min_length=1, max_length=100)
    source: str = text(200)
    line: Annotated[int, Field(ge=0)]
    booked_on: dt.date | None = None
    amount: Annotated[Decimal, Field(ge=-limits.MAX_MONEY, le=limits.MAX_MONEY,
                                     decimal_places=2)]
    currency: str = Field(min_length=3, max_length=3)
    reference: str = text(140)
    payer: str = text(140)
    payer_account: str = text(60)
    message: str = text(500)
    status: Literal["matched", "partial", "overpaid", "unknown", "ambiguous", "ignored"]
    reason: str = text(40)
    imported_at: AwareDatetime
    resolved_at: AwareDatetime | None = None
    resolution: str = text(200)
    event: str | None = Field(default=None, max_length=40)
    entry: Number | None = None


class PayoutAccountData(Model):
    """An entrant's account for a refund or prize money (private: theirs and the organiser's)."""

    event: str = Field(max_length=40)
    entry: Number
    holder: str = Field(min_length=1, max_length=70)
    iban: str = text(34)
    bic: str = text(11)
    account: str = text(60)


class ChampionshipFile(Model):
    format: Literal["puzzlecomp-championship"]
    version: Literal[1, 2, 3, 4, 5]
    generator: str = text(200)
    exported_at: AwareDatetime | None = None
    championship: ChampionshipData
    events: list[EventData] = Field(default=[], max_length=limits.MAX_EVENTS)
    people: list[PersonData] = Field(default=[], max_length=limits.MAX_PEOPLE)
    entries: list[EntryData] = Field(default=[], max_length=limits.MAX_ENTRIES)
    seats: list[SeatData] = Field(default=[], max_length=RowsOf)
    check_ins: list[CheckInData] = Field(default=[], max_length=RowsOf)
    results: list[ResultData] = Field(default=[], max_length=RowsOf)
    qualifiers: list[QualifierData] = Field(default=[], max_length=RowsOf)
    disputes: list[DisputeData] = Field(default=[], max_length=RowsOf)
    model_choices: list[ModelChoiceData] = Field(default=[], max_length=RowsOf)
    group_draws: list[GroupDrawData] = Field(default=[], max_length=RowsOf)
    group_moves: list[GroupMoveData] = Field(default=[], max_length=RowsOf)
    relay_draws: list[RelayDrawData] = Field(default=[], max_length=RowsOf)
    time_credits: list[TimeCreditData] = Field(default=[], max_length=RowsOf)
    payment_account: PaymentAccountData | None = None
    bank_transactions: list[BankTransactionData] = Field(default=[], max_length=RowsOf)
    payout_accounts: list[PayoutAccountData] = Field(default=[], max_length=limits.MAX_ENTRIES)


# The rows that name an entry of a round.
InRound = (SeatData | CheckInData | ResultData | QualifierData | DisputeData | ModelChoiceData
           | TimeCreditData)


@dataclass(frozen=True)
class InterchangeProblem:
    """One problem of a document: where (a path such as `results[3].time_seconds`) and what."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path or '(top level)'}: {self.message}"


class InterchangeError(Exception):
    """A document that cannot be read or imported, with every problem found."""

    def __init__(self, problems: Sequence[InterchangeProblem]) -> None:
        self.problems = list(problems)
        super().__init__("; ".join(str(p) for p in self.problems))


def problem(path: str, message: str) -> InterchangeProblem:
    return InterchangeProblem(path, message)


def load_json(content: str | bytes) -> Any:
    """The decoded JSON text; InterchangeError naming the line and column where it breaks."""
    if len(content) > limits.MAX_CHAMPIONSHIP_FILE_BYTES:
        raise InterchangeError([problem("", f"the file has {len(content):,} bytes; at most "
                                        f"{limits.MAX_CHAMPIONSHIP_FILE_BYTES:,}")])
    try:
        data = json.loads(content, object_pairs_hook=json_object)
    except json.JSONDecodeError as exc:
        raise InterchangeError([problem(
            "", f"not JSON: line {exc.lineno}, column {exc.colno}: {exc.msg}")]) from None
    except UnicodeDecodeError as exc:
        raise InterchangeError([problem("", f"not UTF-8 text: {exc.reason}")]) from None
    except RecursionError:
        raise InterchangeError([_too_deep()]) from None
    # A setting given twice is told by parse_championship_file, with the file's other problems.
    return data


def _settings_twice(data: dict[str, Any]) -> list[InterchangeProblem]:
    """A setting the decoded file gives twice with two values (json.loads keeps the last)."""
    championship = data.get("championship")
    settings = championship.get("settings") if isinstance(championship, dict) else None
    return [problem(f"championship.settings.{name}", given_twice(name, first, later))
            for name, first, later in repeated_keys(settings)]


def settings_problems(document: ChampionshipFile) -> list[InterchangeProblem]:
    """The file's settings checked against its ruleset, as every reader of a championship file
    (import, `championship results`, `standings`, `awards`) checks them: a setting given twice
    in any letter case, an unknown setting or value, a required setting left out. An unknown
    ruleset is named by the reader's own check of `championship.ruleset_id`."""
    try:
        ruleset = load_ruleset(document.championship.ruleset_id)
    except RulesError:
        return []
    try:
        championship_settings(ruleset, document.championship.settings)
    except RulesError as error:
        return [problem(f"championship.settings.{v.field}", v.message)
                for v in error.violations]
    return []


def result_path(index: int, field: str) -> str:
    """Where an engine violation points in the file ("puzzle 2" is the second puzzle)."""
    if field.startswith("puzzle "):
        return f"results[{index}].puzzles[{int(field.split()[1]) - 1}]"
    stored = {"time": "time_seconds"}.get(field, field)
    return f"results[{index}]" + (f".{stored}" if stored else "")


def result_violation(index: int | None, found: RuleViolation) -> InterchangeProblem:
    """An engine violation on the file's result `index` (None: no one result), the same line in
    every reader of a championship file: `results[3].puzzles[1]: entry 7, field puzzle 2: ...`."""
    path = result_path(index, found.field) if index is not None else "results"
    where = ", ".join([*([f"entry {found.entry}"] if found.entry else []),
                       *([f"field {found.field}"] if found.field else [])])
    return problem(path, f"{where}: {found.message}" if where else found.message)


def _too_deep() -> InterchangeProblem:
    return problem("", f"values are nested more than {limits.MAX_JSON_DEPTH} levels deep")


def json_depth(data: Any) -> int:
    """How deeply lists and objects nest in a decoded value (a number or text: 0)."""
    deepest = 0
    stack = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict | list):
            depth += 1
            deepest = max(deepest, depth)
            if depth <= limits.MAX_JSON_DEPTH:
                items = value.values() if isinstance(value, dict) else value
                stack.extend((item, depth) for item in items)
    return deepest


def parse_championship_file(data: Any) -> ChampionshipFile:
    """Validate a decoded document: its format and version first, then every field and every
    reference (event, round, entry, person), all problems in one InterchangeError."""
    read = read_championship_file(data)
    if read.problems or read.document is None:
        raise InterchangeError(read.problems)
    return read.document


# The lists whose items a file's item of the wrong shape is set aside from, so the other checks
# still run (read_championship_file). People and entries are pointed at by their keys: those of
# an item set aside still count as known, so nothing pointing at them is told twice.
ROW_LISTS = ("people", "entries", "seats", "check_ins", "results", "qualifiers", "disputes",
             "model_choices", "group_draws", "group_moves", "relay_draws", "time_credits",
             "bank_transactions", "payout_accounts")


@dataclass(frozen=True)
class ChampionshipFileRead:
    """A championship file as far as it could be read, and every problem found in it.

    `document` is None when the file is not a championship file at all (not an object, an
    unknown format or version, too deep) or when the championship or its events have the wrong
    shape. Otherwise items of the wrong shape in the lists (ROW_LISTS) are left out of
    `document`, and `kept[name]` gives the file's index of each item kept, so later checks name
    the file's own paths (`located`).
    """

    document: ChampionshipFile | None
    problems: list[InterchangeProblem]
    kept: dict[str, tuple[int, ...]]

    def located(self, found: Iterable[InterchangeProblem]) -> list[InterchangeProblem]:
        """Problems found in `document`, their paths (and paths in their messages) renumbered
        to the file's rows."""
        return [InterchangeProblem(self.file_path(p.path), self.file_path(p.message))
                for p in found]

    def file_path(self, text: str) -> str:
        """`text` with every `ROW_LIST[i]` naming the file's row instead of the document's."""
        if not self.kept:
            return text
        return _ROW_INDEX.sub(
            lambda match: f"{match[1]}[{self.kept[match[1]][int(match[2])]}]"
            if match[1] in self.kept else match[0], text)


_ROW_INDEX = re.compile(r"\b(" + "|".join(ROW_LISTS) + r")\[(\d+)\]")


def read_championship_file(data: Any) -> ChampionshipFileRead:
    """Every problem of a decoded championship file in one run, and the document as far as it
    could be read (ChampionshipFileRead): a setting given twice, every field of the wrong type
    or out of bounds, every reference pointing nowhere, every result whose credit is not its
    seat's. Checks that need a row left out for its shape do not run on it: a result's credit
    when a seat was left out, a qualifier's `replaces` when a qualifier was."""
    def refused(found: InterchangeProblem) -> ChampionshipFileRead:
        return ChampionshipFileRead(None, [found], {})

    if not isinstance(data, dict):
        return refused(problem("", "expected a JSON object"))
    if json_depth(data) > limits.MAX_JSON_DEPTH:
        return refused(_too_deep())
    if data.get("format") != FORMAT:
        return refused(problem(
            "format", f"expected {FORMAT!r}, found {data.get('format')!r}: not a puzzlecomp "
            "championship file"))
    if data.get("version") not in VERSIONS:
        return refused(problem(
            "version", f"version {data.get('version')!r} is unknown; this puzzlecomp reads "
            f"versions {', '.join(map(str, VERSIONS[:-1]))} and {VERSIONS[-1]}"))
    problems = _settings_twice(data)
    try:
        return _checked(ChampionshipFile.model_validate(data), problems, {})
    except ValidationError as exc:
        errors = exc.errors()
    problems += [problem(field_path(error["loc"]), _message(error)) for error in errors]
    bad_rows: dict[str, set[int]] = {}
    for error in errors:
        loc = error["loc"]
        if len(loc) < 2 or loc[0] not in ROW_LISTS or not isinstance(loc[1], int):
            return ChampionshipFileRead(None, problems, {})
        bad_rows.setdefault(str(loc[0]), set()).add(loc[1])
    kept = {name: tuple(i for i in range(len(data[name])) if i not in bad)
            for name, bad in bad_rows.items()}
    rows_kept = {name: [data[name][i] for i in indices] for name, indices in kept.items()}
    try:
        document = ChampionshipFile.model_validate({**data, **rows_kept})
    except ValidationError:
        return ChampionshipFileRead(None, problems, {})
    set_aside = _SetAside(
        people={_key(data["people"][i], "id") for i in bad_rows.get("people", ())},
        entries={(_key(data["entries"][i], "event"), _key(data["entries"][i], "number"))
                 for i in bad_rows.get("entries", ())})
    return _checked(document, problems, kept, set_aside)


@dataclass(frozen=True)
class _SetAside:
    """The keys of the people and entries set aside for their shape: still known."""

    people: set[object]
    entries: set[tuple[object, object]]


def _key(item: Any, name: str) -> object:
    """An item's key as the file gives it (None when it gives none that can be compared)."""
    value = item.get(name) if isinstance(item, dict) else None
    return value if isinstance(value, str | int) else None


def _checked(document: ChampionshipFile, problems: list[InterchangeProblem],
             kept: dict[str, tuple[int, ...]],
             set_aside: _SetAside | None = None) -> ChampionshipFileRead:
    """The read file with the checks of a typed document added, on the rows kept."""
    aside = set_aside or _SetAside(set(), set())
    found = puzzle_record_problems(document) + reference_problems(
        document, known_people=aside.people, known_entries=aside.entries)
    if "qualifiers" in kept:
        found = [p for p in found if not p.path.endswith(".replaces")]
    if "seats" not in kept:
        found += credit_problems(document)
    located = ChampionshipFileRead(document, [], kept).located(found)
    return ChampionshipFileRead(document, problems + located, kept)


def _message(error: Any) -> str:
    value = error.get("input")
    shown = "" if isinstance(value, dict | list) or error["type"] == "missing" else f" ({value!r})"
    return f"{error['msg']}{shown}"


def field_path(loc: Iterable[int | str]) -> str:
    """A pydantic location as a path, e.g. entries[12].members[0].represents."""
    path = ""
    for key in loc:
        path += f"[{key}]" if isinstance(key, int) else (f".{key}" if path else str(key))
    return path


def reference_problems(document: ChampionshipFile, *,
                       known_people: Collection[object] = (),
                       known_entries: Collection[tuple[object, object]] = (),
                       ) -> list[InterchangeProblem]:
    """Every reference that points nowhere and every repeated key of the document; a person or
    entry of `known_people` or `known_entries` (set aside from the file) is somewhere."""
    problems: list[InterchangeProblem] = []
    rounds: set[tuple[str, str]] = set()
    for e, event in enumerate(document.events):
        for r, rnd in enumerate(event.rounds):
            if (event.code, rnd.code) in rounds:
                problems.append(problem(f"events[{e}].rounds[{r}].code",
                                        f"round {rnd.code!r} appears twice in {event.code}"))
            rounds.add((event.code, rnd.code))
            starts = [s.group for s in rnd.group_starts]
            for g, seen_before in enumerate(_seen(starts)):
                if seen_before:
                    problems.append(problem(f"events[{e}].rounds[{r}].group_starts[{g}].group",
                                            f"group {starts[g]!r} starts twice"))
    events = _repeated(problems, "events", "code", [e.code for e in document.events])
    people: set[object] = {*_repeated(problems, "people", "id",
                                      [p.id for p in document.people]), *known_people}
    identified = [(i, p.archive_id) for i, p in enumerate(document.people) if p.archive_id]
    for (i, archive_id), seen_before in zip(identified, _seen(a for _, a in identified),
                                            strict=True):
        if seen_before:
            problems.append(problem(f"people[{i}].archive_id",
                                    f"archive id {archive_id!r} appears twice"))
    entries: set[tuple[object, object]] = {
        *_repeated(problems, "entries", "number",
                   [(e.event, e.number) for e in document.entries]), *known_entries}
    for i, entry in enumerate(document.entries):
        if entry.event not in events:
            problems.append(problem(f"entries[{i}].event", f"no event {entry.event!r}"))
        seen: set[int] = set()
        for m, member in enumerate(entry.members):
            if member.person not in people:
                problems.append(problem(f"entries[{i}].members[{m}].person",
                                        f"no person with id {member.person}"))
            elif member.person in seen:
                problems.append(problem(f"entries[{i}].members[{m}].person",
                                        f"person {member.person} is a member twice"))
            seen.add(member.person)
            facts = [o.fact for o in member.overrides]
            for o, seen_before in enumerate(_seen(facts)):
                if seen_before:
                    problems.append(problem(f"entries[{i}].members[{m}].overrides[{o}].fact",
                                            f"fact {facts[o]} is overridden twice"))
    for name in ("seats", "check_ins", "results", "qualifiers", "disputes", "model_choices",
                 "time_credits"):
        rows: list[InRound] = getattr(document, name)
        for i, row in enumerate(rows):
            if (row.event, row.round) not in rounds:
                problems.append(problem(f"{name}[{i}].round",
                                        f"no round {row.round!r} in event {row.event!r}"))
            elif (row.event, row.entry) not in entries:
                problems.append(problem(f"{name}[{i}].entry",
                                        f"no entry {row.entry} in event {row.event!r}"))
        if name not in ("disputes", "time_credits"):
            _repeated(problems, name, "entry", [(r.event, r.round, r.entry) for r in rows])
    for i, draw in enumerate(document.group_draws):
        if (draw.event, draw.round) not in rounds:
            problems.append(problem(f"group_draws[{i}].round",
                                    f"no round {draw.round!r} in event {draw.event!r}"))
    for i, move in enumerate(document.group_moves):
        if (move.event, move.entry) not in entries:
            problems.append(problem(f"group_moves[{i}].entry",
                                    f"no entry {move.entry} in event {move.event!r}"))
    for i, paying in enumerate(document.bank_transactions):
        if paying.entry is not None and (paying.event, paying.entry) not in entries:
            problems.append(problem(f"bank_transactions[{i}].entry",
                                    f"no entry {paying.entry} in event {paying.event!r}"))
    _repeated(problems, "bank_transactions", "transaction_id",
              [t.transaction_id for t in document.bank_transactions])
    for i, payout in enumerate(document.payout_accounts):
        if (payout.event, payout.entry) not in entries:
            problems.append(problem(f"payout_accounts[{i}].entry",
                                    f"no entry {payout.entry} in event {payout.event!r}"))
    _repeated(problems, "payout_accounts", "entry",
              [(p.event, p.entry) for p in document.payout_accounts])
    for i, relay in enumerate(document.relay_draws):
        if relay.event not in events:
            problems.append(problem(f"relay_draws[{i}].event", f"no event {relay.event!r}"))
        for t, team in enumerate(relay.teams):
            if (relay.event, team.number) not in entries:
                problems.append(problem(f"relay_draws[{i}].teams[{t}].number",
                                        f"no entry {team.number} in event {relay.event!r}"))
    qualified = {(q.event, q.round, q.entry) for q in document.qualifiers}
    for i, q in enumerate(document.qualifiers):
        if q.replaces is not None and (q.event, q.round, q.replaces) not in qualified:
            problems.append(problem(f"qualifiers[{i}].replaces",
                                    f"entry {q.replaces} is no qualifier of this round"))
    return problems


def puzzle_record_problems(document: ChampionshipFile) -> list[InterchangeProblem]:
    """Every per-puzzle value of the wrong type or out of bounds, by its path."""
    problems = []
    for i, result in enumerate(document.results):
        try:
            PUZZLE_RECORDS.validate_python(result.puzzles)
        except ValidationError as exc:
            problems += [problem(f"results[{i}].puzzles" + field_path(error["loc"]),
                                 _message(error)) for error in exc.errors()]
    return problems


def credit_problems(document: ChampionshipFile) -> list[InterchangeProblem]:
    """Every result whose time credit is not its seat's (the head judge's grant, else none).

    The web app writes a grant to the seat and to the result at once (services/disputes.py), so
    the two disagree only in a file edited by hand: which one counts would be a guess.
    """
    seats = {(s.event, s.round, s.entry): (i, s.time_credit or 0)
             for i, s in enumerate(document.seats)}
    problems = []
    for i, result in enumerate(document.results):
        seat, granted = seats.get((result.event, result.round, result.entry), (None, 0))
        if result.time_credit == granted:
            continue
        where = (f"seats[{seat}].time_credit grants {granted} s" if seat is not None
                 else "the entry has no seat to grant it")
        problems.append(problem(
            f"results[{i}].time_credit",
            f"{result.time_credit} s of time credit, but {where}: a result carries its "
            "seat's credit"))
    return problems


def _repeated(problems: list[InterchangeProblem], name: str, field: str,
              keys: list[K]) -> set[K]:
    """The keys as a set, with a problem for every key after its first appearance."""
    counts: Counter[K] = Counter()
    for i, key in enumerate(keys):
        counts[key] += 1
        if counts[key] == 2:
            problems.append(problem(f"{name}[{i}].{field}", f"{_shown(key)} appears twice"))
    return set(counts)


def _seen(keys: Iterable[K]) -> list[bool]:
    """For each key, whether it came before."""
    found: set[K] = set()
    marks = []
    for key in keys:
        marks.append(key in found)
        found.add(key)
    return marks


def _shown(key: object) -> str:
    return " ".join(map(str, key)) if isinstance(key, tuple) else str(key)


def championship_file_data(document: ChampionshipFile) -> dict[str, Any]:
    """The document as JSON-ready values (dates and times in ISO 8601, money as text)."""
    return document.model_dump(mode="json")
