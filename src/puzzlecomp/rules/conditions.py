"""Conditions in ruleset files: who is eligible, who belongs to a subcategory or a quota."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from puzzlecomp.rules.people import Person
from puzzlecomp.rules.texts import Text

ConditionField = Literal[
    "nationality",
    "residence",
    "region",
    "years_resident",
    "birth_year",
    "debutant",
    "first_state_competition_of_year",
]
Value = str | int | bool


class Condition(BaseModel):
    """A test on a person: one field test, or all_of / any_of / not of other conditions."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    field: ConditionField | None = None
    # A test of a championship setting alone (e.g. whether a territory holds a competition).
    setting: str | None = None
    equals: Value | None = None
    one_of: tuple[str, ...] | None = None
    at_least: int | None = None
    at_most: int | None = None
    equals_setting: str | None = None
    all_of: tuple[Condition, ...] = ()
    any_of: tuple[Condition, ...] = ()
    not_: Condition | None = Field(default=None, alias="not")

    @model_validator(mode="after")
    def _one_form(self) -> Condition:
        tests = [self.equals, self.one_of, self.at_least, self.at_most, self.equals_setting]
        forms = sum([
            self.field is not None, self.setting is not None, bool(self.all_of),
            bool(self.any_of), self.not_ is not None,
        ])
        if forms != 1:
            raise ValueError("give exactly one of: field, setting, all_of, any_of, not")
        if self.field is not None and all(t is None for t in tests):
            raise ValueError(
                "a field test needs equals, one_of, at_least, at_most or equals_setting"
            )
        if self.setting is not None and (self.equals is None) == (self.one_of is None):
            raise ValueError("a setting test needs equals or one_of")
        return self

    def parts(self) -> list[Condition]:
        """This condition and every condition inside it."""
        inner = [*self.all_of, *self.any_of, *([self.not_] if self.not_ else [])]
        return [self, *(part for condition in inner for part in condition.parts())]

    def holds_for(self, person: Person, settings: Mapping[str, Value] | None = None) -> bool:
        """True when the person meets this condition; unknown values never meet a test."""
        if self.all_of:
            return all(c.holds_for(person, settings) for c in self.all_of)
        if self.any_of:
            return any(c.holds_for(person, settings) for c in self.any_of)
        if self.not_ is not None:
            return not self.not_.holds_for(person, settings)
        if self.setting is not None:
            chosen = (settings or {}).get(self.setting)
            return chosen is not None and (chosen == self.equals or chosen in (self.one_of or ()))
        assert self.field is not None
        value = getattr(person, self.field)
        if value is None:
            return False
        if self.equals is not None and value != self.equals:
            return False
        if self.one_of is not None and value not in self.one_of:
            return False
        if self.at_least is not None and not value >= self.at_least:
            return False
        if self.at_most is not None and not value <= self.at_most:
            return False
        if self.equals_setting is not None:
            wanted = (settings or {}).get(self.equals_setting)
            if wanted is None or value != wanted:
                return False
        return True


class Eligibility(BaseModel):
    """Who may take an official place or a prize, and how a pair or team is judged."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    description: Text
    when: Condition
    # A pair or team is eligible when all, any, or a majority of its members are.
    members: Literal["all", "any", "majority"] = "all"

    def admits(
        self, people: tuple[Person, ...], settings: Mapping[str, Value] | None = None
    ) -> bool:
        """True when the entry made of these people is eligible."""
        if not people:
            return False
        passing = sum(self.when.holds_for(p, settings) for p in people)
        if self.members == "all":
            return passing == len(people)
        if self.members == "any":
            return passing > 0
        return passing * 2 > len(people)
