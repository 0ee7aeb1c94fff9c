"""Messages for the reader: engine and planning refusals in the reader's language (each screen
keeps its own table of translated templates by code, and falls back to the English message it
came with), and a posted form's errors."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib import messages
from django.forms import BaseForm
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

# What a round lacks before it may start or be ranked (rules.round_life.round_readiness), in
# the organiser's words: every screen and the API show these.
ROUND_READINESS_MESSAGES: Mapping[str, Any] = {
    "round.time_limit_required": _(
        "The round has no time limit yet: the organiser sets it on the round's page under "
        "Setup."),
    "round.pieces_required": _(
        "The round's puzzles have no number of pieces yet: the organiser sets it on the "
        "round's page under Setup."),
    "round.time_limit_invalid": _("The round's time limit must be at least one minute."),
    "round.pieces_invalid": _("A puzzle has at least one piece."),
    "round.no_entrants": _(
        "The round has no entrants yet: confirm the entries, or the previous round's "
        "qualifiers."),
    "round.groups_missing": _(
        "%(count)s entrants have no group yet: assign the groups under Groups and seating."),
    "round.seats_missing": _(
        "%(count)s entrants have no table yet: seat the groups under Groups and seating."),
}


def translated(table: Mapping[str, Any], code: str, english: str,
               params: Mapping[str, Any]) -> str:
    """The template for `code` filled with `params`; `english` when none fits."""
    template = table.get(code)
    if template is None:
        return english
    try:
        return str(template) % dict(params)
    except (KeyError, TypeError, ValueError):
        return english


def form_errors_to_messages(request: HttpRequest, form: BaseForm) -> None:
    """A posted form's errors as messages for the page it redirects to ("Label: error")."""
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        for error in errors:
            messages.error(request, f"{label}: {error}" if label else error)
