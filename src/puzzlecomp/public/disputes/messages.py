"""Translated messages for the refusals of disputes (codes raised by services/disputes.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _

from puzzlecomp.control.planning.errors import message_of
from puzzlecomp.rules.errors import RulesError
from puzzlecomp.web.messages import translated

DISPUTE_MESSAGES: Mapping[str, Any] = {
    "dispute.no_result": _("There is no result of yours in this round to dispute."),
    "dispute.round_not_published": _(
        "Disputes are filed on published results; this round's results are not published."),
    "dispute.window_closed": _("Disputes of this round closed at %(ends)s."),
    "dispute.text_required": _("Say what is wrong with your result."),
    "dispute.already_open": _(
        "You already have an open dispute of this round; the head judge will answer it."),
    "dispute.already_resolved": _("Dispute #%(dispute)s is already resolved."),
    "dispute.resolution_required": _("Say how the dispute was resolved."),
    "dispute.correction_needs_uphold": _(
        "A rejected dispute leaves the result as it is: uphold it to correct the result."),
}

# How a result's status reads on the screens.
STATUS_LABELS: Mapping[str, Any] = {
    "finished": _("finished"),
    "unfinished": _("not finished: pieces counted"),
    "dnf": _("did not finish"),
    "dsq": _("disqualified"),
    "dns": _("did not start"),
    "assisted": _("helped to finish: no time recorded"),
    "outside_help": _("outside help: no time"),
}


def when(value: Any) -> Any:
    """A datetime parameter as the reader's local date and time."""
    if hasattr(value, "tzinfo"):
        return formats.date_format(timezone.localtime(value), "DATETIME_FORMAT")
    return value


def messages_of(error: RulesError, extra: Mapping[str, Any] | None = None) -> list[str]:
    """The translated message of every violation, in the reader's language and time zone."""
    found = []
    for v in error.violations:
        params = {key: when(value) for key, value in
                  {**v.params, "entry": v.entry, "field": v.field}.items()}
        table = {**DISPUTE_MESSAGES, **(extra or {})}
        found.append(translated(table, v.code, v.message, params) if v.code in table
                     else message_of(v.code, v.message, params))
    return found
