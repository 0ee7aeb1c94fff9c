"""What the public may read of a person: their name only with the consent its registrant gave
for that championship (the entry member's `consent_publish`, "publish name, nationality and age
category"); `member_named` is the one answer every read uses (its filter twin: `NAMED`).

An entry's name is usually made of its members' names (an individual's own, "Ana Novak & Ben
Berg" for a pair), so it is withheld when it names a member who did not consent. A team name
of the team's own choosing stays public. Public pages print "Name not published" instead.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable

from django.db.models import Q, QuerySet

from puzzlecomp.championships.models import Entry, EntryMember, EntryStatus, Round, RoundState

# (first name, last name) of a member who did not consent.
Withheld = tuple[str, str]


# The entry members whose name may be shown, as a filter on EntryMember (see member_named).
NAMED = Q(consent_publish=True)


def member_named(member: EntryMember) -> bool:
    """May this member's name (nationality, age category) be shown: the consent given for
    this championship's entry, whatever the person's other championships say."""
    return member.consent_publish


def withheld_members(entry_ids: Iterable[int]) -> set[tuple[int, int]]:
    """(entry id, person id) of the members of these entries who may not be named: what pages
    across championships ask of each result (one query)."""
    return set(EntryMember.objects.filter(entry_id__in=set(entry_ids)).exclude(NAMED)
               .values_list("entry_id", "person_id"))


def public_name(name: str, withheld: Iterable[Withheld]) -> str:
    """`name`, or "" when it contains a withheld member's first or last name as a word."""
    for first, last in withheld:
        for part in (first.strip(), last.strip()):
            if part and re.search(rf"(?<!\w){re.escape(part)}(?!\w)", name, re.IGNORECASE):
                return ""
    return name


def withheld_by_number(*, event_id: int) -> dict[int, list[Withheld]]:
    """Entry number -> the names of its members who did not consent, for one event (one
    query; most entries have none)."""
    found: dict[int, list[Withheld]] = defaultdict(list)
    for number, first, last in (EntryMember.objects
                                .filter(entry__event_id=event_id).exclude(NAMED)
                                .order_by()
                                .values_list("entry__number", "person__first_name",
                                             "person__last_name")):
        found[number].append((first, last))
    return dict(found)


def entry_public_name(entry: Entry, members: Iterable[EntryMember]) -> str:
    """The entry's name as the public may read it, given its members (persons loaded)."""
    return public_name(entry.name, [(m.person.first_name, m.person.last_name)
                                    for m in members if not member_named(m)])


def public_entries(slug: str) -> QuerySet[Entry]:
    """Entries anyone may look up: confirmed ones and those who have competed, of a published
    championship (unconfirmed registrations stay private)."""
    return (Entry.objects.select_related("event__championship")
            .filter(event__championship__slug=slug, event__championship__published=True)
            .filter(Q(status=EntryStatus.CONFIRMED) | Q(seats__isnull=False)
                    | Q(results__isnull=False))
            .distinct())


def groups_public(rnd: Round) -> bool:
    """A round's groups are public once the organiser publishes them (or the seating), or once
    the round has begun; before that they are a draft."""
    return rnd.groups_published or tables_public(rnd)


def tables_public(rnd: Round) -> bool:
    """A round's tables are public once the organiser publishes the seating, or once the round
    has begun."""
    return rnd.seating_published or rnd.state != RoundState.PLANNED
