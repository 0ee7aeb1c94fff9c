"""Translated messages for the refusals of the head judge's screens."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from puzzlecomp.public.disputes.messages import messages_of as dispute_messages_of
from puzzlecomp.rules.errors import RulesError

LIVE_MESSAGES: Mapping[str, Any] = {
    "round.state_order": _("The round cannot make this move from its present state."),
    "round.dispute_window_open": _(
        "Competitors may dispute these results until %(ends)s; the results become final "
        "after that."),
    "round.disputes_open": _(
        "%(count)s disputes are still open: resolve them before the results become final."),
    "result.reason_required": _("Say why (the reason is kept in the entry's history)."),
    "result.round_final": _("The round's results are final and are no longer corrected."),
    "result.entry_not_in_event": _("Entry %(entry)s is not in this event."),
    "result.finish_past_limit": _("The finish is past the entry's limit."),
    "result.credit_above_time": _("The time credit is more than the recorded time."),
    "result.finish_without_time": _("A finished result needs its time."),
    "result.unfinished_without_count": _(
        "A result that is not finished needs the pieces placed or remaining."),
    "result.pieces_and_remaining": _("Give the pieces placed or remaining, not both."),
    "result.count_without_unfinished": _(
        "This result takes no time or count; choose finished or not finished."),
    "result.finish_at_zero": _("A finish at 0:00:00 is not a time: check the time."),
    "result.puzzle_out_of_order": _(
        "A puzzle holds pieces while a puzzle before it is not finished."),
    "result.puzzles_at_once": _(
        "One puzzle is on the table at a time: another unfinished puzzle already holds pieces."),
    "result.unfinished_all_finished": _(
        "Every puzzle has a finish time, so the result is finished."),
    "result.unfinished_with_time": _("A result that is not finished has no finish time."),
    "result.puzzle_before_previous": _(
        "A puzzle cannot be finished before the puzzle it follows."),
    "result.status_not_in_ruleset": _("This ruleset has no %(status)s results."),
    "tiebreaker.not_called": _(
        "Entry %(entry)s is not one of the entrants called to the %(category)s tiebreaker."),
    "tiebreaker.not_needed": _(
        "The %(category)s subcategory needs no tiebreaker: its finalists fill its prizes."),
    "person.value_unknown": _("'%(value)s' is not one of %(allowed)s"),
    "entry.members_count": _(
        "Entry %(entry)s lists %(members)s members; the event takes %(members_min)s to "
        "%(members_max)s."),
}


def messages_of(error: RulesError) -> list[str]:
    return dispute_messages_of(error, LIVE_MESSAGES)
