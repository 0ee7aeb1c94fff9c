"""Numbered live notices: written in the same transaction as the change they announce.

The number (`Championship.live_seq`) is durable, so a spectator who misses one notice in transit
sees a gap and reloads the snapshot: the transport may lose notices, the numbers never lie.
How a notice travels to spectators is `live`'s business (live/notices.py): it receives
`notice_numbered` after the write commits, so the models and services never import it.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.dispatch import Signal

from puzzlecomp.championships.models import Championship, Notice, Round
from puzzlecomp.championships.plain_sql import execute, insert, table

# Sent after the write's commit with `payload` (notice_payload), once per notice.
notice_numbered = Signal()


def announce(*, championship: Championship, round: Round | None, kind: str) -> int:
    """Number a notice that `round` (or the whole championship) changed; sent after commit."""
    seq = _next_seq(championship.pk)
    championship.live_seq = seq
    insert(Notice(championship=championship, seq=seq, round=round, kind=kind))
    payload = notice_payload(championship.slug, seq, round.pk if round else None, kind)
    transaction.on_commit(lambda: notice_numbered.send(sender=Notice, payload=payload))
    return seq


def _next_seq(championship_id: int) -> int:
    """Add one to the championship's notice number and read it in one statement (RETURNING:
    PostgreSQL, SQLite 3.35+), on every judge's write."""
    ((seq,),) = execute(f"UPDATE {table(Championship)} SET live_seq = live_seq + 1 "
                        "WHERE id = %s RETURNING live_seq", [championship_id])
    return int(seq)


def notice_payload(slug: str, seq: int, round_id: int | None, kind: str) -> dict[str, Any]:
    """What a spectator receives: small, so that 5,000 of them cost little to send."""
    return {"championship": slug, "seq": seq, "round": round_id, "kind": kind}
