"""Every write of `championships.services` is audited, and one that changes what a public page
shows numbers a live notice, so no spectator, projector or cached snapshot keeps the old page.

The test walks every public function of every service module: each is a write with a scenario
here, or named as a read. A new service must be put in one of the two.
"""

from __future__ import annotations

import datetime as dt
import importlib
import inspect
import pkgutil
import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.test import Client

from puzzlecomp.championships import services
from puzzlecomp.championships.actions import ACTIONS
from puzzlecomp.championships.models import (
    AuditEntry,
    BankTransaction,
    Championship,
    Dispute,
    Entry,
    EntryStatus,
    Event,
    JudgeDevice,
    Membership,
    Notice,
    Person,
    PersonChange,
    ProjectorScene,
    Puzzle,
    Role,
    Round,
    RoundState,
    Seat,
)
from puzzlecomp.championships.selectors.lists import people_table
from puzzlecomp.championships.selectors.payments import entry_reference
from puzzlecomp.championships.selectors.recording import record_target_get
from puzzlecomp.championships.services import (
    archive,
    check_in,
    claims,
    devices,
    disputes,
    entrant_mail,
    exporting,
    facts,
    fairness,
    groups,
    importing,
    interchange,
    payments,
    people,
    person_facts,
    projector,
    qualifiers,
    recording,
    registration,
    relay,
    results,
    results_package,
    rounds,
    seating,
    settings,
    setup,
    standings,
    tiebreakers,
)
from puzzlecomp.championships.services.results import ResultValues
from puzzlecomp.formats.bank.statements import StatementLine
from puzzlecomp.formats.history_csv import read_history
from puzzlecomp.live.snapshot import snapshot_cache_clear
from puzzlecomp.rules.results import Status
from tests.web.test_groups import add_entries
from tests.web.test_registration_organiser import someone

START = dt.datetime(2027, 9, 20, 9, 0, tzinfo=dt.UTC)
# The site's clock: the round runs from here, registration is open.
NOW = dt.datetime(2027, 7, 1, 12, 0, tzinfo=dt.UTC)

# Public functions of the service modules that write nothing a person sees: reads, helpers, and
# the unit of work itself.
# Entries with a result while the round runs.
RUNNING_RESULTS = 20

READS = {
    "entrant_language", "resolution_recipients",  # whom an email goes to, in which language
    "confirmation_link", "entry_number_next", "event_lock", "entrant_link",  # registration
    "pool_label",  # relay
    "unique_slug",  # setup
    "round_model_choice",  # settings
    "group_emails", "groups_assign_preview",  # groups
    "no_show_allowed_at", "seating_assign_preview",  # seating
    "seats_of", "entry_groups_of", "backup_latest", "nothing_to_undo",  # planning_backups
    "result_replayed", "stored_values",  # results
    "values_of",  # disputes
    "next_round_of", "round_qualifiers_get", "cancelled_qualifiers_get",
    "round_qualification_marks",
    "round_qualification_certainty",  # qualifiers
    "import_file_read", "country_code", "import_check",  # importing
    "guard_formula", "table_csv", "table_xlsx",  # exporting
    "one_sqlite_writer",  # sqlite_writer
    "unit_of_work", "action_audit",  # work
    "secret_hash", "section_of", "device_expiry", "device_is_expired", "row_section",
    "device_for_pairing", "device_for_token",  # devices
    "device_overview",  # device_overview
    "values_for", "fresh_puzzles",  # recording
    "invented_name",  # archive
    "claim_link",  # claims
    "claim_entrant_link",  # claims
    "entrant_emails_wanted", "results_published_mail", "result_emails",
    "result_words",  # entrant_mail
    "editable_facts",  # person_facts
}
# Writes of bookkeeping no person reads as a change: not audited, nothing announced.
UNAUDITED = {
    "device_seen",  # a phone's last request, on every request
    # Facts derived again from history inside the writes that change it (group assignment,
    # a round's start, merging people, the archive), which audit and announce.
    "member_facts_derive", "living_facts_derive",
    # A check-in row written inside the writes that audit and announce it (the desk's
    # entry_check_in, seat_no_show).
    "check_in_record",
    # The groups and seats a draw or seating replaces, and putting them back: written inside
    # groups_assign, seating_assign and their undo, which audit and announce.
    "backup_make", "backup_restore",
    # The operator's list of other installations' keys belongs to no championship (the
    # audit log is per championship); `puzzlecomp results trust` prints what it added.
    "trusted_key_add", "trusted_key_remove",
    # Waiting-list offers stored inside the writes that free a place or record a payment,
    # which audit and announce (waiting_offers_settle is its own write, below).
    "places_settle",
}


