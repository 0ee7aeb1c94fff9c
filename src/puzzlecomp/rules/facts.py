"""Person facts as an input gives them, checked against the ruleset's declared values."""

from __future__ import annotations

import dataclasses

from puzzlecomp.rules.errors import RulesError, RuleViolation, violation
from puzzlecomp.rules.results import Entry
from puzzlecomp.rules.ruleset import Ruleset


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
