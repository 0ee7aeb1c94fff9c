"""Translated messages for the codes the planning code and the engine raise."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from puzzlecomp.planning import PlanningError
from puzzlecomp.rules.errors import RulesError
from puzzlecomp.web.messages import translated

MESSAGES: Mapping[str, Any] = {
    "floor_plan.invalid_rows": _("The hall has no rows of tables yet: set them up first."),
    "floor_plan.invalid_guest_tables": _(
        "Guest tables must be between 0 and %(table_count)s, not %(guest_tables)s."),
    "floor_plan.too_large": _("The hall holds at most %(rows)s rows of %(tables_per_row)s "
                              "tables, %(tables)s tables in all."),
    "floor_plan.unknown_table": _("Table %(table)s is not in the hall (tables 1 to "
                                  "%(table_count)s)."),
    "groups.no_groups": _("The round has no groups."),
    "groups.duplicate_entry": _("Each entry may appear once; repeated: %(repeated)s."),
    "groups.not_first_round": _("Groups are assigned in an event's first round only."),
    "groups.round_started": _("The round has started; its groups can no longer change."),
    "groups.already_published": _(
        "The groups are published; move entries one by one instead."),
    "groups.reason_required": _("Say why entry %(entry)s changes group."),
    "groups.unknown_group": _("The round has no group “%(group)s”."),
    "groups.entry_not_confirmed": _("Entry %(entry)s is not confirmed."),
    "groups.same_group": _("Entry %(entry)s is already in group %(group)s."),
    "groups.not_assigned": _("Assign the groups before publishing them."),
    "groups.unknown_entry": _("There is no entry %(entry)s in this event."),
    "seating.not_assigned": _("Seat the entries before publishing the seating."),
    "seating.not_enough_tables": _(
        "Seating needs %(needed)s tables; the hall has %(available)s competition tables."),
    "seating.unknown_entry": _("Entry %(entry)s has no seat in this round."),
    "seating.same_entry": _("Entry %(entry)s cannot replace itself."),
    "seating.empty_group": _("Group %(group)s has no entries to seat."),
    "seating.different_groups": _(
        "Entries %(entry)s and %(other)s are in different groups, which sit in the hall at "
        "different times."),
    "seating.no_show_not_in_rules": _(
        "The ruleset does not let the organiser give away missing entrants' tables."),
    "seating.round_not_started": _("The round has no start time yet."),
    "seating.no_show_too_early": _(
        "Too early: a missing entrant's table may be given away %(minutes)s minutes after the "
        "start of the round, from %(time)s."),
    "seating.replacement_not_eligible": _(
        "Entry %(entry)s is not a confirmed or waiting-list entry of this event."),
    "seating.previous_round_without_results": _(
        "The previous round has no results yet, so its qualifiers are not known."),
}


def message_of(code: str, english: str, params: Mapping[str, Any]) -> str:
    """The translated message of a code, or the engine's English one when it has none."""
    return translated(MESSAGES, code, english, params)


def messages_of(error: PlanningError | RulesError) -> list[str]:
    if isinstance(error, PlanningError):
        return [message_of(error.code, error.message, error.params)]
    return [message_of(v.code, v.message, {**v.params, "entry": v.entry, "field": v.field})
            for v in error.violations]
