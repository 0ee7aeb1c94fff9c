"""How a numbered notice travels: to this process's spectators, and to the other processes'
through Redis if set. Notices are numbered in championships/notices.py, inside the write's
transaction; `LiveConfig.ready` connects `notice_send` to its `notice_numbered` signal.
"""

from __future__ import annotations

from typing import Any

from puzzlecomp.live import broker
from puzzlecomp.live.relay import relay_forward


def notice_send(payload: dict[str, Any]) -> None:
    """To this process's spectators, and to the other processes' through Redis if set."""
    broker.publish(payload["championship"], payload)
    relay_forward(payload)


def notice_received(sender: Any, *, payload: dict[str, Any], **kwargs: Any) -> None:
    notice_send(payload)
