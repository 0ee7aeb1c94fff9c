"""Facts derived from people's history (rules/history.py), stored on each entry member for the
engine, and the organiser's overrides of them with a reason (docs/archive.md)."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from puzzlecomp.championships.actions import FACT_OVERRIDDEN
from puzzlecomp.championships.models import (
    Championship,
    EntryMember,
    FactOverride,
    HistoryFact,
)
from puzzlecomp.championships.selectors.history import member_facts_derived
from puzzlecomp.championships.services.work import unit_of_work

FACTS = tuple(HistoryFact)


class FactOverrideRefused(Exception):
    """An override without a reason, or of a fact that does not exist."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        super().__init__(message)


@transaction.atomic
def member_facts_derive(*, championship: Championship) -> int:
    """Store every entry member's history facts as derived from their earlier entries; returns
    how many members changed. Overridden facts keep the organiser's value."""
    derived = member_facts_derived(championship=championship)
    overridden = set(FactOverride.objects.filter(
        member__entry__event__championship=championship).values_list("member_id", "fact"))
    changed = []
    for pk, debutant, first_state in EntryMember.objects.filter(pk__in=derived).values_list(
            "pk", "debutant", "first_state_competition_of_year"):
        new_debutant, no_earlier_state_entry = derived[pk]
        # History proves an earlier state competition this year; without one, the entrant's
        # own answer stands (they may have entered one this installation does not know).
        new_first_state = False if not no_earlier_state_entry else (
            True if first_state is None else first_state)
        kept = tuple(old if (pk, fact) in overridden else new
                     for fact, old, new in zip(FACTS, (debutant, first_state),
                                               (new_debutant, new_first_state), strict=True))
        if kept != (debutant, first_state):
            changed.append(EntryMember(pk=pk, debutant=kept[0],
                                       first_state_competition_of_year=kept[1]))
    EntryMember.objects.bulk_update(changed, ["debutant", "first_state_competition_of_year"],
                                    batch_size=500)
    return len(changed)


def member_fact_override(*, member: EntryMember, fact: str, value: bool, reason: str,
                         user: Any) -> FactOverride:
    """Set a derived fact of an entry member by hand, for a stated reason; audited."""
    if fact not in FACTS:
        raise FactOverrideRefused("facts.unknown", f"{fact!r} is not a fact from history")
    if not reason.strip():
        raise FactOverrideRefused("facts.reason_missing", "An override needs a reason.")
    with unit_of_work(FACT_OVERRIDDEN, championship=member.entry.event.championship,
                      user=user) as work:
        member.refresh_from_db(fields=[fact])
        derived = getattr(member, fact)
        override, _ = FactOverride.objects.update_or_create(
            member=member, fact=fact,
            defaults={"value": value, "reason": reason.strip()[:300], "by": work.user})
        setattr(member, fact, value)
        member.save(update_fields=[fact])
        work.record(entry=member.entry.number, event=member.entry.event.code,
                    person=member.person_id, fact=fact, before=derived, value=value,
                    reason=override.reason)
    return override