@dataclass
class World:
    championship: Championship
    event: Event
    first: Round
    entries: list[Entry]
    organiser: object


Scenario = tuple[str, Callable[[World], Callable[[], object]]]


def _finish(rnd: Round, entries: list[Entry]) -> None:
    for n, entry in enumerate(entries):
        results.result_record(round=rnd, entry=entry, status=Status.FINISHED,
                              time_seconds=1800 + 60 * n)


def build(state: str, django_user_model) -> World:
    """A published WJPC championship with 24 individual entries, brought to `state`."""
    organiser = django_user_model.objects.create_user(username="organiser", password="pw-1234567")
    ruleset = {"relay": "czech-blind-relay", "australia": "australia-state"}.get(state,
                                                                                  "wjpc-2025")
    championship = setup.championship_create(ruleset_id=ruleset, name="Walk", starts_at=START,
                                             owner=organiser)
    Championship.objects.filter(pk=championship.pk).update(published=True)
    championship.refresh_from_db()
    if state == "relay":
        event = championship.events.get(code="relay")
        for n in range(9):
            registration.entry_confirm(entry=registration.entry_register(
                event=event, members=[someone(n)]).entry)
        return World(championship, event, event.rounds.first(), [], organiser)
    event = championship.events.get(code="individual")
    if state == "australia":
        return World(championship, event, event.rounds.first(), [], organiser)
    entries = add_entries(event, {"ES": 12, "CZ": 6, "NO": 6}, email="example.org")
    first = event.rounds.get(code="first")
    world = World(championship, event, first, entries, organiser)
    if state == "registration":
        return world
    groups.groups_assign(round=first, seed=1)
    seating.seating_assign(round=first)
    if state == "planned":
        return world
    rounds.round_state_set(round=first, state=RoundState("running"),
                           starts_at=NOW - dt.timedelta(hours=1))
    _finish(first, entries[:RUNNING_RESULTS])
    if state == "running":
        return world
    _finish(first, entries[RUNNING_RESULTS:])
    rounds.round_state_set(round=first, state=RoundState("published"))
    if state == "published":
        return world
    qualifiers.qualifiers_confirm(round=first, knowingly=True)
    return world


def _final_package(world: World) -> str:
    """The world's event made final, as a package signed with a key trusted here."""
    from puzzlecomp.championships.selectors.results_package import installation_public_key

    Round.objects.filter(event=world.event).update(state=RoundState.FINAL)
    results_package.trusted_key_add(public_key=installation_public_key()[0], name="Here")
    return results_package.results_package_issue(championship=world.championship,
                                                 event_code=world.event.code).content


def _tiebreaker_called(world: World) -> None:
    """Two finalists born 1990, everyone else a junior out in the first round, the final final:
    Junior 18 calls its tiebreaker (wjpc-2025.txt, Subcategories (*))."""
    final = world.event.rounds.get(code="final")
    for n, entry in enumerate(world.entries):
        born = dt.date(1990 if n < 2 else 2010, 1, 1)
        Person.objects.filter(entries__entry=entry).update(birth_date=born)
    _finish(final, world.entries[:2])
    rounds.round_state_set(round=final, state=RoundState.FINAL)


