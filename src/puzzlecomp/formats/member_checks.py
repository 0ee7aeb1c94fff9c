"""The members an input lists for one entry (`;` between person ids), checked: no blank member,
nobody twice, as many as the event takes. `seed` and `archive import` read them so
(docs/seeding.md, docs/archive.md); each check names its field and says what is wrong.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from puzzlecomp.rules.ruleset import Event

# Where the published results give two people of one name one id (shared/data/README.md), the
# id may repeat within an entry: in a history file it is two people, not one person twice.
SAME_NAME_SHARES_AN_ID = True


def member_ids(text: str) -> list[str]:
    """Every member id between `;`, blanks included ("" for a blank member); none for ""."""
    return [part.strip() for part in text.split(";")] if text.strip() else []


def blank_member_problem(ids: Iterable[str]) -> str | None:
    """A blank between two `;` (or at either end) is a member without an id."""
    found = list(ids)
    if any(not member for member in found):
        return f"a member is blank: {';'.join(found)!r} (one person id between each ';')"
    return None


def twice_problem(ids: Iterable[str]) -> str | None:
    """A person listed twice in one entry."""
    repeated = sorted(member for member, count in Counter(ids).items() if member and count > 1)
    if repeated:
        return f"person {', '.join(repeated)} is listed twice in this entry"
    return None


def count_problem(ids: Iterable[str] | int, event: Event) -> str | None:
    """An entry listing fewer or more members than the event takes (ids, or their number)."""
    count = ids if isinstance(ids, int) else len(list(ids))
    if event.members_min <= count <= event.members_max:
        return None
    wanted = (str(event.members_min) if event.members_min == event.members_max
              else f"{event.members_min} to {event.members_max}")
    return f"{event.id} takes {wanted} members, this entry lists {count}"


def entry_member_problems(text: str, event: Event | None, *, history: bool) -> list[str]:
    """Every problem of one entry's member list. `history`: a published results file, where a
    repeated id is two people of one name and counts each time (SAME_NAME_SHARES_AN_ID)."""
    ids = member_ids(text)
    if not ids:
        return []
    problems = [blank_member_problem(ids)]
    if not (history and SAME_NAME_SHARES_AN_ID):
        problems.append(twice_problem(ids))
    if event is not None:  # a blank member is told once, not counted
        problems.append(count_problem([member for member in ids if member], event))
    return [problem for problem in problems if problem is not None]
