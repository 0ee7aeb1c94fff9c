"""The organiser's import of people and entries for one event from CSV or XLSX.

Reading, checking and importing are separate steps: the dry run (`import_file_read`, then
`import_check`) names every bad row and field and writes nothing; `entries_import` checks again
and writes every entry in one transaction, or none. Columns are documented in
docs/import-export.md.
"""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import io
import re
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db.models import Max
from django.utils import timezone
from django_countries import countries
from django_countries.ioc_data import IOC_TO_ISO

from puzzlecomp.championships.actions import ENTRIES_IMPORTED
from puzzlecomp.championships.engine import flag_of
from puzzlecomp.championships.import_rules import RowMember, entry_rule_problems
from puzzlecomp.championships.models import (
    Entry,
    EntryMember,
    EntryStatus,
    Event,
    Person,
)
from puzzlecomp.championships.services.work import unit_of_work
from puzzlecomp.championships.time_zones import championship_zone
from puzzlecomp.rules import limits
from puzzlecomp.rules.birth_dates import birth_date_plausible
from puzzlecomp.rules.fees import fee_due
from puzzlecomp.rules.loading import load_ruleset
from puzzlecomp.rules.ruleset import PersonFact

COLUMNS = ("entry", "entry_name", "position", "first_name", "last_name", "email",
           "nationality", "residence", "region", "birth_date", "years_resident",
           "consent_publish", "consent_photos", "first_state_competition_of_year",
           "accompanied_by_adult")
REQUIRED_COLUMNS = ("first_name", "last_name", "nationality")
MAX_ROWS = 5000
# A spreadsheet is measured before it is read: the columns it claims (a sheet may claim all
# 16,384 in a few kilobytes) and what its parts unpack to.
MAX_COLUMNS = 100
MAX_UNPACKED_BYTES = 50 * 1024 * 1024
# The words of the four interface languages (en, cs, nb, es), and what their spreadsheets
# write for TRUE and FALSE; anything else is refused, never read as "no".
YES = {"yes", "y", "true", "1", "x", "ano", "pravda", "ja", "sann", "sí", "si", "verdadero"}
NO = {"", "no", "n", "false", "0", "ne", "nepravda", "nei", "usann", "falso"}
ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")

# A row of the file: its number in the spreadsheet (the header is row 1) and its cells as text.
Row = tuple[int, Mapping[str, str]]


@dataclass(frozen=True)
class ImportProblem:
    """One bad row and field: a code and parameters for translation, and an English message."""

    code: str
    message: str
    row: int | None = None
    entry: str = ""
    field: str = ""
    params: Mapping[str, Any] = dataclasses.field(default_factory=dict)


class ImportRejected(Exception):
    """The file cannot be imported; `problems` lists every reason found."""

    def __init__(self, problems: list[ImportProblem]) -> None:
        self.problems = problems
        super().__init__("; ".join(p.message for p in problems))


@dataclass(frozen=True)
class Sheet:
    """The rows of an uploaded file, and the columns it has that the import does not use."""

    filename: str
    rows: list[Row]
    ignored_columns: tuple[str, ...] = ()
    # The text encoding a CSV was read in ("utf_8", "cp1250"); empty for XLSX.
    encoding: str = ""


@dataclass(frozen=True)
class PlannedMember:
    row: int
    position: int
    first_name: str
    last_name: str
    email: str
    nationality: str
    residence: str
    region: str
    birth_date: dt.date | None
    years_resident: int | None
    consent_publish: bool
    consent_photos: bool
    # Blank: not given (the ruleset may not read it).
    first_state_competition_of_year: bool | None = None
    # An adult outside the entry comes along (the public form's checkbox; Czech under-16s).
    accompanied_by_adult: bool = False


@dataclass(frozen=True)
class PlannedEntry:
    key: str
    name: str
    members: tuple[PlannedMember, ...]


@dataclass(frozen=True)
class ImportPlan:
    """What an import would create, and every problem that stops it."""

    entries: list[PlannedEntry]
    problems: list[ImportProblem]

    @property
    def people(self) -> int:
        return sum(len(e.members) for e in self.entries)


@dataclass(frozen=True)
class ImportSummary:
    entries: int
    people: int
    first_number: int | None
    last_number: int | None


def _problem(code: str, message: str, *, row: int | None = None, entry: str = "",
             field: str = "", **params: Any) -> ImportProblem:
    return ImportProblem(code, message % params if params else message, row, entry, field,
                         params)


