"""An organiser's correction of the person facts a ruleset declares (citizenship, residence,
years of residence, region), with a reason: what the official ranking and the prizes read.

A Swede living in Oslo ten years registers before the form asked for the years, or types them
wrong: the organiser sets them here, and the audit log keeps who did it, why and what was
there before.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django_countries import countries

from puzzlecomp.championships.actions import PERSON_FACTS_SET
from puzzlecomp.championships.engine import ruleset_of
from puzzlecomp.championships.models import EntryMember, Person
from puzzlecomp.championships.services.work import unit_of_work
from puzzlecomp.rules import limits
from puzzlecomp.rules.ruleset import PersonFact

# The declared facts a Person stores (rules.people.Person reads them through engine.py);
# birth year and the facts from history are set elsewhere (birth date, services/facts.py).
PERSON_FIELDS = ("nationality", "residence", "region", "years_resident")


class PersonFactsRefused(Exception):
    """A correction without a reason, of a fact the ruleset does not declare, or a value it
    cannot take."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        self.code = code
        self.message = message
        self.params = params
        super().__init__(message)


def editable_facts(member: EntryMember) -> dict[str, PersonFact]:
    """The person facts of the entry's ruleset that an organiser may correct, in its order."""
    return {str(name): fact for name, fact in ruleset_of(member.entry).facts.items()
            if name in PERSON_FIELDS}


def member_person_facts_set(*, member: EntryMember, values: Mapping[str, Any], reason: str,
                            user: Any) -> dict[str, tuple[Any, Any]]:
    """Set person facts of an entry member (IOC-free stored values: ISO country codes, whole
    years, the ruleset's choice values) for a stated reason; audited with the values before.

    Returns what changed (fact -> (before, after)). Raises PersonFactsRefused.
    """
    if not reason.strip():
        raise PersonFactsRefused("facts.reason_missing", "An override needs a reason.")
    allowed = editable_facts(member)
    for name, value in values.items():
        if name not in allowed:
            raise PersonFactsRefused("person_facts.not_declared",
                                     f"the ruleset declares no fact {name!r}", fact=name)
        _check(name, value, allowed[name].kind, tuple(c.value for c in allowed[name].values))
    championship = member.entry.event.championship
    with unit_of_work(PERSON_FACTS_SET, championship=championship, user=user) as work:
        person = Person.objects.select_for_update().get(pk=member.person_id)
        changed = {name: (_stored(getattr(person, name)), value)
                   for name, value in values.items()
                   if _stored(getattr(person, name)) != value}
        if not changed:
            work.nothing_changed()
            return {}
        for name, (_, value) in changed.items():
            setattr(person, name, "" if value is None and name != "years_resident" else value)
        person.save(update_fields=list(changed))
        work.record(entry=member.entry.number, event=member.entry.event.code,
                    person=person.pk, reason=reason.strip()[:300],
                    before={name: old for name, (old, _) in changed.items()},
                    after={name: new for name, (_, new) in changed.items()})
    member.person = person
    return changed


def _stored(value: Any) -> Any:
    """A field's value as the service compares it (a CountryField gives a Country object)."""
    code = getattr(value, "code", None)
    if code is not None:
        return code or None
    return value if value != "" else None


def _check(name: str, value: Any, kind: str, choices: tuple[str, ...]) -> None:
    if value is None:
        if name == "nationality":  # every person holds one
            raise PersonFactsRefused("person_facts.bad_value", "a nationality is required",
                                     fact=name, value="")
        return
    valid = {
        "number": isinstance(value, int) and not isinstance(value, bool)
        and 0 <= value <= limits.MAX_YEARS,
        "country": isinstance(value, str) and value in dict(countries),
        "choice": value in choices,
    }.get(kind, False)
    if not valid:
        raise PersonFactsRefused("person_facts.bad_value", f"{value!r} is not a value of {name}",
                                 fact=name, value=value)
