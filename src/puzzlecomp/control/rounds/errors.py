"""Translated messages for the codes the qualifier services raise."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from puzzlecomp.championships.services.qualifiers import QualifierError
from puzzlecomp.control.planning.errors import messages_of
from puzzlecomp.planning import PlanningError
from puzzlecomp.rules.errors import RulesError

MESSAGES: Mapping[str, Any] = {
    "qualifiers.round_not_published": _(
        "Qualifiers are confirmed once the round's results are published."),
    "qualifiers.disputes_open": _(
        "%(count)s disputes of this round are open: resolve them before confirming the "
        "qualifiers."),
    "qualifiers.next_round_started": _(
        "%(round)s has started; its entrants can no longer change."),
    "qualifiers.none": _("Nobody qualifies: the round has no ranked results."),
    "qualifiers.not_a_qualifier": _("Entry %(entry)s is not a confirmed qualifier of this "
                                    "round."),
    "qualifiers.already_withdrawn": _("Entry %(entry)s has already withdrawn."),
    "qualifiers.no_replacement": _(
        "Nobody can take the place of entry %(entry)s: no entrant the rules allow is left. "
        "Tick “let it lapse” to record the withdrawal anyway."),
    "qualifiers.not_confirmed": _("Confirm the qualifiers first."),
    "qualifiers.outdated": _(
        "The ranking changed since the qualifiers were confirmed: confirm them again first."),
    "qualifiers.no_next_round": _("The event has no round “%(round)s” for the qualifiers."),
    "qualification.last_round": _(
        "This is the event's last round: nobody qualifies from it."),
}


def error_messages(error: QualifierError | PlanningError | RulesError) -> list[str]:
    """The translated messages of a refusal, whichever layer raised it."""
    if isinstance(error, QualifierError):
        return [_format(error.code, error.message, error.params)]
    if isinstance(error, RulesError):
        return [_about_entry(v.entry, _format(v.code, v.message, {**v.params, "entry": v.entry,
                                                                  "field": v.field})
                             if v.code in MESSAGES else text)
                for v, text in zip(error.violations, messages_of(error), strict=True)]
    return messages_of(error)


def _about_entry(entry: str, text: str) -> str:
    # The engine's result messages leave out whose result it is.
    if not entry:
        return text
    return str(_("Entry %(entry)s: %(problem)s") % {"entry": entry, "problem": text})


def _format(code: str, english: str, params: Mapping[str, Any]) -> str:
    try:
        return str(MESSAGES[code]) % dict(params)
    except (KeyError, TypeError, ValueError):
        return english
