"""Every error code the engine, the planning code and the services raise, as a sentence for
people; and a posted form's errors as messages.

The one catalog from code to message: every screen, download and API answer that shows a
refusal takes its words from here (tests/test_error_messages.py checks that every code raised in
the source has a message, translated in every catalog). It sits in the Django app that every
audience (control, public, judging, api) and `live` may import; the engine below it returns
codes and English only.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any, Protocol

from django.contrib import messages
from django.forms import BaseForm
from django.http import HttpRequest
from django.utils import formats, timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from puzzlecomp.championships.ruleset_texts import ruleset_text
from puzzlecomp.rules.errors import RulesError, RuleViolation

MESSAGES: Mapping[str, Promise] = {
    # The rulesets and the round's rules (rules/loading.py, rules/rounds.py, ...).
    "ruleset.unknown": _("There is no ruleset “%(ruleset)s”."),
    "ruleset.syntax": _("The ruleset file %(file)s is not valid TOML."),
    "ruleset.invalid": _("The ruleset file %(file)s is not valid at “%(field)s”."),
    "event.unknown": _("The ruleset has no event “%(event)s”."),
    "round.unknown": _("The event has no round “%(round)s”."),
    "round.time_limit_invalid": _("The time limit must be more than zero."),
    "round.pieces_invalid": _("The number of pieces must be more than zero."),
    "round.time_limit_required": _(
        "The ruleset names no time limit for this round: set the round's time limit first."),
    "round.pieces_required": _(
        "The ruleset names no puzzle size for this round: set the round's pieces first."),
    "category.unknown": _("The event has no category “%(category)s”."),
    "award.no_official_ranking": _(
        "An award is for the official ranking only, but the ruleset defines no official "
        "ranking."),
    "tiebreaker.not_called": _(
        "Entry %(entry)s is not one of the entrants called to the %(category)s tiebreaker."),
    "tiebreaker.not_needed": _(
        "The %(category)s subcategory needs no tiebreaker: its finalists fill its prizes."),
    "relay.no_rotation": _("This part of the relay does not rotate."),
    "relay.members": _("A relay part needs as many members as it has puzzles."),
    "relay.not_drawn": _("%(event)s has no drawn teams."),
    # The round's life cycle (services/rounds.py).
    "round.state_order": _("The round cannot make this move from its present state."),
    "round.dispute_window_open": _(
        "Competitors may dispute these results until %(ends)s; the results become final "
        "after that."),
    "round.disputes_open": _(
        "%(count)s disputes are still open: resolve them before the results become final."),
    "round.group_unknown": _("The round has no group %(group)s."),
    "round.group_started": _("Group %(group)s has already started."),
    "round.group_playing": _(
        "Group %(group)s is still at the tables: the next group starts once its time is up."),
    "round.not_live": _("The round is %(state)s: phones record results while it is running, "
                        "counting or provisional."),
    # What a round lacks before it may start (rules/round_life.py, round_readiness).
    "round.no_entrants": _(
        "The round has no entrants yet: confirm the entries, or the previous round's "
        "qualifiers."),
    "round.groups_missing": _(
        "%(count)s entrants have no group yet: assign the groups under Groups and seating."),
    "round.seats_missing": _(
        "%(count)s entrants have no table yet: seat the groups under Groups and seating."),
    "round.blank_group": _("A group label cannot be blank."),
    "round.repeated_group": _("Each group may appear once; repeated: %(repeated)s."),
    "event.blank_name": _("An event needs a name."),
    # Results (rules/scoring.py, services/results.py, services/recording.py).
    "entry.duplicate": _("Entry %(entry)s appears twice."),
    "result.negative": _("Times, counts and credits cannot be negative."),
    "result.puzzle_count": _("The result does not give every puzzle of the round."),
    "result.reason_required": _("Say why (the reason is kept in the entry's history)."),
    "result.round_final": _("The round's results are final and are no longer corrected."),
    "result.entry_not_in_event": _("Entry %(entry)s is not in this event."),
    "result.not_seated": _("Entry %(entry)s has no seat in this round."),
    # Group fairness after a round (services/fairness.py).
    "fairness.results_not_published": _(
        "The group difficulty is published with the results: publish the round's results "
        "first."),
    "fairness.nothing_to_compare": _(
        "No two groups have enough entrants with earlier results to compare their puzzles."),
    # Reasons for a second look at a recorded result (rules/plausibility.py): never refusals.
    "second_look.faster_than_record": _(
        "%(time)s is more than %(percent)s %% faster than the record (%(record)s)."),
    "second_look.same_as_table": _(
        "Table %(table)s (entry %(other)s) has the same time %(time)s and the same missing "
        "pieces (%(missing)s)."),
    "second_look.count_after_finish": _(
        "Counted, but recorded as finished at %(time)s before."),
    "result.finish_past_limit": _("That finish is past the entry's time limit; count the "
                                  "pieces instead."),
    "result.credit_above_time": _("The time credit is more than the recorded time."),
    "result.credit_in_final": _(
        "The event's final round gives no time credits: the finishes in the hall decide it."),
    "result.finish_without_time": _("A finished result needs its time."),
    "result.unfinished_without_count": _(
        "A result that is not finished needs the pieces placed or remaining."),
    "result.pieces_and_remaining": _("Give the pieces placed or remaining, not both."),
    "result.count_without_unfinished": _(
        "This result takes no time or count; choose finished or not finished."),
    "result.time_in_future": _("That time is later than the round's clock: check the phone's "
                               "clock and tap again."),
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
        "A puzzle is finished at least %(gap)s s after the puzzle it follows: it starts only "
        "once that one is checked."),
    "result.pieces_above_size": _("The count is more than the puzzle's pieces."),
    "result.contiguous_above_missing": _("More pieces in adjacent clusters than missing."),
    "result.found_above_missing": _("More pieces found elsewhere than missing."),
    "result.contiguous_single": _("An adjacent cluster has at least two pieces."),
    "result.missing_above_size": _("More pieces missing than the puzzle has."),
    "result.finish_at_zero": _("A finish at 0:00:00 is not a time: check the time."),
    "result.puzzle_out_of_order": _(
        "A puzzle holds pieces while a puzzle before it is not finished."),
    "result.puzzles_at_once": _(
        "One puzzle is on the table at a time: another unfinished puzzle already holds pieces."),
    "result.unfinished_all_finished": _(
        "Every puzzle has a finish time, so the result is finished."),
    "result.unfinished_with_time": _("A result that is not finished has no finish time."),
    "result.status_not_in_ruleset": _("This ruleset has no %(status)s results."),
    # Entries of a results file (rules/facts.py).
    "entry.members_count": _(
        "Entry %(entry)s lists %(members)s members; the event takes %(members_min)s to "
        "%(members_max)s."),
    "person.value_unknown": _("'%(value)s' is not one of %(allowed)s"),
    "result.client_id_reused": _("This record's id was used for another entry."),
    "result.version_conflict": _("Someone else changed this result: choose which one stays."),
    # Judges' phones (services/devices.py).
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
    # Disputes (services/disputes.py).
    "dispute.no_result": _("There is no result of yours in this round to dispute."),
    "dispute.round_not_published": _(
        "Disputes are filed on published results; this round's results are not published."),
    "dispute.window_closed": _("Disputes of this round closed at %(ends)s."),
    "dispute.text_required": _("Say what is wrong with your result."),
    "dispute.already_open": _(
        "You already have an open dispute of this round; the head judge will answer it."),
    "dispute.already_resolved": _("Dispute #%(dispute)s is already resolved."),
    "dispute.already_filed": _(
        "You disputed this result already (dispute #%(dispute)s) and the head judge answered "
        "it; a result is disputed once."),
    "dispute.resolution_required": _("Say how the dispute was resolved."),
    "dispute.correction_needs_uphold": _(
        "A rejected dispute leaves the result as it is: uphold it to correct the result."),
    # The hall, groups and seating (planning/, services/groups.py, services/seating.py).
    "floor_plan.invalid_rows": _("Every row of the hall needs at least one table."),
    "floor_plan.invalid_guest_tables": _(
        "Guest tables must be between 0 and %(table_count)s, not %(guest_tables)s."),
    "floor_plan.too_large": _("The hall holds at most %(rows)s rows of %(tables_per_row)s "
                              "tables, %(tables)s tables in all."),
    "floor_plan.unknown_table": _("Table %(table)s is not in the hall (tables 1 to "
                                  "%(table_count)s)."),
    "groups.no_groups": _("The round has no groups."),
    "groups.duplicate_entry": _("Each entry may appear once; repeated: %(repeated)s."),
    "groups.duplicate_group": _("Each group may appear once; repeated: %(repeated)s."),
    "groups.unknown_merge_group": _("Merges name groups that do not exist: %(groups)s."),
    "groups.group_merged_twice": _("A group may be merged once; repeated: %(repeated)s."),
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
    "seating.invalid_settings": _(
        "Seats per table must be at least 1 and solo entries per group at least 0."),
    "seating.duplicate_entry": _("Each entry may appear once; repeated: %(repeated)s."),
    "seating.seat_taken": _("Each seat may be taken once; repeated: %(repeated)s."),
    "seating.not_enough_tables": _(
        "Seating needs %(needed)s tables; the hall has %(available)s competition tables."),
    "seating.unknown_entry": _("Entry %(entry)s has no seat in this round."),
    "seating.not_assigned": _("Seat the entries before publishing the seating."),
    "seating.same_entry": _("Entry %(entry)s cannot replace itself."),
    "seating.empty_group": _("Group %(group)s has no entries to seat."),
    "seating.round_started": _(
        "The round has started; its seating can no longer be redone or undone."),
    "planning.nothing_to_undo": _(
        "There is nothing to undo: no new draw or seating replaced an earlier one."),
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
    # The organiser's registration terms and fees (services/settings.py).
    "fee.early_incomplete": _("An early price needs both its amount and its last day."),
    "fee.regular_missing": _("An early price needs a regular price too."),
    "fee.early_above_regular": _("The early price is above the regular price."),
    "fee.currency_invalid": _(
        "A currency is a three-letter code such as EUR or CZK, not “%(currency)s”."),
    "registration.window_backwards": _("Registration must close after it opens."),
    # The check-in desk (rules/check_in.py, services/check_in.py).
    "check_in.status_unknown": _("“%(status)s” is not a check-in status."),
    "check_in.not_in_round": _("Entry %(entry)s is not expected in this round."),
    "check_in.already_replaced": _("Entry %(entry)s's table has already been given away."),
    "check_in.shown_up": _(
        "Entry %(entry)s has checked in: only an entrant who has not shown up may be "
        "replaced."),
    "team_draw.invalid_team_size": _("A team needs at least one member, not %(team_size)s."),
    "team_draw.duplicate_person": _("Each person may appear once; repeated: %(repeated)s."),
    # Qualification (rules/qualification.py, services/qualifiers.py).
    "qualification.last_round": _(
        "This is the event's last round: nobody qualifies from it."),
    "qualification.not_a_qualifier": _("Entry %(entry)s is not a qualifier."),
    "qualification.group_unknown": _(
        "A group of this round has no group to go to in the next round."),
    "qualification.quota_without_official_ranking": _(
        "The ruleset gives quotas but no official ranking to decide them."),
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
    "qualifiers.offer_changed": _(
        "The offer changed since the page was loaded: entry %(replacement)s now takes the "
        "place of entry %(entry)s. Nothing was changed; look at the new offer and give the "
        "place again."),
    "qualifiers.offer_changed_to_lapse": _(
        "The offer changed since the page was loaded: nobody the rules allow is left to take "
        "the place of entry %(entry)s. Nothing was changed; look at the new offer."),
    # Registration, fees and the waiting list (rules/registration.py, rules/fees.py, ...).
    "registration.not_open_yet": _("Registration for %(event)s opens on %(opens)s."),
    "registration.closed": _("Registration for %(event)s closed on %(closes)s."),
    "registration.full": _("%(event)s is full (%(capacity)s places) and keeps no waiting list."),
    "registration.team_size": _("An entry in %(event)s has %(members_min)s to %(members_max)s "
                                "members, not %(size)s."),
    "registration.drawn_teams_only": _("Teams in %(event)s are drawn by the organiser: each "
                                       "person registers alone."),
    "registration.too_young_alone": _("%(person)s is %(age)s on %(day)s: alone only from "
                                      "%(alone_from)s; younger people enter in a pair or team "
                                      "with an adult."),
    "registration.needs_adult_member": _("%(person)s is %(age)s on %(day)s and needs a member "
                                         "aged %(adult_from)s or over in the same entry."),
    "registration.needs_accompanying_adult": _("%(person)s is %(age)s on %(day)s: under "
                                               "%(accompanied_below)s only when accompanied by "
                                               "an adult."),
    "registration.same_person_twice": _("%(person)s appears twice in this entry."),
    "registration.already_entered": _("%(person)s already has an entry in %(event)s: each "
                                      "person may enter an event once."),
    "registration.nationality_not_chosen": _("%(person)s holds %(nationalities)s and must "
                                             "choose the one they represent."),
    "registration.nationality_not_held": _("%(person)s chose to represent %(chosen)s, which is "
                                           "not one of their nationalities."),
    "registration.nationality_fixed": _("%(person)s represented %(earlier_choice)s before and "
                                        "must keep that nationality."),
    "registration.email_shared": _("This is the email of %(other)s: %(person)s needs an "
                                   "address of their own (a child too, not a parent's)."),
    "refund.not_in_rulebook": _("The rulebook grants no refund on cancellation; the organiser "
                                "decides."),
    "refund.too_late": _("No refund: a refund needs a cancellation by %(last_day)s "
                         "(%(days_before)s days before the start)."),
    "payment.not_positive": _("A payment must be more than zero."),
    "entry.cancelled": _("Entry %(number)s is cancelled."),
    "waiting_list.empty": _("Nobody is on the waiting list of %(event)s."),
    "payments.iban_invalid": _("The IBAN %(iban)s is not valid: %(problem)s"),
    "payments.bic_invalid": _("The BIC %(bic)s is not valid: %(problem)s"),
    "payments.local_account_invalid": _(
        "The Czech account number %(account)s is not valid: write it as "
        "prefix-number/bank code, e.g. 19-2000145399/0800."),
    "payments.bsb_invalid": _("A BSB is six digits, e.g. 062-000."),
    "payments.no_account": _("Give an IBAN, a Czech account number, or a BSB and account "
                             "number."),
    "payments.line_decided": _("This bank transaction is off the queue already."),
    "payments.entry_not_open": _("Entry %(number)s is cancelled: it takes no payment."),
    "payments.payout_account_missing": _("Give an IBAN, or your account as your bank writes "
                                         "it."),
    "waiting_list.no_place": _("No place is free: %(taken)s of %(capacity)s places are taken "
                               "and entry %(number)s needs %(needed)s."),
    # The organiser's setup (services/settings.py).
    "championship.ends_before_start": _("The championship cannot end before it starts."),
    "setting.unknown": _("The ruleset has no setting %(setting)s; it has: %(known)s."),
    "setting.value_unknown": _("The setting %(setting)s takes %(allowed)s, not %(value)s."),
    "setting.required": _("The ruleset needs the setting %(setting)s."),
    "models.not_offered": _("Teams choose no models in this round."),
    "models.wrong_event": _("Entry %(entry)s is not in this event."),
    "models.round_started": _("The round has started: the chosen models cannot change."),
    "models.bad_choice": _("Choose %(count)s different models from 1 to %(offered)s."),
    "membership.ambiguous": _("Several accounts use %(identifier)s: give the username."),
    "membership.unknown_user": _(
        "No account is called %(identifier)s: give an email address to invite someone new."),
    "membership.exists": _("%(identifier)s already has a role here."),
    "membership.last_owner": _(
        "The championship needs an owner: make someone else owner first."),
    # Importing entries (services/importing.py): the row, entry and field are named before it.
    "import.unknown_format": _("Upload a .csv or .xlsx file."),
    "import.unreadable": _("The file cannot be read as %(kind)s."),
    "import.missing_column": _("the header has no %(column)s column"),
    "import.empty": _("The file has no rows below the header."),
    "import.too_many_rows": _("The file has %(count)s rows; at most %(max)s at once."),
    "import.sheet_too_large": _("The sheet is too large: at most %(rows)s rows and "
                                "%(columns)s columns."),
    "import.blank": _("is blank"),
    "import.too_long": _("is longer than %(max)s characters"),
    "import.unknown_country": _("'%(value)s' is not a country"),
    "import.not_a_date": _("'%(value)s' is not a date (YYYY-MM-DD)"),
    "import.not_a_number": _("'%(value)s' is not a whole number"),
    "import.not_yes_no": _("'%(value)s' is not yes or no"),
    "import.unknown_value": _("'%(value)s' is not one of %(allowed)s"),
    "import.bad_email": _("'%(value)s' is not an email address"),
    "import.entry_blank": _("pairs and teams need an entry key to group their members"),
    "import.position_twice": _("position %(position)s is used twice in entry %(entry_key)s"),
    "import.member_count": _(
        "entry %(entry_key)s has %(count)s members; %(event)s needs %(min)s to %(max)s"),
    "import.already_entered": _("%(value)s already has an entry in this event"),
    "import.email_twice": _("%(value)s is also in entry %(other)s"),
    # Facts from history and people across championships (services/facts.py, people.py).
    "facts.unknown": _("That is not a fact from history."),
    "facts.reason_missing": _("The fact was not changed: give a reason."),
    "people.reason_missing": _("Nothing was changed: give a reason."),
    "people.same_person": _("A person cannot be merged with themselves."),
    "people.same_entry": _("Both records are members of one entry: they are two people."),
    "people.not_their_entries": _("Choose some, not all, of this person's entries."),
    "people.not_a_merge": _("Only a merge can be undone."),
    "people.merge_undone": _("This merge is undone already."),
    # Who may change a person, and claims of "is this you?" (issue 22).
    "people.not_offered": _("Nothing was changed: that person was not offered for this member."),
    "people.not_yours": _(
        "Nothing was changed: this person competed in a championship you do not organise."),
    "people.archive_kept": _(
        "Nothing was changed: a person with a history in the archive keeps their record; merge "
        "the other record into theirs."),
    "claims.decided": _("This claim is decided already."),
    "claims.staff_approves": _(
        "Nothing was changed: an organiser's own link is approved by the staff, or by the "
        "known person's email."),
    # Values past the domain's bounds (rules/limits.py, championships/bounds.py).
    "payment.too_large": _(
        "Not recorded: the entry would have paid %(paid)s in all; at most %(max)s."),
    "fee.too_large": _("A fee is at most %(max)s."),
    "name.line_break": _("A name is one line: remove the line break."),
    "import.too_large": _("'%(value)s' is more than %(max)s"),
    # Records that say two things at once (rules/contradictions.py).
    "result.finished_with_count": _(
        "A finished puzzle has its time, not a count: remove the count, or choose not "
        "finished."),
    "result.missing_without_finish": _(
        "Missing pieces are noted at a finish only: a %(status)s result or puzzle has none."),
    "result.puzzles_with_status": _(
        "A %(status)s result holds no per-puzzle times or counts."),
    "result.time_disagrees": _(
        "The time %(time)s is not the last puzzle's finish (%(last)s): the last finish is "
        "the entry's time."),
    "result.count_disagrees": _(
        "The count %(count)s is not the puzzles' total (%(total)s placed): the puzzles' counts "
        "are the entry's count."),
    # Guards before steps that cannot be taken back quietly (rules/guards.py).
    "guard.results_missing": _(
        "%(count)s seated entrants have no result: %(entrants)s. Tick that you know to go on "
        "without them."),
    "guard.dispute_window_open": _(
        "Competitors may dispute this round's results until %(ends)s: a ruling may still "
        "change who qualifies. Tick that you know to confirm now."),
    "guard.dispute_window_changed": _(
        "The dispute window changed since the page was loaded: competitors may now dispute "
        "this round's results until %(ends)s. Nothing was confirmed; tick again to confirm "
        "now."),
    "guard.event_not_final": _(
        "%(count)s rounds of the event are not final (%(rounds)s): the standings and awards "
        "may still change. Tick that you know to publish now."),
    "guard.groups_not_started": _(
        "%(count)s groups have not started (%(groups)s): stopping assembly now ends their "
        "round too. Tick that you know to stop now."),
    # Person facts corrected by an organiser, and the championship's time zone (official).
    "person_facts.not_declared": _("The rules of this championship do not ask for %(fact)s."),
    "person_facts.bad_value": _("'%(value)s' is not a value of %(fact)s."),
    "championship.time_zone_unknown": _("%(zone)s is not a time zone."),
    # Prizes, tiebreakers, maxima, settings and inputs (branch prizes).
    "setting.twice": _("The setting %(setting)s is given twice, as %(first)s and as %(second)s; "
                       "give it once."),
    # Second looks by the round's difficulty (issue 30, rules/plausibility.py).
    "second_look.faster_than_expected": _(
        "%(time)s is more than %(percent)s %% faster than expected from this entrant's "
        "earlier results at this group's pace (%(expected)s)."),
    "second_look.ahead_of_group": _(
        "%(time)s is more than %(percent)s %% faster than every other finish of the group "
        "(the next is %(next)s)."),
    "import.birth_date_implausible": _(
        "'%(value)s' is not a plausible birth date for a championship starting on %(start)s"),
    # Text that must be one plain line (rules/limits.py): no tab, no control character.
    "name.control_character": _(
        "A name is one line of plain text: remove the tab or control character."),
    "import.control_character": _(
        "holds a line break, a tab or another control character: type it as plain text"),
    # Time credits bounded by the round's limit (branch fixrules).
    "result.credit_too_large": _(
        "A time credit is at most the round's time limit, %(max)s seconds."),
}

# How a result's status reads on the screens.
STATUS_LABELS: Mapping[str, Promise] = {
    "finished": _("finished"),
    "unfinished": _("not finished: pieces counted"),
    "dnf": _("did not finish"),
    "dsq": _("disqualified"),
    "dns": _("did not start"),
    "assisted": _("helped to finish: no time recorded"),
    "outside_help": _("outside help: no time"),
}


class Refusal(Protocol):
    """A refusal raised with one code: planning, setup, qualifier, device and import errors."""

    @property
    def code(self) -> str: ...

    @property
    def message(self) -> str: ...

    @property
    def params(self) -> Mapping[str, Any]: ...


# Parameters that carry an event's or a round's name (the ruleset's words, or the organiser's).
_RULESET_NAMED = ("event", "round")


def message_of(code: str, english: str, params: Mapping[str, Any]) -> str:
    """The message of `code` in the reader's language with its parameters filled in; `english`
    (the message raised with the code) when the catalog's template does not fit."""
    template = MESSAGES.get(code)
    if template is None:
        return english
    try:
        return str(template) % {name: _display(name, value) for name, value in params.items()}
    except (KeyError, TypeError, ValueError):
        return english


