"""Times as judges write them: H:MM:SS, MM:SS or plain seconds."""

from __future__ import annotations

import re

_CLOCK = re.compile(r"^(?:(\d+):)?(\d{1,2}):(\d{2})$")
_SECONDS = re.compile(r"^(\d+)(?:\.0+)?$")


def parse_time(text: str) -> int:
    """Whole seconds from "1:02:03", "62:03" or "3723"; raises ValueError on anything else."""
    value = text.strip()
    if match := _SECONDS.match(value):
        return int(match.group(1))
    if match := _CLOCK.match(value):
        hours, minutes, seconds = match.groups()
        if int(seconds) >= 60 or (hours is not None and int(minutes) >= 60):
            raise ValueError(f"{text!r} is not a time")
        return int(hours or 0) * 3600 + int(minutes) * 60 + int(seconds)
    raise ValueError(f"{text!r} is not a time (H:MM:SS, MM:SS or whole seconds)")


def format_time(seconds: int) -> str:
    """H:MM:SS for a number of seconds."""
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}"
