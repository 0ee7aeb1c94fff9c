"""The judge's screen's words, translated on the server and handed to judge.js as JSON."""

from __future__ import annotations

from collections.abc import Callable

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

# The plural form of en, cs, nb and es is the same for every count from 5 up (and for 0 as 5).
PLURAL_SAMPLES = range(6)


def _plural(text: Callable[[int], str]) -> list[str]:
    """A text's plural forms for the counts 0 to 5; judge.js takes the form of min(count, 5)."""
    return [text(count) for count in PLURAL_SAMPLES]


def screen_labels() -> dict[str, str | list[str]]:
    """Every text judge.js shows; `%(name)s` placeholders are filled in by the script."""
    return {
        "time": _("TIME"),
        "time_again": _("Tap again"),
        "check": _("Check"),
        "count": _("Count"),
        "dsq": _("Disqualify"),
        "later": _("Later"),
        "cancel": _("Cancel"),
        "open_puzzle": _("Open puzzle %(puzzle)s"),
        "open_puzzles": _("Open puzzles %(puzzles)s"),
        "puzzle": _("Puzzle %(puzzle)s"),
        "pieces_of": _plural(lambda n: ngettext(
            "%(count)s piece",
            "%(count)s pieces", n)),
        "table": _("Table %(table)s"),
        "group": _("Group %(group)s"),
        "no_rounds": _("No round is running. This screen fills in when the head judge starts "
                       "one."),
        "no_tables": _("Nobody is seated at this phone's tables in this round."),
        "no_show": _("no-show"),
        "elapsed": _("Elapsed"),
        "left": _("Left"),
        # The clock's face when it shows no countdown (rules/round_life.py ClockShows).
        "time_limit": _("Time limit"),
        "ended_at": _("Ended at"),
        "time_zone": timezone.get_current_timezone_name(),
        "state_planned": _("Not started"),
        "state_running": _("Running"),
        "state_counting": _("Time is up: count the unfinished puzzles"),
        "state_provisional": _("Provisional results"),
        "assembling": _("Assembling"),
        "locked": _("Not open yet"),
        "to_count": _("To count"),
        "to_check": _("Finished %(time)s: check it"),
        "verified": _("Finished %(time)s, checked"),
        "verified_missing": _("Finished %(time)s, checked, %(missing)s missing"),
        "counted": _plural(lambda n: ngettext(
            "Counted: %(count)s piece placed",
            "Counted: %(count)s pieces placed", n)),
        "counted_remaining": _plural(lambda n: ngettext(
            "Counted: %(count)s piece left",
            "Counted: %(count)s pieces left", n)),
        "disqualified": _("Disqualified: %(reason)s"),
        "status_other": _("Recorded: %(status)s"),
        "waiting_mark": _("waiting to send"),
        "held_mark": _("needs your decision (above)"),
        "sync_sent": _("All sent"),
        # The outbox counts entrants: a finish and its check are two records of one entrant.
        "sync_waiting": _plural(lambda n: ngettext(
            "%(count)s entrant waiting to send",
            "%(count)s entrants waiting to send", n)),
        "sync_offline": _plural(lambda n: ngettext(
            "Offline: %(count)s entrant waiting to send",
            "Offline: %(count)s entrants waiting to send", n)),
        "sync_retrying": _plural(lambda n: ngettext(
            "Server not answering: %(count)s entrant waiting, trying again",
            "Server not answering: %(count)s entrants waiting, trying again", n)),
        "sync_offline_none": _("Offline: nothing waiting"),
        "sync_attention": _plural(lambda n: ngettext(
            "%(count)s entrant needs your decision",
            "%(count)s entrants need your decision", n)),
        "sync_revoked": _("This phone can no longer send: %(reason)s"),
        "check_title": _("Check entry %(entry)s"),
        "show_time": _("Show this time to the competitor."),
        "missing": _("Missing pieces"),
        "contiguous": _("Of these, in adjacent clusters"),
        "found": _("Of these, found elsewhere (bag, floor)"),
        "complete": _("The puzzle is complete and every piece correctly placed"),
        "complete_missing": _plural(lambda n: ngettext(
            "Every placed piece is correctly placed and exactly %(count)s piece is missing",
            "Every placed piece is correctly placed and exactly %(count)s pieces are missing", n)),
        "correct_check": _("Correct the missing pieces"),
        "confirmed": _("The competitor confirmed the time shown"),
        "verify": _("Checked: record it"),
        "wrong_piece": _("Wrong piece: not finished"),
        "wrong_piece_help": _("Under these rules a wrongly placed piece means the puzzle is not "
                              "finished: count it."),
        "not_complete": _("Not complete: the competitor goes on"),
        "count_title": _("Count entry %(entry)s"),
        "piles": _("Piles of 10"),
        "loose": _("Loose pieces"),
        "remaining_total": _("%(remaining)s left, %(placed)s placed"),
        "pieces_placed": _("Pieces placed (groups of 3 or more)"),
        "count_placed_instead": _("Count placed pieces instead"),
        "count_piles_instead": _("Count the pieces left in piles of 10 instead"),
        "save_count": _("Record the count"),
        "dsq_title": _("Disqualify entry %(entry)s"),
        "reason": _("Reason"),
        "reason_required": _("Give the reason."),
        "conflict_title": _("Entry %(entry)s changed on another device"),
        "conflict_mine": _("Yours"),
        "conflict_theirs": _("Stored now"),
        "keep_theirs": _("Keep theirs"),
        "send_mine": _("Send mine again"),
        "refused_title": _("Entry %(entry)s: not recorded"),
        "dismiss": _("Dismiss"),
        "nothing": _("nothing yet"),
        "action_tap": _("time %(time)s"),
        "action_verify": _("check, %(missing)s missing"),
        "action_verify_wrong": _("wrong piece, counted"),
        "action_count": _("count"),
        "action_dsq": _("disqualification"),
        "action_authorise": _("open puzzle %(puzzle)s"),
        # The screen without the network (judge-offline.js, docs/judging.md).
        "app_plain_http": _("This connection is not secure (plain HTTP), so the phone cannot "
                            "keep this screen: opening it again needs the network. Do not "
                            "reload or leave this page while records wait."),
        "app_not_kept": _("The phone could not keep this screen for use without the network "
                          "(%(reason)s): opening it again needs the network. Keep this page "
                          "open while records wait."),
        "app_updating": _("A new version of this screen is being kept on the phone."),
        "app_restored": _plural(lambda n: ngettext(
            "The phone's storage was cleared while %(count)s record waited: this page put it "
            "back. Keep the page open until it is sent.",
            "The phone's storage was cleared while %(count)s records waited: this page put "
            "them back. Keep the page open until they are sent.", n)),
        "app_storage": _("The phone's storage does not work (%(reason)s): after a reload "
                         "without the network this screen may show older data."),
        "unkept_title": _("Entry %(entry)s: not sent"),
        "unkept_text": _("the phone could not keep this record (%(reason)s). It is not sent "
                         "yet: keep this page open, the phone keeps trying."),
        "unkept_mark": _("not sent (above)"),
        "sync_unkept": _plural(lambda n: ngettext(
            "%(count)s entrant not sent: the phone's storage failed",
            "%(count)s entrants not sent: the phone's storage failed", n)),
        "reason_quota": _("its storage is full"),
        "reason_unavailable": _("its storage is not available"),
        "reason_certificate": _("it does not trust this connection's certificate"),
        "reason_refused": _("the browser refused it"),
        "unkept_spare_text": _("the phone's storage refused this record (%(reason)s), so it is "
                               "kept in its spare storage: it survives a reload and is sent as "
                               "soon as the network is there."),
    }


def unpaired_labels() -> dict[str, str | list[str]]:
    """The words of judge-unpaired.js: records still waiting on a phone that is not paired."""
    return {
        "waiting_here": _plural(lambda n: ngettext(
            "%(count)s record is still waiting on this phone: it is sent once the phone is "
            "paired again for this championship. Do not clear the phone's storage.",
            "%(count)s records are still waiting on this phone: they are sent once the phone "
            "is paired again for this championship. Do not clear the phone's storage.", n)),
    }
