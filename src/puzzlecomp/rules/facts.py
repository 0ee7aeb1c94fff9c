"""Entries as an input file gives them, checked against the ruleset: the facts of their people
(declared values) and how many people they list (the event's size)."""

from __future__ import annotations

import dataclasses

from puzzlecomp.rules.errors import RulesError, RuleViolation, violation
from puzzlecomp.rules.results import Entry
from puzzlecomp.rules.ruleset import Event, Ruleset


def declared_facts(ruleset: Ruleset, entry: Entry) -> Entry:
    """The entry with every choice fact in the ruleset's own spelling (any letter case is taken).

    Raises RulesError (person.value_unknown, naming the entry and the fact) for a value the
    ruleset does not declare, e.g. a region "Sydney" for australia-state.
    """
    choices = {
        name: {choice.value.casefold(): choice.value for choice in fact.values}
        for name, fact in ruleset.facts.items()
        if fact.kind == "choice"
    }
    if not choices:
        return entry
    problems: list[RuleViolation] = []
    members = []
    for person in entry.members:
        spelled: dict[str, object] = {}
        for name, values in choices.items():
            given = getattr(person, name)
            if given is None:
                continue
            value = values.get(str(given).casefold())
            if value is None:
                allowed = ", ".join(values.values())
                problems.append(violation(
                    "person.value_unknown", f"{name} {given!r} is not one of {allowed}",
                    entry=entry.id, field=name, value=str(given), allowed=allowed,
                ))
            spelled[name] = value
        members.append(dataclasses.replace(person, **spelled))  # type: ignore[arg-type]
    if problems:
        raise RulesError(problems)
    return dataclasses.replace(entry, members=tuple(members))


def check_members_count(entry: Entry, event: Event, ruleset_id: str) -> None:
    """Raise RulesError (entry.members_count) when the entry lists more members than the event
    takes, or more than one but fewer than it needs.

    One member given for a pair or team means its members are not listed (docs/formats.md);
    registration checks the sizes of stored entries.
    """
    members = len(entry.members)
    if members > event.members_max or 1 < members < event.members_min:
        size = (str(event.members_min) if event.members_min == event.members_max
                else f"{event.members_min}-{event.members_max}")
        raise RulesError(violation(
            "entry.members_count",
            f"{members} members listed; {event.name} of {ruleset_id} takes {size}",
            entry=entry.id, field="members", members=members,
            members_min=event.members_min, members_max=event.members_max,
        ))
