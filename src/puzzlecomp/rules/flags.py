"""The flag an entry competes under: its members' country, or the mixed flag."""

from __future__ import annotations

from collections import Counter

from puzzlecomp.rules.results import Entry
from puzzlecomp.rules.ruleset import Event


def entry_flag(entry: Entry, event: Event) -> str:
    """The country (IOC code) the entry represents, or the event's mixed flag.

    A country needs `same_nationality_needed[size]` members of that nationality (all members
    when the size is absent); a member of unknown nationality counts for no country. An entry
    with no known nationality at all falls back on its country, then on the mixed flag.
    """
    rule = event.nationality
    if len(entry.members) == 1:  # the common case, kept cheap for large rounds
        return entry.members[0].nationality or entry.country or rule.mixed_flag
    known = [person.nationality for person in entry.members if person.nationality]
    if not known:
        return entry.country or rule.mixed_flag
    size = len(entry.members)
    country, members = Counter(known).most_common(1)[0]
    return country if members >= rule.same_nationality_needed.get(size, size) else rule.mixed_flag


def is_mixed(entry: Entry, event: Event) -> bool:
    """True when the entry competes under the mixed flag, for no country."""
    return entry_flag(entry, event) == event.nationality.mixed_flag