# ------------------------------------------------------------------------------ reading files

def import_file_read(*, filename: str, content: bytes) -> Sheet:
    """The rows of a CSV or XLSX file; raises ImportRejected when it cannot be read."""
    suffix = filename.lower().rsplit(".", 1)[-1]
    encoding = ""
    if suffix == "csv":
        header, cells, encoding = _read_csv(content)
    elif suffix == "xlsx":
        header, cells = _read_xlsx(content)
    else:
        raise ImportRejected([_problem("import.unknown_format", "Upload a .csv or .xlsx file.")])
    columns = [name.strip().lower().replace(" ", "_") for name in header]
    missing = [c for c in REQUIRED_COLUMNS if c not in columns]
    if missing:
        raise ImportRejected([
            _problem("import.missing_column", "the header has no %(column)s column", row=1,
                     field=column, column=column) for column in missing
        ])
    rows: list[Row] = []
    for number, values in enumerate(cells, start=2):
        texts = {column: (values[i].strip() if i < len(values) else "")
                 for i, column in enumerate(columns) if column in COLUMNS}
        if any(texts.values()):
            rows.append((number, texts))
    if not rows:
        raise ImportRejected([_problem("import.empty", "The file has no rows below the header.")])
    if len(rows) > MAX_ROWS:
        raise ImportRejected([_problem("import.too_many_rows",
                                       "The file has %(count)s rows; at most %(max)s at once.",
                                       count=len(rows), max=MAX_ROWS)])
    ignored = tuple(c for c in columns if c and c not in COLUMNS)
    return Sheet(filename, rows, ignored, encoding)


def _unreadable(kind: str) -> ImportRejected:
    return ImportRejected([_problem("import.unreadable", "The file cannot be read as %(kind)s.",
                                    kind=kind)])


def _csv_text(content: bytes) -> tuple[str, str]:
    """The text of a CSV and its encoding: UTF-8 when it decodes, else the detected one.

    Excel saves CSV in the Windows code page of its language (Windows-1250 in Czech), which
    a fixed fallback would misread ("Jiøí Èerný" for "Jiří Černý").
    """
    try:
        return content.decode("utf-8-sig"), "utf_8"
    except UnicodeDecodeError:
        pass
    from charset_normalizer import from_bytes

    best = from_bytes(content).best()
    if best is None:
        raise _unreadable("CSV")
    return str(best), best.encoding


def _read_csv(content: bytes) -> tuple[list[str], list[list[str]], str]:
    text, encoding = _csv_text(content)
    first_line = text.split("\n", 1)[0]
    # Spreadsheets in many European languages write semicolons.
    delimiter = max(",;\t", key=first_line.count)
    lines = list(csv.reader(io.StringIO(text), delimiter=delimiter))
    if not lines:
        raise ImportRejected([_problem("import.empty", "The file has no rows below the header.")])
    return lines[0], lines[1:], encoding


def _read_xlsx(content: bytes) -> tuple[list[str], list[list[str]]]:
    from openpyxl import load_workbook

    try:
        unpacked = sum(part.file_size for part in zipfile.ZipFile(io.BytesIO(content)).infolist())
        workbook = load_workbook(io.BytesIO(content), read_only=True, data_only=True)
    except Exception as error:  # openpyxl raises many kinds for a file that is not XLSX
        raise _unreadable("XLSX") from error
    try:
        sheet = workbook.worksheets[0]
        if (unpacked > MAX_UNPACKED_BYTES or (sheet.max_column or 0) > MAX_COLUMNS
                or (sheet.max_row or 0) > MAX_ROWS + 1):
            raise ImportRejected([_problem(
                "import.sheet_too_large",
                "The sheet is too large: at most %(rows)s rows and %(columns)s columns.",
                rows=MAX_ROWS, columns=MAX_COLUMNS)])
        # Bounded even when the sheet does not say its size.
        rows = sheet.iter_rows(max_row=MAX_ROWS + 2, max_col=MAX_COLUMNS, values_only=True)
        lines = [[_xlsx_text(v) for v in row] for row in rows]
    finally:
        workbook.close()
    if not lines:
        raise ImportRejected([_problem("import.empty", "The file has no rows below the header.")])
    return lines[0], lines[1:]