def seated_pair(world: World) -> tuple[Entry, Entry]:
    """Two entries at different tables of one group of the first round, both with a result
    once the round runs."""
    seats = Seat.objects.filter(round=world.first).select_related("entry").order_by("table")
    by_group: dict[str, list[Seat]] = {}
    for seat in seats:
        if seat.entry in world.entries[:RUNNING_RESULTS]:
            by_group.setdefault(seat.group, []).append(seat)
    pair = next(s for s in by_group.values() if len(s) > 1 and s[0].table != s[-1].table)
    return pair[0].entry, pair[-1].entry


def device_code(world: World) -> tuple[JudgeDevice, str]:
    """A judge's phone for every table of the hall, and its pairing code."""
    return devices.device_create(championship=world.championship, label="Hall", table_from=1,
                                 table_to=100, user=world.organiser)


def _waiting(world: World) -> Entry:
    """A seated entry of the first round without a result yet."""
    return Seat.objects.filter(round=world.first).exclude(
        entry__results__round=world.first).select_related("entry").first().entry


def _reg(world: World) -> Entry:
    return registration.entry_register(event=world.event, members=[someone(50)]).entry


def _person_of(entry: Entry):
    return entry.members.first().person


def _merged(world: World):
    """A person with two entries' members (two records merged), and one of those members."""
    keep = _person_of(world.entries[0])
    people.person_merge(keep=keep, other=_person_of(world.entries[1]), reason="One person",
                        user=world.organiser)
    return keep, world.entries[1].members.first()


def _claim(world: World, *, confirmed: bool = False):
    """A new registrant's claim to be the first entry's person (who has an email)."""
    known = _person_of(world.entries[0])
    known.email = "known@example.org"
    known.save()
    claim = claims.claim_record(member=_reg(world).members.first(), person=known)
    return claims.claim_registrant_confirm(claim=claim) if confirmed else claim


ARCHIVE_ROWS = ("year,division,round,rank,entrant,country,completed,time_seconds,pieces,"
                "puzzle_pieces,time_limit_seconds,people\n"
                "2023,solo,final,1,E1,Spain,True,3300.0,,500,4500,Pfast\n")


def _norwegian_member():
    championship = setup.championship_create(ruleset_id="norway-nm-2025", name="NM",
                                       starts_at=NOW + dt.timedelta(days=30))
    (entry,) = add_entries(championship.events.get(code="individual"), {"SE": 1})
    return entry.members.select_related("entry__event__championship", "person").first()


def _first_result(world: World) -> tuple[Entry, int]:
    entry = seated_pair(world)[0]
    return entry, entry.results.get(round=world.first).version


def _flagged(world: World) -> tuple[Entry, int]:
    """A waiting entry finished, then counted: flagged for a second look (issue 15)."""
    entry = _waiting(world)
    for action, values in (("tap", ResultValues(status=Status.FINISHED, time_seconds=2500,
                                                checked=False)),
                           ("count", ResultValues(status=Status.UNFINISHED, pieces=300))):
        results.result_submit(round=world.first, entry=entry, action=action, values=values)
    return entry, entry.results.get(round=world.first).version


def _difficulty_shown(world: World) -> Round:
    """The first round with group difficulties on its results page (to be taken off)."""
    Round.objects.filter(pk=world.first.pk).update(group_difficulty=[
        {"group": "A", "entrants": 12, "rated": 6, "percent": 4.2},
        {"group": "B", "entrants": 12, "rated": 6, "percent": -4.0}])
    return Round.objects.get(pk=world.first.pk)


