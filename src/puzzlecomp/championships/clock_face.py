"""What a clock face reads at a moment, for pages drawn on the server: the state's words and
what `shows` (decided by `rules.round_life.group_clock_at`) puts on the face, as `clockFace`
of live.js draws it in the browser. Shared by the public pages and the head judge's."""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from puzzlecomp.championships.models import RoundState


def state_words() -> dict[str, str]:
    return {value: str(label) for value, label in RoundState.choices}


def duration(seconds: float | None) -> str:
    """"1:02:03" from an hour up, "02:03" below: as `formatDuration` in live.js."""
    if seconds is None:
        return ""
    total = max(0, int(seconds))
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes:02}:{secs:02}"


@dataclass(frozen=True)
class ClockView:
    """The round clock at the moment the page is rendered (JavaScript keeps it running):
    its state and what its face shows, as `clockFace` of live.js draws it."""

    state: str
    state_words: str
    shows: str
    label: str
    value: str

    @property
    def shown(self) -> bool:
        return bool(self.value)


def clock_view(clock: dict[str, Any], *, now: dt.datetime) -> ClockView:
    """The clock JSON (`RoundClock.as_json`) at `now`: only the limit passing since it was
    read moves a countdown to counting (rules/round_life.py decided the rest)."""
    state = clock["state"]
    limit = clock["limit_seconds"]
    started_at = dt.datetime.fromisoformat(clock["started_at"]) if clock.get("started_at") else None
    shows = clock.get("shows") or ("countdown" if started_at else "waiting")
    ended = dt.datetime.fromisoformat(clock["ended_at"]) if clock.get("ended_at") else None
    if shows == "countdown" and started_at is not None:
        elapsed = max(0.0, (now - started_at).total_seconds())
        # A countdown shows 00:01 until the second is over (rounded up, as live.js does).
        remaining = max(0, math.ceil(limit - elapsed))
        if remaining > 0:
            return _clock(state, shows, _("Time left"), duration(remaining))
        if clock.get("after_limit") == "waiting":
            # Others wait their turn: the round runs on, showing the next group's wait.
            return _clock(state, "waiting", _("Time limit"), duration(limit))
        shows, ended = "counting", started_at + dt.timedelta(seconds=limit)
        state = RoundState.COUNTING if state == RoundState.RUNNING else state
    if shows in ("waiting", "countdown"):
        return _clock(state, "waiting", _("Time limit"),
                      "--:--" if limit is None else duration(limit))
    if ended is None:
        return _clock(state, shows, "", "")
    return _clock(state, shows, _("Ended at"), timezone.localtime(ended).strftime("%H:%M"))


def _clock(state: str, shows: str, label: str, value: str) -> ClockView:
    # A clock that waits says so, whether its round is planned or another group plays.
    words = _("Waiting") if shows == "waiting" else state_words().get(str(state), str(state))
    return ClockView(state=str(state), state_words=words, shows=shows, label=label, value=value)