def violation_message(violation: RuleViolation, *, name_entry: bool = False,
                      **context: Any) -> str:
    """The message of one broken rule; `context` gives what the screen knows (the event's
    name). With `name_entry`, a message that does not name its entry is preceded by it."""
    params = {**context, **violation.params, "entry": violation.entry, "field": violation.field}
    text = message_of(violation.code, violation.message, params)
    if not name_entry or not violation.entry or "%(entry)s" in str(MESSAGES.get(violation.code)):
        return text
    return str(_("Entry %(entry)s: %(problem)s") % {"entry": violation.entry, "problem": text})


def messages_of(error: RulesError | Refusal, *, name_entry: bool = False,
                **context: Any) -> list[str]:
    """The messages of a refusal, whichever layer raised it."""
    if isinstance(error, RulesError):
        return [violation_message(v, name_entry=name_entry, **context) for v in error.violations]
    return [message_of(error.code, error.message, {**context, **error.params})]


def _display(name: str, value: Any) -> Any:
    """A parameter as the reader writes it: dates in their language and time zone, an event's
    or round's name in their language."""
    if name in _RULESET_NAMED and isinstance(value, str):
        return ruleset_text(value)
    if name == "rounds" and isinstance(value, tuple | list):
        return ", ".join(ruleset_text(str(v)) for v in value)
    if isinstance(value, dt.datetime):
        return formats.date_format(timezone.localtime(value), "DATETIME_FORMAT")
    if isinstance(value, dt.date):
        return formats.date_format(value, "DATE_FORMAT")
    if isinstance(value, tuple | list):
        return ", ".join(str(v) for v in value)
    return value


def form_errors_to_messages(request: HttpRequest, form: BaseForm) -> None:
    """A posted form's errors as messages for the page it redirects to ("Label: error")."""
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        for error in errors:
            messages.error(request, f"{label}: {error}" if label else error)