WRITES: dict[str, Scenario] = {
    # registration
    "entry_register": ("registration", lambda w: lambda: _reg(w)),
    "entry_check_in": ("planned", lambda w: lambda: check_in.entry_check_in(
        round=w.first, entry=seated_pair(w)[0], status="late", by=w.organiser)),
    "entry_confirm": ("registration", lambda w: (lambda e: lambda: registration.entry_confirm(
        entry=e))(_reg(w))),
    "entry_payment_record": ("registration", lambda w: lambda: registration.entry_payment_record(
        entry=w.entries[0], amount=__import__("decimal").Decimal("10"), by=w.organiser)),
    "entry_cancel": ("running", lambda w: lambda: registration.entry_cancel(
        entry=seated_pair(w)[0], by=w.organiser)),
    "waiting_list_promote": ("registration", lambda w: (
        add_entries(w.event, {"SE": 1}, status=EntryStatus.WAITING),
        lambda: registration.waiting_list_promote(event=w.event, by=w.organiser))[1]),
    "waiting_offers_settle": ("registration", lambda w: (
        add_entries(w.event, {"SE": 1}, status=EntryStatus.WAITING),
        Championship.objects.filter(pk=w.championship.pk).update(offer_days=3),
        w.championship.refresh_from_db(),
        lambda: registration.waiting_offers_settle(championship=w.championship,
                                                   by=w.organiser))[3]),
    "relay_teams_draw": ("relay", lambda w: lambda: relay.relay_teams_draw(
        event=w.event, by=w.organiser, seed=5)),
    "entries_import": ("registration", lambda w: lambda: importing.entries_import(
        event=w.event, by=w.organiser, rows=[(2, {
            "entry": "", "first_name": "Ola", "last_name": "Nordmann", "nationality": "NO",
            "birth_date": "1990-01-01", "email": "ola@example.org"})])),
    # setting up
    "championship_create": ("registration", lambda w: lambda: setup.championship_create(
        ruleset_id="wjpc-2025", name="Another", starts_at=START, owner=w.organiser)),
    "membership_set": ("registration", lambda w: lambda: setup.membership_set(
        championship=w.championship, by=w.organiser, role=Role.JUDGE,
        user=type(w.organiser).objects.create_user(username="judge"))),
    "membership_add": ("registration", lambda w: lambda: settings.membership_add(
        championship=w.championship, by=w.organiser, identifier="new@example.org",
        role=Role.JUDGE)),
    "membership_change": ("registration", lambda w: (lambda m: lambda: settings.membership_change(
        membership=m, by=w.organiser, role=Role.HEAD_JUDGE))(Membership.objects.create(
            championship=w.championship, role=Role.JUDGE,
            user=type(w.organiser).objects.create_user(username="judge")))),
    "membership_remove": ("registration", lambda w: (lambda m: lambda: settings.membership_remove(
        membership=m, by=w.organiser))(Membership.objects.create(
            championship=w.championship, role=Role.JUDGE,
            user=type(w.organiser).objects.create_user(username="judge")))),
    "championship_update": ("running", lambda w: lambda: settings.championship_update(
        championship=w.championship, by=w.organiser, name="Walk 2027", starts_at=START,
        ends_on=None, venue="Brno", published=True)),
    "championship_settings_set": ("australia", lambda w: lambda: (
        settings.championship_settings_set(championship=w.championship, by=w.organiser,
                                           values={"host_region": "NSW"}))),
    "floor_plan_set": ("running", lambda w: lambda: settings.floor_plan_set(
        championship=w.championship, by=w.organiser, rows=[10, 10], guest_tables=2)),
    "event_update": ("registration", lambda w: lambda: settings.event_update(
        event=w.event, by=w.organiser, capacity=500,
        fee_amount=__import__("decimal").Decimal("40"))),
    "registration_terms_set": ("registration", lambda w: lambda: (
        settings.registration_terms_set(championship=w.championship, by=w.organiser,
                                        opens_at=None, closes_at=NOW + dt.timedelta(days=30),
                                        refund_days_before=14, fee_currency="CHF"))),
    "round_update": ("running", lambda w: lambda: settings.round_update(
        rnd=w.first, by=w.organiser, name="Qualifying", time_limit_minutes=100,
        starts_at=w.first.starts_at, groups=list(w.first.groups))),
    "puzzle_update": ("running", lambda w: lambda: settings.puzzle_update(
        puzzle=Puzzle.objects.filter(round=w.first).first(), by=w.organiser, brand="Ravensburger",
        pieces=500, motif="Lighthouse", picture=True)),
    "entry_models_choose": ("teams", lambda w: lambda: settings.entry_models_choose(
        entry=w.entries[0], rnd=w.first, models=[1, 3], by=w.organiser, now=NOW)),
    # emails to entrants
    "entry_emails_choose": ("published", lambda w: lambda: entrant_mail.entry_emails_choose(
        entry=w.entries[0], wanted=False)),
    "entrant_emails_set": ("registration", lambda w: lambda: entrant_mail.entrant_emails_set(
        championship=w.championship, enabled=False, by=w.organiser)),
    # groups and seating
    "groups_assign": ("registration", lambda w: lambda: groups.groups_assign(
        round=w.first, seed=7)),
    "entry_group_move": ("planned", lambda w: lambda: groups.entry_group_move(
        entry=seated_pair(w)[0], to_group="B", reason="Travels with family", user=w.organiser)),
    "groups_publish": ("planned", lambda w: lambda: groups.groups_publish(round=w.first)),
    "seating_assign": ("planned", lambda w: lambda: seating.seating_assign(round=w.first)),
    "groups_undo": ("planned", lambda w: (groups.groups_assign(round=w.first, seed=9),
                                          lambda: groups.groups_undo(round=w.first,
                                                                     user=w.organiser))[1]),
    "seating_undo": ("planned", lambda w: (seating.seating_assign(round=w.first),
                                           lambda: seating.seating_undo(round=w.first,
                                                                        user=w.organiser))[1]),
    "seating_publish": ("planned", lambda w: lambda: seating.seating_publish(round=w.first)),
    "seats_swap": ("running", lambda w: lambda: seating.seats_swap(
        round=w.first, entry_a=seated_pair(w)[0], entry_b=seated_pair(w)[1],
        user=w.organiser)),
    "seat_no_show": ("running", lambda w: lambda: seating.seat_no_show(
        round=w.first, no_show=seated_pair(w)[1], user=w.organiser,
        replacement=add_entries(w.event, {"SE": 1})[0], at=NOW + dt.timedelta(minutes=15))),
    # running a round
    "result_submit": ("running", lambda w: lambda: results.result_submit(
        round=w.first, entry=seated_pair(w)[1], action="tap",
        values=ResultValues(status=Status.FINISHED, time_seconds=2500, checked=False))),
    "result_record": ("running", lambda w: lambda: results.result_record(
        round=w.first, entry=seated_pair(w)[1], status=Status.FINISHED, time_seconds=2400)),
    "result_correct": ("running", lambda w: (lambda e, v: lambda: disputes.result_correct(
        round=w.first, entry=e, base_version=v, reason="Misread the clock",
        values=ResultValues(status=Status.FINISHED, time_seconds=2222)))(*_first_result(w))),
    "result_looked_at": ("running", lambda w: (lambda e, v: lambda: disputes.result_looked_at(
        round=w.first, entry=e, base_version=v, user=w.organiser))(*_flagged(w))),
    "time_credit_grant": ("running", lambda w: lambda: disputes.time_credit_grant(
        round=w.first, entry=seated_pair(w)[0], seconds=60, reason="Wrong puzzle")),
    "round_state_set": ("planned", lambda w: lambda: rounds.round_state_set(
        round=w.first, state=RoundState("running"), starts_at=NOW)),
    "round_move": ("planned", lambda w: lambda: rounds.round_move(
        round=w.first, to=RoundState("running"), now=NOW)),
    "group_start": ("planned", lambda w: lambda: rounds.group_start(
        round=w.first, group=w.first.groups[0], user=w.organiser, now=NOW)),
    "group_plan": ("planned", lambda w: lambda: rounds.group_plan(
        round=w.first, planned={w.first.groups[0]: START}, user=w.organiser)),
    "round_advance": ("running", lambda w: lambda: rounds.round_advance(
        w.first, now=NOW + dt.timedelta(hours=5))),
    "dispute_file": ("published", lambda w: lambda: disputes.dispute_file(
        entry=w.entries[0], round=w.first, text="My time was 29:00")),
    "dispute_resolve": ("published", lambda w: (lambda d: lambda: disputes.dispute_resolve(
        dispute=d, uphold=False, resolution="Video checked", user=w.organiser))(
            Dispute.objects.create(round=w.first, entry=w.entries[0], text="Too slow?"))),
    "qualifiers_confirm": ("published", lambda w: lambda: qualifiers.qualifiers_confirm(
        round=w.first, knowingly=True)),
    "qualifier_withdraw": ("qualified", lambda w: lambda: qualifiers.qualifier_withdraw(
        round=w.first, lapse=True, entry_number=w.first.qualifiers.first().entry.number)),
    "group_difficulty_publish": ("published", lambda w: (lambda r: lambda: (
        fairness.group_difficulty_publish(round=r, publish=False, user=w.organiser)))(
            _difficulty_shown(w))),
    "next_round_create": ("qualified", lambda w: lambda: qualifiers.next_round_create(
        round=w.first)),
    # people across championships and the archive
    "member_fact_override": ("running", lambda w: lambda: facts.member_fact_override(
        member=w.entries[0].members.first(), fact="debutant", value=False,
        reason="Competed in 2019", user=w.organiser)),
    # The facts a ruleset declares (Norway's years of residence), on a Norwegian entry.
    "member_person_facts_set": ("running", lambda w: (lambda m: lambda: (
        person_facts.member_person_facts_set(member=m, values={"years_resident": 10},
                                             reason="Lives in Oslo since 2015",
                                             user=w.organiser)))(_norwegian_member())),
    "person_merge": ("running", lambda w: lambda: people.person_merge(
        keep=_person_of(w.entries[0]), other=_person_of(w.entries[1]), reason="One person",
        user=w.organiser)),
    "person_split": ("running", lambda w: (lambda p, m: lambda: people.person_split(
        person=p, members=[m], reason="Namesakes", user=w.organiser))(*_merged(w))),
    "person_merge_undo": ("running", lambda w: (lambda _p, m: lambda: people.person_merge_undo(
        change=PersonChange.objects.get(person=_p), reason="Two people after all",
        user=w.organiser))(*_merged(w))),
    "claim_record": ("registration", lambda w: (lambda m: lambda: claims.claim_record(
        member=m, person=_person_of(w.entries[0])))(_reg(w).members.first())),
    "claim_propose": ("registration", lambda w: (lambda m: lambda: claims.claim_propose(
        member=m, person=_person_of(w.entries[0]), reason="Looks like her",
        user=w.organiser))(_reg(w).members.first())),
    "claim_registrant_confirm": ("registration", lambda w: (
        lambda c: lambda: claims.claim_registrant_confirm(claim=c))(_claim(w))),
    "claim_owner_confirm": ("registration", lambda w: (
        lambda c: lambda: claims.claim_owner_confirm(claim=c))(_claim(w, confirmed=True))),
    "claim_approve": ("registration", lambda w: (lambda c: lambda: claims.claim_approve(
        claim=c, reason="Passport seen", user=w.organiser))(_claim(w, confirmed=True))),
    "archive_import": ("registration", lambda w: lambda: archive.archive_import(
        rows=read_history(ARCHIVE_ROWS, source="history.csv"), source="history.csv",
        ruleset_id="wjpc-2025", slug_prefix="wjpc", title="WJPC")),
    "championship_archive": ("published", lambda w: (
        Round.objects.filter(event__championship=w.championship).update(state=RoundState.FINAL),
        lambda: archive.championship_archive(championship=w.championship,
                                             user=w.organiser))[1]),
    # the hall's projectors
    "projector_scene_set": ("running", lambda w: lambda: projector.projector_scene_set(
        championship=w.championship, scene=ProjectorScene.MESSAGE, round=None,
        message="Lunch until 13:00", user=w.organiser)),
    # standings and awards
    "event_standings_publish": ("published", lambda w: lambda: (
        standings.event_standings_publish(
            event=w.event, published=True, user=w.organiser,
            knowingly=w.event.rounds.exclude(state="final").count()))),
    "tiebreaker_round_create": ("published", lambda w: (_tiebreaker_called(w), lambda: (
        tiebreakers.tiebreaker_round_create(event=w.event, category="junior-18",
                                            user=w.organiser)))[1]),
    # judges' phones
    "device_create": ("planned", lambda w: lambda: device_code(w)),
    "pairing_code_issue": ("planned", lambda w: (lambda d: lambda: devices.pairing_code_issue(
        device=d, user=w.organiser))(device_code(w)[0])),
    "device_pair": ("planned", lambda w: (lambda code: lambda: devices.device_pair(
        championship=w.championship, code=code))(device_code(w)[1])),
    "device_pair_for_row": ("planned", lambda w: lambda: devices.device_pair_for_row(
        championship=w.championship, table=1, user=w.organiser)),
    "device_revoke": ("planned", lambda w: (lambda d: lambda: devices.device_revoke(
        device=d, user=w.organiser))(device_code(w)[0])),
    "judge_result_submit": ("running", lambda w: (lambda d, e: lambda: (
        recording.judge_result_submit(
            device=d, target=record_target_get(d, round_id=w.first.pk, entry_number=e.number),
            entry_number=e.number, client_id="phone-1",
            base_version=0, write=recording.JudgeWrite(recording.Action.TAP,
                                                       time_seconds=3000))))(
        device_code(w)[0], _waiting(w))),
    # files
    "championship_export": ("running", lambda w: lambda: interchange.championship_export(
        w.championship, by=w.organiser)),
    "championship_import": ("running", lambda w: (lambda data: lambda: (
        interchange.championship_import(data, slug="copy", user=w.organiser)))(
            interchange.championship_export(w.championship))),
    "package_archive_import": ("running", lambda w: (lambda content: lambda: (
        results_package.package_archive_import(content, slug="archived-copy")))(
            _final_package(w))),
    "results_package_issue": ("running", lambda w: lambda: (
        results_package.results_package_issue(championship=w.championship, user=w.organiser))),
    "table_export": ("registration", lambda w: lambda: exporting.table_export(
        championship=w.championship, fmt="csv", by=w.organiser,
        table=people_table(championship=w.championship, private=True))),
    # payments
    "payment_account_set": ("registration", lambda w: lambda: payments.payment_account_set(
        championship=w.championship, by=w.organiser,
        details=payments.AccountDetails(holder="Org", iban="ES9121000418450200051332"))),
    "statement_import": ("registration", lambda w: lambda: payments.statement_import(
        championship=w.championship, lines=_statement(w), source="s.xml", by=w.organiser)),
    "bank_line_assign": ("registration", lambda w: (lambda t: lambda: payments.bank_line_assign(
        transaction=t, entry=w.entries[0], reason="paid by a friend", by=w.organiser))(
            _unknown_line(w))),
    "bank_line_resolve": ("registration", lambda w: (lambda t: lambda: (
        payments.bank_line_resolve(transaction=t, reason="not ours", by=w.organiser)))(
            _unknown_line(w))),
    "payout_account_set": ("registration", lambda w: lambda: payments.payout_account_set(
        entry=w.entries[0], holder="Ana", iban="DE89370400440532013000")),
    "payouts_export": ("registration", lambda w: lambda: payments.payouts_export(
        championship=w.championship, kind="refund", fmt="csv", by=w.organiser)),
}