def _xlsx_text(value: Any) -> str:
    """A cell as the text a CSV would hold (dates as YYYY-MM-DD, whole numbers without .0)."""
    if value is None:
        return ""
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time() else value.isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


# ------------------------------------------------------------------------------ checking rows

def country_code(text: str) -> str | None:
    """The ISO code of a country given by ISO code, IOC code or English name; None if unknown.

    Three letters are read as an IOC code first (GER, NED, SUI), then as ISO alpha-3: BRN is
    Bahrain (IOC), not Brunei (ISO).
    """
    text = text.strip()
    if len(text) == 2 and countries.alpha2(text):
        return str(countries.alpha2(text))
    if len(text) == 3 and (text.upper() in IOC_TO_ISO or countries.alpha2(text)):
        return IOC_TO_ISO.get(text.upper()) or str(countries.alpha2(text))
    found = countries.by_name(text)
    return str(found) if found else None


class _RowReader:
    """Reads one row's fields, collecting a problem for each bad one."""

    def __init__(self, number: int, values: Mapping[str, str], entry: str,
                 problems: list[ImportProblem]) -> None:
        self.number, self.values, self.entry, self.problems = number, values, entry, problems
        # Every cell is one line of plain text: PostgreSQL stores no NUL, and no field of a
        # person or an entry holds a tab or a control character. One problem per such cell.
        self.unplain = {name for name, value in values.items()
                        if not limits.is_plain_line(value)}
        if "entry" in self.unplain:
            self.entry = f"row {number}"
        for name in sorted(self.unplain):
            self.problems.append(_problem(
                "import.control_character",
                "holds a line break, a tab or another control character: type it as plain text",
                row=number, entry=self.entry, field=name))

    def bad(self, name: str, code: str, message: str, **params: Any) -> None:
        if name in self.unplain:
            return
        self.problems.append(_problem(code, message, row=self.number, entry=self.entry,
                                      field=name, value=self.values.get(name, ""), **params))

    def text(self, name: str, *, required: bool = False, max_length: int = 100) -> str:
        value = self.values.get(name, "")
        if required and not value:
            self.bad(name, "import.blank", "is blank")
        elif len(value) > max_length:
            self.bad(name, "import.too_long", "is longer than %(max)s characters",
                     max=max_length)
        return value

    def choice(self, name: str, fact: PersonFact | None) -> str:
        """One of the fact's declared values in its own spelling (any value when undeclared)."""
        value = self.text(name, max_length=20)
        if not value or fact is None:
            return value
        values = {choice.value.casefold(): choice.value for choice in fact.values}
        if value.casefold() not in values:
            self.bad(name, "import.unknown_value", "%(value)r is not one of %(allowed)s",
                     allowed=", ".join(values.values()))
            return ""
        return values[value.casefold()]

    def country(self, name: str, *, required: bool = False) -> str:
        value = self.values.get(name, "")
        if not value:
            if required:
                self.bad(name, "import.blank", "is blank")
            return ""
        code = country_code(value)
        if code is None:
            self.bad(name, "import.unknown_country", "%(value)r is not a country")
        return code or ""

    def date(self, name: str) -> dt.date | None:
        value = self.values.get(name, "")
        if not value:
            return None
        try:
            if not ISO_DATE.fullmatch(value):
                raise ValueError(value)
            return dt.date.fromisoformat(value)
        except ValueError:
            self.bad(name, "import.not_a_date", "%(value)r is not a date (YYYY-MM-DD)")
            return None

    def whole(self, name: str, *, most: int) -> int | None:
        """A whole number from 0 to `most` (its bound from rules/limits.py)."""
        value = self.values.get(name, "")
        if not value:
            return None
        # ASCII digits only: "²" is a digit to str.isdigit but no number to int().
        if not (value.isascii() and value.isdigit()):
            if _beyond(value, most):
                self.bad(name, "import.too_large", "%(value)r is more than %(max)s", max=most)
            else:
                self.bad(name, "import.not_a_number", "%(value)r is not a whole number")
            return None
        if int(value) > most:
            self.bad(name, "import.too_large", "%(value)r is more than %(max)s", max=most)
            return None
        return int(value)

    def yes_no_blank(self, name: str) -> bool | None:
        """yes or no; None when blank."""
        return self.yes_no(name) if self.values.get(name, "") else None

    def yes_no(self, name: str) -> bool:
        value = self.values.get(name, "").lower()
        if value not in YES | NO:
            self.bad(name, "import.not_yes_no", "%(value)r is not yes or no")
        return value in YES

    def email(self, name: str) -> str:
        value = self.text(name, max_length=254)
        if value:
            try:
                validate_email(value)
            except ValidationError:
                self.bad(name, "import.bad_email", "%(value)r is not an email address")
        return value.lower()


