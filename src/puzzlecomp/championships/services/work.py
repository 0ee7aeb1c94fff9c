"""One way to write: a unit of work opens the transaction, writes the action's audit entry and
numbers its live notices in that transaction, and sends them after commit.

    with unit_of_work(SEATS_SWAPPED, championship=c, user=user, round=rnd) as work:
        ...                                  # the write
        work.record(group=group)             # audit data known only now

A service cannot forget the audit entry or the notice: the action (championships.actions) says
which notice it sends. A unit opened inside another (a correction inside a dispute ruling)
writes its own audit entry and leaves its notices to the outer one, which sends each once.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from puzzlecomp.championships.actions import Action
from puzzlecomp.championships.models import AuditEntry, Championship, Round
from puzzlecomp.championships.notices import announce
from puzzlecomp.championships.plain_sql import insert


@dataclass
class Work:
    """An open unit of work: the audit data gathered so far and the notices it will send."""

    action: Action
    championship: Championship
    user: Any
    data: dict[str, Any]
    # (round id or None, kind) -> the round whose public pages change (None: every round).
    notices: dict[tuple[int | None, str], Round | None] = field(default_factory=dict)
    changed: bool = True
    # Units opened inside this one leave their notices here.
    inner_notices: dict[tuple[int | None, str], Round | None] = field(default_factory=dict)

    def record(self, **data: Any) -> None:
        """Add to the audit entry's data."""
        self.data.update(data)

    def announce(self, round: Round | None, kind: str | None = None) -> None:
        """Also tell the pages of `round` (every round when None) that it changed; `kind`
        defaults to the action's notice."""
        kind = kind or self.action.notice
        assert kind is not None, f"{self.action} changes no public page"
        self.notices[(round.pk if round else None, kind)] = round

    def nothing_changed(self) -> None:
        """The write turned out to change nothing: no audit entry, no notice."""
        self.changed = False


_open = threading.local()


def _stack() -> list[Work]:
    if not hasattr(_open, "units"):
        _open.units = []
    units: list[Work] = _open.units
    return units


@contextmanager
def unit_of_work(action: Action, *, championship: Championship, user: Any = None,
                 round: Round | None = None, **data: Any) -> Iterator[Work]:
    """A transaction that ends by auditing `action` (with `data`, and the round's id) and
    numbering its notice for `round` (every round of the championship when None); sent after
    commit."""
    work = Work(action, championship, user if getattr(user, "is_authenticated", False)
                else None, {"round": round.pk, **data} if round is not None else dict(data))
    if action.notice is not None:
        work.announce(round)
    stack = _stack()
    with transaction.atomic():
        stack.append(work)
        try:
            yield work
        finally:
            stack.pop()
        _finish(work, outer=stack[-1] if stack else None)


def action_audit(action: Action, *, championship: Championship, user: Any = None,
                 **data: Any) -> None:
    """Audit an action that changes nothing stored (a download of private data)."""
    with unit_of_work(action, championship=championship, user=user, **data):
        pass


def _finish(work: Work, *, outer: Work | None) -> None:
    notices = dict(work.inner_notices)
    if work.changed:
        # Plain SQL (championships/plain_sql.py): every judge's record is a unit of work.
        insert(AuditEntry(championship=work.championship, action=work.action.code,
                          user=work.user, data=work.data))
        notices.update(work.notices)
    if outer is not None and outer.championship.pk == work.championship.pk:
        outer.inner_notices.update(notices)
        return
    for (_, kind), rnd in notices.items():
        announce(championship=work.championship, round=rnd, kind=kind)
