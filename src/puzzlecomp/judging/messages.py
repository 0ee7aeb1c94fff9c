"""Translated messages for the codes a judge's phone meets (device refusals and result rules)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from puzzlecomp.web.messages import translated

MESSAGES: Mapping[str, Any] = {
    "device.unknown": _("This phone is not paired (or its pairing moved to another phone)."),
    "device.revoked": _("The head judge revoked this phone's pairing."),
    "device.expired": _("This phone's pairing expired after the championship."),
    "device.pairing_invalid": _(
        "This pairing code does not work: it was used already, replaced, revoked or expired."),
    "device.entry_not_in_section": _("Entry %(entry)s is not seated at this phone's tables."),
    "device.no_row": _("The hall's floor plan does not show table %(table)s."),
    "device.tables_invalid": _("The tables run from a table number up to a larger one."),
    "device.tables_outside_hall": _("The hall has tables 1 to %(table_count)s."),
    "device.championship_over": _("The championship is over: a device would expire at once."),
    "round.not_live": _("The round is %(state)s: phones record results while it is running, "
                        "counting or provisional."),
    "result.time_in_future": _("That time is later than the round's clock: check the phone's "
                               "clock and tap again."),
    "result.finish_past_limit": _("That finish is past the entry's time limit; count the "
                                  "pieces instead."),
    "result.finish_without_time": _("A tap needs its time."),
    "result.already_checked": _("The result is checked already: the head judge corrects it "
                                "with a reason."),
    "result.verify_without_finish": _("There is no finish to check: tap the time first."),
    "result.check_missing": _("Say whether the puzzle is complete and every piece correctly "
                              "placed."),
    "result.not_confirmed": _("The competitor confirms the time shown before the finish is "
                              "checked."),
    "result.not_complete": _("Under these rules an incomplete puzzle is not a finish: let the "
                             "competitor go on and tap the time again."),
    "result.dsq_without_reason": _("A disqualification needs its reason."),
    "result.puzzle_unknown": _("Choose the puzzle."),
    "result.single_puzzle": _("The round has one puzzle: nothing to open."),
    "result.puzzle_open_already": _("This puzzle is open already."),
    "result.previous_puzzle_unchecked": _(
        "The puzzles before it must be finished and checked first."),
    "result.puzzle_not_open": _("This puzzle is not open yet: check the previous one and "
                                "authorise it first."),
    "result.puzzle_before_previous": _(
        "A puzzle cannot be finished before the puzzle it follows."),
    "result.unfinished_without_count": _("A count needs the pieces placed or the pieces left."),
    "result.finish_at_zero": _("A finish at 0:00:00 is not a time: check the time."),
    "result.puzzle_out_of_order": _(
        "A puzzle holds pieces while a puzzle before it is not finished."),
    "result.puzzles_at_once": _(
        "One puzzle is on the table at a time: another unfinished puzzle already holds pieces."),
    "result.unfinished_all_finished": _(
        "Every puzzle has a finish time, so the result is finished."),
    "result.unfinished_with_time": _("A result that is not finished has no finish time."),
    "result.pieces_and_remaining": _("Give the pieces placed or the pieces left, not both."),
    "result.pieces_above_size": _("The count is more than the puzzle's pieces."),
    "result.contiguous_above_missing": _("More pieces in adjacent clusters than missing."),
    "result.found_above_missing": _("More pieces found elsewhere than missing."),
    "result.contiguous_single": _("An adjacent cluster has at least two pieces."),
    "result.missing_above_size": _("More pieces missing than the puzzle has."),
    "result.client_id_reused": _("This record's id was used for another entry."),
    "result.version_conflict": _("Someone else changed this result: choose which one stays."),
}


def message_of(code: str, english: str, params: Mapping[str, Any]) -> str:
    """The translated message of a code, or the English one when it has none."""
    return translated(MESSAGES, code, english, params)