def _statement(world: World) -> list[StatementLine]:
    """A statement paying the first entry by its reference, and a line nobody can place."""
    entry = world.entries[0]
    return [StatementLine(1, "T-1", None, entry.fee_amount or Decimal(60), "EUR",
                          entry_reference(entry)),
            StatementLine(2, "T-2", None, Decimal(7), "EUR", "", "Nobody")]


def _unknown_line(world: World) -> BankTransaction:
    payments.statement_import(championship=world.championship, lines=_statement(world),
                              source="s.xml", by=world.organiser)
    return BankTransaction.objects.get(transaction_id="T-2")


def service_functions() -> dict[str, str]:
    """Every public function defined in a module of championships.services, by name."""
    found = {}
    for info in pkgutil.iter_modules(services.__path__):
        module = importlib.import_module(f"{services.__name__}.{info.name}")
        for name, value in vars(module).items():
            if (inspect.isfunction(value) and value.__module__ == module.__name__
                    and not name.startswith("_")):
                found[name] = module.__name__
    return found


def test_every_service_function_is_a_write_with_a_scenario_or_a_read():
    functions = service_functions()
    unknown = sorted(set(functions) - set(WRITES) - READS - UNAUDITED)
    assert unknown == [], "add a scenario to WRITES or name it in READS"
    assert sorted((set(WRITES) | READS | UNAUDITED) - set(functions)) == []


