"""Ages by birth date on the day a ruleset reckons them; the birth year alone is a fallback.

The day (`[registration.age] reckoned`, docs/rulesets.md "Ages"):
- competition_start: the competition's first day ("Persons under 16" of czech-championship.txt,
  czech-blind-and-relay.txt and norway-nm-2025.txt name no other day);
- previous_year_end: 31 December before the competition year, the only day on which
  wjpc-2025.txt's ages and the birth years it gives for them agree for every birth date
  ("under 18 years old - born in 2007 or later", "aged 14 or older (born before 2011)");
- year_end: 31 December of the competition year.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

AgeDay = Literal["competition_start", "previous_year_end", "year_end"]


def age_on(birth_date: dt.date, day: dt.date) -> int:
    """Whole years completed on `day` (a birthday on that day counts; 29 February reaches its
    age on 1 March of a common year)."""
    before_birthday = (day.month, day.day) < (birth_date.month, birth_date.day)
    return day.year - birth_date.year - before_birthday


def reckoning_day(reckoned: AgeDay, competition_start: dt.date) -> dt.date:
    """The day on which the ruleset's ages are taken, for a competition starting that day."""
    if reckoned == "previous_year_end":
        return dt.date(competition_start.year - 1, 12, 31)
    if reckoned == "year_end":
        return dt.date(competition_start.year, 12, 31)
    return competition_start


def reckoned_age(
    reckoned: AgeDay,
    *,
    competition_start: dt.date,
    birth_date: dt.date | None = None,
    birth_year: int | None = None,
) -> int | None:
    """The age the ruleset compares: from the birth date where known, else from the birth year
    (archive data), else None.

    From a birth year alone the age is the one reached during the reckoning day's year: exact
    when the day is 31 December, at most one year too high on any other day.
    """
    day = reckoning_day(reckoned, competition_start)
    if birth_date is not None:
        return age_on(birth_date, day)
    if birth_year is not None:
        return day.year - birth_year
    return None
