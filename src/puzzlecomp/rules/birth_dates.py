"""Which birth dates are plausible for an entrant (issue 30: no invented or mistyped fact
reaches an age category or an age record)."""

from __future__ import annotations

import datetime as dt

# No one this old has entered a championship; a date before it is a slip of the keyboard.
OLDEST_YEARS = 110


def birth_date_plausible(born: dt.date, *, competition_start: dt.date) -> bool:
    """True when the person is born before the competition and at most OLDEST_YEARS before it."""
    return competition_start.year - OLDEST_YEARS <= born.year and born < competition_start
