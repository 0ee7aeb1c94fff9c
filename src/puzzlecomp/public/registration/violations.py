"""The rules engine's registration codes as translated sentences for people."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _

from puzzlecomp.rules.errors import RuleViolation

MESSAGES: Mapping[str, Any] = {
    "registration.not_open_yet": _("Registration for %(event)s opens on %(opens)s."),
    "registration.closed": _("Registration for %(event)s closed on %(closes)s."),
    "registration.full": _("%(event)s is full (%(capacity)s places) and keeps no waiting list."),
    "registration.team_size": _("An entry in %(event)s has %(members_min)s to %(members_max)s "
                                "members, not %(size)s."),
    "registration.drawn_teams_only": _("Teams in %(event)s are drawn by the organiser: each "
                                       "person registers alone."),
    "registration.too_young_alone": _("%(person)s is %(age)s in the competition year: alone "
                                      "only from %(alone_from)s; younger people enter in a pair "
                                      "or team with an adult."),
    "registration.needs_adult_member": _("%(person)s is %(age)s in the competition year and "
                                         "needs a member aged %(adult_from)s or over in the "
                                         "same entry."),
    "registration.needs_accompanying_adult": _("%(person)s is %(age)s in the competition year: "
                                               "under %(accompanied_below)s only when "
                                               "accompanied by an adult."),
    "registration.same_person_twice": _("%(person)s appears twice in this entry."),
    "registration.already_entered": _("%(person)s already has an entry in %(event)s: each "
                                      "person may enter an event once."),
    "registration.nationality_not_chosen": _("%(person)s holds %(nationalities)s and must "
                                             "choose the one they represent."),
    "registration.nationality_not_held": _("%(person)s chose to represent %(chosen)s, which is "
                                           "not one of their nationalities."),
    "registration.nationality_fixed": _("%(person)s represented %(earlier_choice)s before and "
                                        "must keep that nationality."),
    "refund.not_in_rulebook": _("The rulebook grants no refund on cancellation; the organiser "
                                "decides."),
    "refund.too_late": _("No refund: a refund needs a cancellation by %(last_day)s "
                         "(%(days_before)s days before the start)."),
    "payment.not_positive": _("A payment must be more than zero."),
    "entry.cancelled": _("Entry %(number)s is cancelled."),
    "waiting_list.empty": _("Nobody is on the waiting list of %(event)s."),
    "waiting_list.no_place": _("No place is free: %(taken)s of %(capacity)s places are taken "
                               "and entry %(number)s needs %(needed)s."),
    "relay.not_drawn": _("%(event)s has no drawn teams."),
}


def violation_message(violation: RuleViolation, **context: Any) -> str:
    """The translated sentence for a violation, or the engine's English message if none fits."""
    template = MESSAGES.get(violation.code)
    if template is None:
        return violation.message
    params = {key: _display(value) for key, value in {**context, **violation.params}.items()}
    try:
        return str(template) % params
    except (KeyError, TypeError, ValueError):
        return violation.message


def _display(value: Any) -> Any:
    if isinstance(value, dt.datetime):
        return formats.date_format(timezone.localtime(value), "DATETIME_FORMAT")
    if isinstance(value, dt.date):
        return formats.date_format(value, "DATE_FORMAT")
    if isinstance(value, tuple | list):
        return ", ".join(str(v) for v in value)
    return formats.localize(value)
