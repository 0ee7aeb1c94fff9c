"""The audit log: one namespaced entry per change."""

from __future__ import annotations

from typing import Any

from puzzlecomp.championships.models import AuditEntry, Championship


def log_action(championship: Championship, action: str, *, user: Any = None,
               **data: Any) -> AuditEntry:
    """Record `action` (e.g. "puzzlecomp.entry.confirmed") with who did it and its data."""
    return AuditEntry.objects.create(
        championship=championship,
        action=action,
        user=user if getattr(user, "is_authenticated", False) else None,
        data=data,
    )