NONCE = re.compile(rb'(nonce|csrfmiddlewaretoken|value)="[^"]*"')


def public_view(championship: Championship) -> dict[str, bytes]:
    """What the public pages and the public API show now, built afresh (no cached tables)."""
    snapshot_cache_clear()
    cache.clear()
    client = Client()
    slug = championship.slug
    urls = [f"/c/{slug}/", f"/c/{slug}/results/", f"/api/v1/championships/{slug}"]
    for rnd in Round.objects.filter(event__championship=championship):
        urls += [f"/c/{slug}/results/{rnd.pk}/",
                 f"/api/v1/championships/{slug}/rounds/{rnd.pk}/ranking"]
    for event_code, number in Entry.objects.filter(event__championship=championship).values_list(
            "event__code", "number"):
        urls.append(f"/api/v1/championships/{slug}/entries/{event_code}/{number}")
    return {url: NONCE.sub(b"", client.get(url).content) for url in urls}


@pytest.mark.parametrize("name", sorted(WRITES))
def test_a_write_audits_and_a_public_change_is_announced(name, db, django_user_model,
                                                          monkeypatch):
    from django.utils import timezone

    monkeypatch.setattr(timezone, "now", lambda: NOW)
    state, scenario = WRITES[name]
    world = build("registration" if state == "teams" else state, django_user_model)
    if state == "teams":
        world.event = world.championship.events.get(code="teams")
        world.first = world.event.rounds.get(code="first")
        world.entries = add_entries(world.event, {"CZ": 2}, size=4)
    write = scenario(world)
    audited, seq = AuditEntry.objects.count(), _seq(world)
    before = public_view(world.championship)
    write()
    after = public_view(world.championship)
    new = AuditEntry.objects.order_by("pk")[audited:]
    assert new, f"{name} wrote no audit entry"
    assert all(a.action in ACTIONS for a in new)
    changed = sorted(url for url in before if before[url] != after.get(url))
    if changed:
        assert _seq(world) > seq, f"{name} changed {changed} and announced nothing"
        assert Notice.objects.filter(championship=world.championship, seq__gt=seq).exists()


def _seq(world: World) -> int:
    return Championship.objects.get(pk=world.championship.pk).live_seq
