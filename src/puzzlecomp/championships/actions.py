"""Every audited action, declared once: its code, what the audit log says of it, and the live
notice it sends when it changes what a public page shows.

Services name an action from here when they open a unit of work (`services.work`); nothing else
spells an action's code.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

# The kinds of live notice; spectators reload the round it names (every round when none).
RESULT = "result"
CREDIT = "credit"
DISPUTE = "dispute"
STATE = "state"
QUALIFIERS = "qualifiers"
SEATING = "seating"
GROUPS = "groups"
ROUND = "round"
ENTRIES = "entries"
CHAMPIONSHIP = "championship"
STANDINGS = "standings"
# The hall projectors' scene: only the hall projector page follows it (results pages ignore it).
SCENE = "scene"
CHECK_IN = "check_in"


@dataclass(frozen=True)
class Action:
    """An audited action: `code` names it in the log; `message` (with %(name)s of its data)
    says it to a person; `notice` is the live notice it sends (None: no public page changes)."""

    code: str
    message: Promise
    notice: str | None = None

    def __str__(self) -> str:
        return self.code


ACTIONS: dict[str, Action] = {}


def _declare(code: str, message: Promise, notice: str | None = None) -> Action:
    assert code not in ACTIONS, code
    ACTIONS[code] = action = Action(code, message, notice)
    return action


# Setting up
CHAMPIONSHIP_CREATED = _declare("puzzlecomp.championship.created",
                                _("Championship created under ruleset %(ruleset)s"))
CHAMPIONSHIP_IMPORTED = _declare("puzzlecomp.championship.imported",
                                 _("Championship imported from %(source_slug)s"))
CHAMPIONSHIP_CHANGED = _declare("puzzlecomp.championship.changed",
                                _("Championship details changed"), CHAMPIONSHIP)
SETTINGS_CHANGED = _declare("puzzlecomp.championship.settings_changed",
                            _("Championship settings changed"), CHAMPIONSHIP)
FLOOR_PLAN_CHANGED = _declare("puzzlecomp.championship.floor_plan_changed",
                              _("Floor plan changed"), CHAMPIONSHIP)
EVENT_CHANGED = _declare("puzzlecomp.event.changed", _("Event %(event)s changed"),
                         CHAMPIONSHIP)
ROUND_CHANGED = _declare("puzzlecomp.round.changed", _("Round %(code)s of %(event)s changed"),
                         ROUND)
PUZZLE_CHANGED = _declare("puzzlecomp.puzzle.changed",
                          _("Puzzle of round %(code)s of %(event)s changed"), ROUND)
REGISTRATION_TERMS_CHANGED = _declare("puzzlecomp.championship.registration_terms_changed",
                                      _("Registration terms changed"), CHAMPIONSHIP)
ENTRANT_EMAILS_SET = _declare("puzzlecomp.championship.entrant_emails_set",
                              _("Emails of results and rulings to entrants: %(enabled)s"))
MODELS_CHOSEN = _declare("puzzlecomp.entry.models_chosen",
                         _("Entry %(entry)s chose models %(models)s"))
MEMBERSHIP_SET = _declare("puzzlecomp.membership.set", _("%(username)s given a role"))
MEMBERSHIP_REMOVED = _declare("puzzlecomp.membership.removed",
                              _("%(username)s no longer has a role"))

# Registration
ENTRY_REGISTERED = _declare("puzzlecomp.entry.registered",
                            _("Entry %(number)s registered in %(event)s"), ENTRIES)
ENTRY_CONFIRMED = _declare("puzzlecomp.entry.confirmed",
                           _("Entry %(number)s of %(event)s confirmed its email"), ENTRIES)
PAYMENT_RECORDED = _declare("puzzlecomp.entry.payment_recorded",
                            _("Payment of %(amount)s recorded for entry %(number)s"))
ENTRY_CANCELLED = _declare("puzzlecomp.entry.cancelled",
                           _("Entry %(number)s of %(event)s cancelled"), ENTRIES)
ENTRY_PROMOTED = _declare("puzzlecomp.entry.promoted",
                          _("Entry %(number)s of %(event)s promoted from the waiting list"),
                          ENTRIES)
OFFERS_SETTLED = _declare("puzzlecomp.entry.offers_settled",
                          _("Waiting-list offers settled: %(changes)s"), ENTRIES)
ENTRIES_IMPORTED = _declare("puzzlecomp.entries.imported",
                            _("%(entries)s entries imported into %(event)s"), ENTRIES)
ENTRY_EMAILS_CHOSEN = _declare("puzzlecomp.entry.emails_chosen",
                               _("Entry %(entry)s of %(event)s chose emails of its results: "
                                 "%(wanted)s"))
RELAY_DRAWN = _declare("puzzlecomp.relay.drawn",
                       _("Relay teams of %(event)s drawn with seed %(seed)s"), ENTRIES)
PAYMENT_ACCOUNT_SET = _declare("puzzlecomp.payments.account_set",
                               _("Bank account for payments set: %(holder)s"))
STATEMENT_IMPORTED = _declare("puzzlecomp.payments.statement_imported",
                              _("Bank statement %(source)s imported: %(paying)s of %(lines)s "
                                "lines pay entries"))
BANK_LINE_ASSIGNED = _declare("puzzlecomp.payments.line_assigned",
                              _("Bank transaction %(transaction)s assigned to entry %(number)s "
                                "of %(event)s: %(reason)s"))
PAYOUT_ACCOUNT_SET = _declare("puzzlecomp.payments.payout_account_set",
                              _("Entry %(number)s of %(event)s gave its account for refunds and "
                                "prize money"))
PAYOUTS_EXPORTED = _declare("puzzlecomp.payments.payouts_exported",
                            _("%(kind)s transfers downloaded as %(format)s: %(count)s"))
BANK_LINE_RESOLVED = _declare("puzzlecomp.payments.line_resolved",
                              _("Bank transaction %(transaction)s taken off the queue: "
                                "%(reason)s"))

# Groups and seating
GROUPS_ASSIGNED = _declare("puzzlecomp.groups.assigned",
                           _("Groups of %(event)s assigned with seed %(seed)s"), GROUPS)
GROUP_MOVED = _declare("puzzlecomp.entry.group_moved",
                       _("Entry %(entry)s moved from group %(from_group)s to %(to_group)s"),
                       GROUPS)
GROUPS_UNDONE = _declare("puzzlecomp.groups.undone",
                        _("Group draw of %(event)s with seed %(seed)s undone: %(entries)s entries "
                          "back in their previous group"), GROUPS)
GROUPS_PUBLISHED = _declare("puzzlecomp.groups.published",
                            _("Groups published, %(emails)s emails sent"), GROUPS)
SEATING_ASSIGNED = _declare("puzzlecomp.seating.assigned", _("%(seats)s entries seated"),
                            SEATING)
SEATING_UNDONE = _declare("puzzlecomp.seating.undone",
                         _("Seating undone: %(entries)s entries back at their previous table"),
                         SEATING)
SEATING_PUBLISHED = _declare("puzzlecomp.seating.published",
                              _("Seating published, %(seats)s seats"), SEATING)
SEATS_SWAPPED = _declare("puzzlecomp.seating.swapped", _("Seats swapped in group %(group)s"),
                         SEATING)
NO_SHOW_REPLACED = _declare("puzzlecomp.seating.no_show",
                            _("Table %(table)s of entry %(entry)s, who did not show up, given "
                              "to entry %(replacement)s"), SEATING)
CHECK_IN_RECORDED = _declare("puzzlecomp.check_in.recorded",
                             _("Entry %(entry)s checked in as %(status)s"), CHECK_IN)

# Running a round
RESULT_RECORDED = _declare("puzzlecomp.result.recorded",
                           _("Result of entry %(entry)s recorded (version %(version)s)"), RESULT)
TIME_CREDIT_GRANTED = _declare("puzzlecomp.result.time_credit",
                               _("Entry %(entry)s granted %(seconds)s seconds of time credit"),
                               CREDIT)
RESULT_LOOKED_AT = _declare("puzzlecomp.result.looked_at",
                            _("Result of entry %(entry)s looked at again and kept "
                              "(%(reasons)s)"))
ROUND_COUNTING = _declare("puzzlecomp.round.counting",
                          _("Round reached its time limit: counting"), STATE)
ROUND_STATE_SET = _declare("puzzlecomp.round.state_set", _("Round moved to %(state)s"), STATE)
GROUP_STARTED = _declare("puzzlecomp.round.group_started", _("Group %(group)s started"), STATE)
GROUPS_PLANNED = _declare("puzzlecomp.round.groups_planned",
                          _("Planned starts of the groups set"), STATE)
DISPUTE_FILED = _declare("puzzlecomp.dispute.filed", _("Entry %(entry)s filed a dispute"),
                         DISPUTE)
DISPUTE_RESOLVED = _declare("puzzlecomp.dispute.resolved",
                            _("Dispute of entry %(entry)s resolved: %(status)s"), DISPUTE)
QUALIFIERS_CONFIRMED = _declare("puzzlecomp.qualifiers.confirmed",
                                _("%(qualifiers)s qualifiers confirmed"), QUALIFIERS)
QUALIFIER_WITHDRAWN = _declare("puzzlecomp.qualifier.withdrawn",
                               _("Qualifier %(entry)s withdrew"), QUALIFIERS)
GROUP_DIFFICULTY_SET = _declare("puzzlecomp.round.group_difficulty",
                                _("Group difficulty published with the results: %(published)s"),
                                RESULT)
NEXT_ROUND_CREATED = _declare("puzzlecomp.round.next_created",
                              _("Next round created with %(seats)s seats"), SEATING)
PROJECTOR_SCENE_SET = _declare("puzzlecomp.projector.scene_set",
                               _("Hall projectors switched to %(scene)s"), SCENE)

# Standings and awards
STANDINGS_PUBLISHED = _declare("puzzlecomp.event.standings_published",
                               _("Standings of %(event)s published: %(published)s"), STANDINGS)
# A subcategory tiebreaker held as a round of its own (branch prizes).
TIEBREAKER_ROUND_CREATED = _declare("puzzlecomp.round.tiebreaker_created",
                                    _("Tiebreaker round %(code)s created with %(seats)s seats"),
                                    SEATING)

# People across championships and the archive
FACT_OVERRIDDEN = _declare("puzzlecomp.fact.overridden",
                           _("Fact %(fact)s of entry %(entry)s set by hand: %(reason)s"), ENTRIES)
PERSON_MERGED = _declare("puzzlecomp.person.merged",
                         _("Two records of person %(person)s merged: %(reason)s"), ENTRIES)
PERSON_SPLIT = _declare("puzzlecomp.person.split",
                        _("Person %(person)s split in two: %(reason)s"), ENTRIES)
PERSON_CLAIMED = _declare("puzzlecomp.person.claimed",
                          _("Entry %(number)s said a member is known person %(person)s"))
CLAIM_APPROVED = _declare("puzzlecomp.person.claim_approved",
                          _("Claim to be person %(person)s confirmed by %(by)s"), ENTRIES)
# Person facts a ruleset declares, corrected by an organiser (services/person_facts.py).
PERSON_FACTS_SET = _declare("puzzlecomp.person.facts_set",
                            _("Person facts of entry %(entry)s set by hand: %(reason)s"), ENTRIES)
ARCHIVE_IMPORTED = _declare("puzzlecomp.archive.imported",
                            _("Archived from published results (%(results)s results)"))
ARCHIVE_ADDED = _declare("puzzlecomp.archive.added", _("Championship put into the archive"),
                         CHAMPIONSHIP)

# Judges' devices and downloads (nothing public changes)
DEVICE_CREATED = _declare("puzzlecomp.device.created", _("Judge device %(label)s created"))
DEVICE_CODE_ISSUED = _declare("puzzlecomp.device.code_issued",
                              _("New pairing code issued for a judge device"))
DEVICE_PAIRED = _declare("puzzlecomp.device.paired", _("Judge device %(label)s paired"))
DEVICE_REVOKED = _declare("puzzlecomp.device.revoked", _("Judge device %(label)s revoked"))
CHAMPIONSHIP_DOWNLOADED = _declare("puzzlecomp.export.championship_downloaded",
                                   _("Championship file downloaded (%(people)s people)"))
PRIVATE_DOWNLOADED = _declare("puzzlecomp.export.private_downloaded",
                              _("Private list %(table)s downloaded"))
RESULTS_PACKAGE_ISSUED = _declare("puzzlecomp.export.results_package_issued",
                                  _("Results package issued (%(list_status)s)"))


def action_message(code: str, data: Mapping[str, Any]) -> str:
    """What an audit entry says, in the active language; its code when the action is unknown
    (an entry written by an older version)."""
    action = ACTIONS.get(code)
    if action is None:
        return code
    return str(action.message) % _Shown({k: _shown(v) for k, v in data.items()})


class _Shown(dict[str, Any]):
    """An entry's data for its message; a value the entry lacks shows as a dash."""

    def __missing__(self, key: str) -> str:
        return "-"


def _shown(value: Any) -> Any:
    return ", ".join(map(str, value)) if isinstance(value, list | tuple) else value
