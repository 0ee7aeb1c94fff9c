"""Guards before steps that cannot be taken back quietly: results made public while seated
entrants have none, qualifiers confirmed while disputes may still come, an event's standings
published before its last round is final.

Pure: each guard takes what it guards and what the organiser confirmed knowingly (the count
the confirmation named, so a confirmation given for 3 missing results does not pass 5), and
raises a RulesError naming what is at stake until then. The services ask them inside their
unit of work, which records what was passed in the audit.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from puzzlecomp.rules.errors import RulesError, violation

# The codes of the guards: a screen shows the confirmation again on these.
GUARDS = frozenset({"guard.results_missing", "guard.dispute_window_open",
                    "guard.event_not_final", "guard.groups_not_started"})

# A guard names at most this many entrants; the count says how many more.
NAMED_MOST = 20


def names_shown(names: Sequence[str]) -> str:
    """The names a guard lists: the first `NAMED_MOST`, then how many more ("…, +12")."""
    shown = ", ".join(names[:NAMED_MOST])
    more = len(names) - NAMED_MOST
    return f"{shown}, +{more}" if more > 0 else shown


def results_missing_guard(missing: Sequence[str], *, knowingly: int | None) -> None:
    """RulesError `guard.results_missing` while seated entrants have no result, unless the
    head judge confirmed exactly that many: their places would vanish from results made
    provisional or public (wjpc-2025.txt, Unfinished Puzzles: every unfinished puzzle is
    counted, so every seated entrant has a result)."""
    if missing and knowingly != len(missing):
        raise RulesError(violation(
            "guard.results_missing",
            f"{len(missing)} seated entrants have no result: {names_shown(missing)}",
            field="knowingly", count=len(missing), entrants=names_shown(missing)))


def dispute_window_guard(window_ends: dt.datetime | None, *, now: dt.datetime,
                         knowingly: dt.datetime | None) -> None:
    """RulesError `guard.dispute_window_open` while competitors may still dispute the round
    (wjpc-2025.txt, Disputes and Reviews: 4 hours from the results), unless the organiser
    confirmed knowing that very window (`knowingly`: the end the confirmation named, so a
    confirmation shown before the results were published again does not pass): a ruling
    after that may change who qualifies."""
    if window_ends is not None and now < window_ends and knowingly is not None \
            and knowingly != window_ends:
        # Ticked on a page drawn before the window moved (results published again).
        raise RulesError(violation(
            "guard.dispute_window_changed",
            f"the window the page showed ended {knowingly.isoformat()}; it now ends "
            f"{window_ends.isoformat()}", field="knowingly", ends=window_ends))
    if window_ends is not None and now < window_ends and knowingly != window_ends:
        raise RulesError(violation(
            "guard.dispute_window_open",
            f"disputes may be filed until {window_ends.isoformat()}",
            field="knowingly", ends=window_ends))


def event_not_final_guard(rounds_to_come: Sequence[str], *, knowingly: int | None) -> None:
    """RulesError `guard.event_not_final` while any round of the event is not final, unless
    the organiser confirmed exactly that many: standings and awards are the final's
    (wjpc-2025.txt, Final Pairs: the final decides the champions)."""
    if rounds_to_come and knowingly != len(rounds_to_come):
        raise RulesError(violation(
            "guard.event_not_final",
            f"{len(rounds_to_come)} rounds are not final: {', '.join(rounds_to_come)}",
            field="knowingly", count=len(rounds_to_come), rounds=tuple(rounds_to_come)))


def groups_not_started_guard(waiting: Sequence[str], *, knowingly: int | None) -> None:
    """RulesError `guard.groups_not_started` while groups of a round played one after another
    on the same tables (wjpc-2025.txt: groups A-F) have not started, unless the head judge
    confirmed exactly that many: stopping the round's assembly ends theirs too, before they
    ever sat down."""
    if waiting and knowingly != len(waiting):
        raise RulesError(violation(
            "guard.groups_not_started",
            f"{len(waiting)} groups have not started: {', '.join(waiting)}",
            field="knowingly", count=len(waiting), groups=", ".join(waiting)))