def _beyond(text: str, most: int) -> bool:
    """True when the text is a number (1e30, 200.5) past the bound: the message names the bound."""
    try:
        return float(text) > most
    except ValueError:
        return False


def _plausible_birth_date(read: _RowReader, competition_start: dt.date) -> dt.date | None:
    """The row's birth date; a problem when no entrant could be born then (issue 30)."""
    born = read.date("birth_date")
    if born is not None and not birth_date_plausible(born, competition_start=competition_start):
        read.bad("birth_date", "import.birth_date_implausible",
                 "%(value)r is not a plausible birth date for a championship starting on "
                 "%(start)s", start=competition_start.isoformat())
        return None
    return born


def import_check(*, event: Event, rows: Sequence[Row]) -> ImportPlan:
    """Every entry the rows describe, and every problem, row by row and field by field."""
    problems: list[ImportProblem] = []
    # The region's values are the ruleset's (Australia: states and territories).
    region = load_ruleset(event.championship.ruleset_id).facts.get("region")
    grouped: dict[str, list[tuple[PlannedMember, Mapping[str, str]]]] = {}
    positions: dict[str, set[int]] = {}
    for number, values in rows:
        key = values.get("entry", "")
        if not key and event.members_max > 1:
            problems.append(_problem("import.entry_blank",
                                     "pairs and teams need an entry key to group their members",
                                     row=number, field="entry"))
        key = key or f"row {number}"
        read = _RowReader(number, values, key, problems)
        key = read.entry
        position = read.whole("position", most=limits.MAX_MEMBERS)
        member = PlannedMember(
            row=number,
            position=position if position is not None else len(grouped.get(key, [])) + 1,
            first_name=read.text("first_name", required=True),
            last_name=read.text("last_name", required=True),
            email=read.email("email"),
            nationality=read.country("nationality", required=True),
            residence=read.country("residence"),
            region=read.choice("region", region),
            birth_date=_plausible_birth_date(read, event.championship.starts_at.date()),
            years_resident=read.whole("years_resident", most=limits.MAX_YEARS),
            consent_publish=read.yes_no("consent_publish"),
            consent_photos=read.yes_no("consent_photos"),
            first_state_competition_of_year=read.yes_no_blank("first_state_competition_of_year"),
            accompanied_by_adult=read.yes_no("accompanied_by_adult"),
        )
        read.text("entry_name", max_length=200)
        if member.position in positions.setdefault(key, set()):
            read.bad("position", "import.position_twice",
                     "position %(position)s is used twice in entry %(entry_key)s",
                     position=member.position, entry_key=key)
        positions[key].add(member.position)
        grouped.setdefault(key, []).append((member, values))
    entries = [_planned_entry(event, key, group, problems) for key, group in grouped.items()]
    problems += _email_problems(event, entries)
    problems += _rule_problems(event, entries)
    problems.sort(key=lambda p: (p.row or 0, p.field))
    return ImportPlan(entries, problems)


def _planned_entry(event: Event, key: str, group: list[tuple[PlannedMember, Mapping[str, str]]],
                   problems: list[ImportProblem]) -> PlannedEntry:
    members = tuple(sorted((m for m, _ in group), key=lambda m: m.position))
    if not event.members_min <= len(members) <= event.members_max:
        problems.append(_problem(
            "import.member_count",
            "entry %(entry_key)s has %(count)s members; %(event)s needs %(min)s to %(max)s",
            row=group[0][0].row, entry=key, field="entry", entry_key=key, count=len(members),
            event=event.name, min=event.members_min, max=event.members_max))
    given = next((v["entry_name"] for _, v in group if v.get("entry_name")), "")
    names = " & ".join(f"{m.first_name} {m.last_name}" for m in members)
    name = given or (key if event.kind == "team" else names)
    return PlannedEntry(key, name, members)


