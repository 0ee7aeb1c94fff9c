"""The typed shape of a ruleset file: events, rounds, limits, puzzles and every rule as data."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from puzzlecomp.rules.ages import AgeDay, reckoned_age, reckoning_day
from puzzlecomp.rules.conditions import Condition, ConditionField, Eligibility
from puzzlecomp.rules.texts import Text


class Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class PenaltyRule(Model):
    """Seconds added per missing piece, and which missing pieces are charged."""

    seconds_per_piece: int = Field(ge=0)
    # all: every missing piece; not_contiguous: clusters of adjacent missing pieces are a
    # manufacturing defect; found_only: only pieces later found outside the puzzle (misplaced).
    charge: Literal["all", "not_contiguous", "found_only"]


class CountingRule(Model):
    """How an unfinished puzzle is counted at the limit."""

    min_cluster: int = Field(default=3, ge=1)
    # pieces: the judge counts placed pieces; remaining: the judge counts the pieces left over
    # (in piles of 10) and placed = puzzle size - remaining.
    record: Literal["pieces", "remaining"] = "pieces"
    # A finish with a wrongly placed piece counts as not finished.
    wrong_piece_means_unfinished: bool = False


class PuzzleSpec(Model):
    pieces: int | None = Field(default=None, gt=0)
    brand: str = ""
    picture: bool = True
    # Teams pick this many of `models` before the start and may not change them.
    models: int | None = Field(default=None, gt=0)


class RelayPart(Model):
    """One part of a relay round: who works and on how many puzzles of which size."""

    name: str
    puzzles: int = Field(gt=0)
    pieces: int = Field(gt=0)
    workers: Literal["rotating individuals", "pairs", "whole team"]
    rotate_every_minutes: int | None = Field(default=None, gt=0)


class Playoff(Model):
    """Country play-off: countries with no direct qualifier send their best-placed entrant."""

    # next_group: a country counts as qualified only within the next-round group;
    # next_round: a qualifier anywhere in the next round counts.
    scope: Literal["next_group", "next_round"]
    # Maxima per scope: countries sending anyone, and entrants sent (tied entrants count each).
    max_countries: int | None = Field(default=None, gt=0)
    max_entrants: int | None = Field(default=None, gt=0)
    # True: the play-off fills only the places its next-round group's maximum (that round's
    # max_per_group) leaves after the direct qualifiers, never more than max_entrants; direct
    # qualifiers (ties at the cut-off included) are never left out for it (docs/qualification.md,
    # WJPC semifinal sizes).
    within_group_maximum: bool = False


class Quota(Model):
    """Places per group reserved for entrants who meet (or fail) the official eligibility."""

    reason: Literal["national", "foreign"]
    per_group: int = Field(ge=0)
    # The rulebook calls per_group a maximum: a tie at the cut-off never takes more (tie_at_cap).
    maximum: bool = False


class Qualification(Model):
    """Who goes from this round to the next, and into which group."""

    to_round: str
    # This round's group -> next round's group; empty: all to the next round's only group.
    to_group: dict[str, str] = {}
    per_group: int | None = Field(default=None, ge=0)
    quotas: tuple[Quota, ...] = ()
    # all: everyone tied with the last qualifying place goes too; none: ties stay out.
    ties_at_cutoff: Literal["all", "none"] = "all"
    ties_note: str = ""
    playoff: Playoff | None = None
    # A tie that would take a maximum (a quota's or the play-off's) past it: raw_time: the entrants
    # with the faster time before penalties go first, and those still tied stay out; leave_out:
    # the whole tied block stays out. Either way the maximum is never exceeded.
    tie_at_cap: Literal["raw_time", "leave_out"] = "raw_time"

    @model_validator(mode="after")
    def _places_or_quotas(self) -> Qualification:
        if (self.per_group is None) == (not self.quotas):
            raise ValueError("give either per_group or quotas")
        return self


class SeatingRule(Model):
    # The best N of each previous-round group sit alone at a table.
    solo_top_per_previous_group: int = Field(default=0, ge=0)
    entries_per_table: int = Field(default=2, gt=0)
    # "always": entries share tables however few they are (wjpc-2025.txt: all competitors of the
    # individual and pairs phases share tables regardless of the number in each group);
    # "when_needed": each entry has a table of its own while the hall has enough.
    shared: Literal["always", "when_needed"] = "when_needed"


class Round(Model):
    id: str
    name: Text
    time_limit_minutes: int | None = Field(default=None, gt=0)
    puzzles: tuple[PuzzleSpec, ...] = ()
    relay_parts: tuple[RelayPart, ...] = ()
    groups: tuple[str, ...] = ()
    qualification: Qualification | None = None
    seating: SeatingRule = SeatingRule()
    # Multi-puzzle rounds: listed: puzzle 1 (or relay part 1) first, each finished and checked
    # before the next; chosen: one puzzle on the table at a time, in the order the entry chooses.
    puzzle_order: Literal["listed", "chosen"] = "listed"
    # The rulebook's most entrants per group of this round; passing it is warned, not refused
    # (rules.group_maxima). The first round falls back to the event's max_per_group.
    max_per_group: int | None = Field(default=None, gt=0)

    @model_validator(mode="after")
    def _puzzles(self) -> Round:
        if not self.puzzles and not self.relay_parts:
            raise ValueError("a round needs puzzles or relay_parts")
        if self.puzzles and self.relay_parts:
            raise ValueError("give puzzles or relay_parts, not both")
        if self.puzzle_order == "chosen" and self.relay_parts:
            raise ValueError("relay parts follow one another: puzzle_order is listed")
        return self

    @property
    def merging_groups(self) -> tuple[tuple[str, ...], ...]:
        """Groups of this round that meet again in one group of the next round (A+B -> S1)."""
        if self.qualification is None or not self.qualification.to_group:
            return ()
        blocks: dict[str, list[str]] = {}
        for group, next_group in self.qualification.to_group.items():
            blocks.setdefault(next_group, []).append(group)
        return tuple(tuple(block) for block in blocks.values())

    @property
    def puzzle_sizes(self) -> tuple[int | None, ...]:
        """Pieces of every puzzle of the round, in order; None where the organiser must say."""
        if self.relay_parts:
            return tuple(p.pieces for p in self.relay_parts for _ in range(p.puzzles))
        return tuple(p.pieces for p in self.puzzles)


class AwardRule(Model):
    """Prizes for a range of places in the overall standings or a subcategory."""

    category: str = "overall"
    from_place: int = Field(ge=1)
    to_place: int = Field(ge=1)
    trophy: bool = True
    # Money per place from from_place on, in the ruleset's currency.
    money: tuple[int, ...] = ()
    items: Text = ""
    # Only entrants eligible for the ruleset's official ranking take these places.
    official_only: bool = False
    # Only entrants meeting this condition take these places (e.g. residents of the host state).
    eligible: Eligibility | None = None

    @model_validator(mode="after")
    def _places(self) -> AwardRule:
        if self.to_place < self.from_place:
            raise ValueError("to_place is before from_place")
        if len(self.money) > self.to_place - self.from_place + 1:
            raise ValueError("more money amounts than places")
        return self


class Subcategory(Model):
    id: str
    name: Text
    when: Condition
    members: Literal["all", "any", "majority"] = "all"


class SubcategoryTiebreaker(Model):
    """A round held for a subcategory whose prizes the final cannot fill: the best `entrants` of
    the subcategory eliminated before the final take part (wjpc-2025.txt, Subcategories (*))."""

    entrants: int = Field(gt=0)
    round: Round


class EarlyPrice(Model):
    amount: Decimal = Field(ge=0)
    until: str = Field(pattern=r"^\d\d-\d\d$", description="MM-DD of the competition year")
    discount_percent: Decimal = Field(ge=0, lt=100)


class Fee(Model):
    """Entry fee; the regular price follows from the early price and its discount when not given."""

    amount: Decimal | None = Field(default=None, ge=0)
    per: Literal["entry", "person"] = "entry"
    early: EarlyPrice | None = None

    @model_validator(mode="after")
    def _priced(self) -> Fee:
        if self.amount is None and self.early is None:
            raise ValueError("give amount or early")
        if self.amount is not None and self.early is not None and self.early.amount > self.amount:
            raise ValueError("the early price is above the regular price")
        return self


class NationalityRule(Model):
    """Members that must share a nationality for an entry of that size to carry a country flag."""

    # Entry size -> members needed. Absent sizes: all members.
    same_nationality_needed: dict[int, int] = {}
    # The flag of an entry whose members do not share a nationality (WJPC names "WJPF").
    mixed_flag: str = "MIX"


class Event(Model):
    id: str
    name: Text
    kind: Literal["individual", "pair", "team", "relay"]
    members_min: int = Field(default=1, ge=1)
    members_max: int = Field(default=1, ge=1)
    # Relay teams are drawn by the organiser from individual registrations.
    drawn_teams: bool = False
    capacity: int | None = Field(default=None, gt=0)
    capacity_unit: Literal["entries", "people"] = "entries"
    max_per_group: int | None = Field(default=None, gt=0)
    fee: Fee | None = None
    nationality: NationalityRule = NationalityRule()
    rounds: tuple[Round, ...]
    subcategories: tuple[Subcategory, ...] = ()
    subcategory_tiebreaker: SubcategoryTiebreaker | None = None
    awards: tuple[AwardRule, ...] = ()
    # The round whose final results decide titles and prizes (rules.prizes); default the last.
    awards_round: str | None = None

    @model_validator(mode="after")
    def _consistent(self) -> Event:
        if self.members_min > self.members_max:
            raise ValueError("members_min is above members_max")
        ids = [r.id for r in self.rounds]
        if self.subcategory_tiebreaker is not None:
            ids.append(self.subcategory_tiebreaker.round.id)
        if len(set(ids)) != len(ids):
            raise ValueError("round ids repeat")
        if self.awards_round is not None and self.awards_round not in ids:
            raise ValueError(f"awards_round {self.awards_round!r} is not a round of the event")
        categories = {"overall"} | {s.id for s in self.subcategories}
        for award in self.awards:
            if award.category not in categories:
                raise ValueError(f"award category {award.category!r} is not a subcategory")
        for rnd in self.rounds:
            q = rnd.qualification
            if q is None:
                continue
            if q.to_round not in ids:
                raise ValueError(f"round {rnd.id!r} qualifies to unknown round {q.to_round!r}")
            next_groups = self.round(q.to_round).groups
            if q.to_group:
                unmapped = set(rnd.groups) - set(q.to_group)
                if unmapped:
                    missing = sorted(unmapped)
                    raise ValueError(f"round {rnd.id!r}: groups {missing} have no to_group")
                unknown = set(q.to_group.values()) - set(next_groups)
                if unknown:
                    raise ValueError(f"round {rnd.id!r}: to_group names {sorted(unknown)}, which "
                                     f"round {q.to_round!r} does not have")
            elif len(next_groups) > 1:
                raise ValueError(f"round {rnd.id!r} needs to_group: {q.to_round!r} has groups")
            if q.playoff is not None and q.playoff.within_group_maximum \
                    and self.round(q.to_round).max_per_group is None:
                raise ValueError(f"round {rnd.id!r}: a play-off within_group_maximum needs "
                                 f"max_per_group in round {q.to_round!r}")
        return self

    @property
    def prize_round(self) -> str:
        """The round whose final results decide titles and prizes."""
        return self.awards_round or self.rounds[-1].id

    def round(self, round_id: str) -> Round:
        """The round with this id (the subcategory tiebreaker's too); KeyError when none."""
        for rnd in self.rounds:
            if rnd.id == round_id:
                return rnd
        tiebreaker = self.subcategory_tiebreaker
        if tiebreaker is not None and (tiebreaker.round.id == round_id
                                       or self.tiebreaker_category(round_id)):
            return tiebreaker.round
        raise KeyError(round_id)

    def tiebreaker_category(self, round_id: str) -> str | None:
        """The subcategory a tiebreaker round decides ("tiebreaker-junior-18" -> "junior-18"),
        None for any other round: each subcategory holds its tiebreaker as a round of its own."""
        tiebreaker = self.subcategory_tiebreaker
        if tiebreaker is None:
            return None
        prefix = f"{tiebreaker.round.id}-"
        category = round_id.removeprefix(prefix)
        ids = {sub.id for sub in self.subcategories}
        return category if round_id.startswith(prefix) and category in ids else None


class RegistrationWindow(Model):
    opens: str = Field(pattern=r"^\d\d-\d\dT\d\d:\d\dZ?$",
                       description="MM-DDTHH:MM in the championship's local time, like the "
                                   "closing; with a trailing Z in UTC (a rulebook that says GMT)")
    closes_days_before: int = Field(ge=0)


class AgeRule(Model):
    """Ages by birth date on the day the ruleset names (rules/ages.py)."""

    # Alone in any event from this age; younger only in a pair or team with an adult.
    alone_from: int | None = None
    # Below this age only with an accompanying adult present.
    accompanied_below: int | None = None
    adult_from: int = 18
    # The day ages are taken on: competition_start (the first competition day),
    # previous_year_end (31 December before the competition year: WJPC's "14 or older (born
    # before 2011)" in 2025) or year_end (31 December of the competition year).
    reckoned: AgeDay = "competition_start"

    def age(self, *, competition_start: dt.date, birth_date: dt.date | None = None,
            birth_year: int | None = None) -> int | None:
        """The age the rule compares: by birth date, else by birth year (archive data)."""
        return reckoned_age(self.reckoned, competition_start=competition_start,
                            birth_date=birth_date, birth_year=birth_year)

    def day(self, competition_start: dt.date) -> dt.date:
        """The day ages are taken on for a competition starting on `competition_start`."""
        return reckoning_day(self.reckoned, competition_start)


class RegistrationPolicy(Model):
    window: RegistrationWindow | None = None
    refund_days_before: int | None = Field(default=None, ge=0)
    age: AgeRule = AgeRule()
    one_entry_per_event: bool = True
    nationality_fixed_after_competing: bool = False
    waiting_list: bool = True


class Choice(Model):
    """One value a person fact or a setting may take, with its name for people."""

    value: str
    name: Text = ""


class PersonFact(Model):
    """A fact about competitors that the ruleset's conditions read, and the values it takes."""

    description: Text
    # choice: one of `values`; country: an IOC code; number: a whole number; yes_no: a boolean.
    kind: Literal["choice", "country", "number", "yes_no"]
    values: tuple[Choice, ...] = ()
    # Asked only of residents of this country (IOC code), e.g. the Australian state.
    residents_of: str | None = None

    @model_validator(mode="after")
    def _values(self) -> PersonFact:
        if (self.kind == "choice") != bool(self.values):
            raise ValueError("a choice fact lists its values; other kinds list none")
        return self


class SettingSpec(Model):
    """A championship setting the organiser supplies: its meaning and the values it takes."""

    description: Text
    values: tuple[Choice, ...] = ()
    # The values of a declared person fact instead of a list of its own (e.g. region).
    values_of: ConditionField | None = None
    # The value when the organiser gives none; None: the setting must be given.
    default: str | None = None

    @model_validator(mode="after")
    def _values(self) -> SettingSpec:
        if bool(self.values) == (self.values_of is not None):
            raise ValueError("give values or values_of")
        return self


class FloorPlanSpec(Model):
    """Tables per row, front to back, and how many are kept for guests."""

    rows: tuple[int, ...]
    guest_tables: int = Field(default=0, ge=0)


class Ruleset(Model):
    id: str
    name: Text
    rulebook: str
    currency: str = ""
    penalty: PenaltyRule
    counting: CountingRule = CountingRule()
    official_ranking: Eligibility | None = None
    # The person facts the conditions read, and the championship settings the organiser supplies
    # (e.g. the host state), each with the values it takes (docs/rulesets.md).
    facts: dict[ConditionField, PersonFact] = {}
    settings: dict[str, SettingSpec] = {}
    registration: RegistrationPolicy = RegistrationPolicy()
    floor_plan: FloorPlanSpec | None = None
    # The statuses assisted and outside_help exist (australia-state-national.txt: help asked for,
    # "No time will be recorded for any competitor who receives outside assistance").
    assistance: bool = False
    # Whether an assisted entrant (no time recorded) may take a prize place left to it: the
    # rulebook allows both readings; ours by default is no (docs/rulesets.md, "Assistance").
    assisted_take_prizes: bool = False
    # The least seconds between a finish and the finish of the puzzle (or relay part) that may
    # only start after it is checked: at least 1, so equal seconds never pass an order check
    # (docs/rulesets.md, "Multi-puzzle rounds").
    next_finish_after_seconds: int = Field(default=1, ge=1)
    # Rounds in which the head judge may give a time credit (wjpc-2025.txt, Start of the round):
    # every_round, or before_final (the event's last round gives none). docs/rulesets.md.
    time_credits: Literal["every_round", "before_final"] = "every_round"
    dispute_window_hours: int | None = Field(default=None, gt=0)
    no_show_after_minutes: int | None = Field(default=None, gt=0)
    events: tuple[Event, ...]

    @model_validator(mode="after")
    def _consistent(self) -> Ruleset:
        ids = [e.id for e in self.events]
        if len(set(ids)) != len(ids):
            raise ValueError("event ids repeat")
        self._check_declarations()
        if self.assisted_take_prizes and not self.assistance:
            raise ValueError("assisted_take_prizes needs assistance = true")
        if self.official_ranking is None:
            for event in self.events:
                if any(a.official_only for a in event.awards):
                    raise ValueError(f"event {event.id!r}: official_only awards need "
                                     "an official_ranking")
                if any(r.qualification and r.qualification.quotas for r in event.rounds):
                    raise ValueError(f"event {event.id!r}: quotas need an official_ranking")
        return self

    def event(self, event_id: str) -> Event:
        """The event with this id; raises KeyError when there is none."""
        for event in self.events:
            if event.id == event_id:
                return event
        raise KeyError(event_id)

    def setting_values(self, name: str) -> tuple[Choice, ...]:
        """The values a declared setting takes."""
        spec = self.settings[name]
        if spec.values_of is not None:
            return self.facts[spec.values_of].values
        return spec.values

    def conditions(self) -> list[Condition]:
        """Every condition of the ruleset, nested ones included."""
        tests = [self.official_ranking.when] if self.official_ranking else []
        for event in self.events:
            tests.extend(s.when for s in event.subcategories)
            tests.extend(a.eligible.when for a in event.awards if a.eligible is not None)
        return [part for test in tests for part in test.parts()]

    def _check_declarations(self) -> None:
        """Every fact and setting a condition reads is declared, with the values it tests."""
        for name, spec in self.settings.items():
            if spec.values_of is not None:
                fact = self.facts.get(spec.values_of)
                if fact is None or fact.kind != "choice":
                    raise ValueError(f"setting {name!r}: values_of names no choice fact")
            allowed = {choice.value for choice in self.setting_values(name)}
            if spec.default is not None and spec.default not in allowed:
                raise ValueError(f"setting {name!r}: the default is not one of its values")
        for condition in self.conditions():
            if condition.field is not None:
                fact = self.facts.get(condition.field)
                if fact is None:
                    raise ValueError(f"a condition reads {condition.field!r}: declare it in facts")
                tested = set(condition.one_of or ())
                if isinstance(condition.equals, str):
                    tested.add(condition.equals)
                unknown = tested - {choice.value for choice in fact.values}
                if fact.kind == "choice" and unknown:
                    raise ValueError(f"a condition tests {condition.field!r} for values it does "
                                     f"not take: {sorted(unknown)}")
            for read in (condition.setting, condition.equals_setting):
                if read is not None and read not in self.settings:
                    raise ValueError(f"a condition reads setting {read!r}: declare it in settings")


def month_day(value: str, year: int) -> dt.date:
    """The date of an "MM-DD" ruleset value in a given year."""
    month, day = value.split("-")
    return dt.date(year, int(month), int(day))