def _rule_problems(event: Event, entries: list[PlannedEntry]) -> list[ImportProblem]:
    """The public form's entry rules (ages with or without an adult), row by row."""
    return [
        ImportProblem(found.violation.code, found.violation.message, row=found.row,
                      entry=entry.key, field=found.field, params=dict(found.violation.params))
        for entry in entries
        for found in entry_rule_problems(event, [
            RowMember(m.row, f"{m.first_name} {m.last_name}", m.birth_date, m.nationality,
                      m.accompanied_by_adult) for m in entry.members])
    ]


def _email_problems(event: Event, entries: list[PlannedEntry]) -> list[ImportProblem]:
    """The same person (by email) may have one entry per event, in the file and with the past."""
    entered = {e.lower() for e in Person.objects.filter(entries__entry__event=event)
               .exclude(email="").values_list("email", flat=True)}
    problems: list[ImportProblem] = []
    seen: dict[str, str] = {}
    for entry in entries:
        for member in entry.members:
            if not member.email:
                continue
            if member.email in entered:
                problems.append(_problem("import.already_entered",
                                         "%(value)s already has an entry in this event",
                                         row=member.row, entry=entry.key, field="email",
                                         value=member.email))
            elif seen.get(member.email, entry.key) != entry.key:
                problems.append(_problem("import.email_twice",
                                         "%(value)s is also in entry %(other)s",
                                         row=member.row, entry=entry.key, field="email",
                                         value=member.email, other=seen[member.email]))
            seen.setdefault(member.email, entry.key)
    return problems


# ------------------------------------------------------------------------------ importing

def entries_import(*, event: Event, rows: Sequence[Row], by: Any,
                   filename: str = "") -> ImportSummary:
    """Import every entry of the rows as confirmed, or nothing when any row is bad."""
    with unit_of_work(ENTRIES_IMPORTED, championship=event.championship, user=by) as work:
        event = Event.objects.select_for_update().select_related("championship").get(pk=event.pk)
        plan = import_check(event=event, rows=rows)
        if plan.problems:
            raise ImportRejected(plan.problems)
        championship = event.championship
        ruleset = load_ruleset(championship.ruleset_id)
        spec = next((e for e in ruleset.events if e.id == event.code), None)
        now = timezone.now()
        first = (Entry.objects.filter(event=event).aggregate(n=Max("number"))["n"] or 0) + 1
        persons = Person.objects.bulk_create(
            Person(first_name=m.first_name, last_name=m.last_name, email=m.email,
                   nationality=m.nationality, residence=m.residence, region=m.region,
                   birth_date=m.birth_date, years_resident=m.years_resident,
                   consent_publish=m.consent_publish, consent_photos=m.consent_photos)
            for planned in plan.entries for m in planned.members
        )
        entries: list[Entry] = []
        # Days where the championship is held (the early price ends on a local day).
        zone = championship_zone(championship)
        today = timezone.localdate(now, zone)
        first_day = timezone.localdate(championship.starts_at, zone)
        for number, planned in enumerate(plan.entries, start=first):
            flag, mixed = (("", False) if spec is None
                           else flag_of(spec, [m.nationality for m in planned.members]))
            fee = None if spec is None else fee_due(
                spec, currency=ruleset.currency, registered_on=today,
                competition_start=first_day, people=len(planned.members))
            entries.append(Entry(
                event=event, number=number, name=planned.name[:200],
                country="" if mixed else flag,
                mixed=mixed, status=EntryStatus.CONFIRMED, confirmed_at=now,
                contact_email=next((m.email for m in planned.members if m.email), ""),
                fee_amount=fee.amount if fee else None, fee_currency=fee.currency if fee else "",
                paid_amount=Decimal(0),
            ))
        entries = Entry.objects.bulk_create(entries)
        person_iter = iter(persons)
        EntryMember.objects.bulk_create(
            EntryMember(entry=entry, person=next(person_iter), position=i,
                        accompanied_by_adult=member.accompanied_by_adult,
                        first_state_competition_of_year=member.first_state_competition_of_year,
                        consent_publish=member.consent_publish,
                        consent_photos=member.consent_photos)
            for entry, planned in zip(entries, plan.entries, strict=True)
            for i, member in enumerate(planned.members)
        )
        summary = ImportSummary(len(entries), len(persons), first if entries else None,
                                first + len(entries) - 1 if entries else None)
        work.record(event=event.code, filename=filename, entries=summary.entries,
                    people=summary.people, first_number=summary.first_number,
                    last_number=summary.last_number)
        return summary


