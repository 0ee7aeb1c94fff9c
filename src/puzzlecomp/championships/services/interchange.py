"""A whole championship to and from the interchange file (formats.interchange, docs/interchange.md).

Export reads everything an organiser needs to carry on elsewhere; import checks the whole file
first and then writes it in one transaction, so a bad file imports nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email, validate_slug
from django.db import transaction
from django.db.models import Model
from django.utils import timezone
from django_countries import countries

from puzzlecomp import __version__
from puzzlecomp.championships.actions import CHAMPIONSHIP_DOWNLOADED, CHAMPIONSHIP_IMPORTED
from puzzlecomp.championships.engine import engine_result
from puzzlecomp.championships.models import (
    AuditEntry,
    BankTransaction,
    Championship,
    CheckIn,
    Dispute,
    Entry,
    EntryMember,
    Event,
    FactOverride,
    GroupDraw,
    GroupMove,
    GroupStart,
    ImportedPackage,
    JudgeDevice,
    Membership,
    ModelChoice,
    Notice,
    PackageResult,
    PaymentAccount,
    PayoutAccount,
    Person,
    PersonChange,
    PersonClaim,
    PlanningBackup,
    Puzzle,
    Qualifier,
    RelayDraw,
    Result,
    ResultChange,
    ResultsPackage,
    Role,
    Round,
    Seat,
    TimeCreditGrant,
    TrustedKey,
)
from puzzlecomp.championships.services.archive import living_facts_derive
from puzzlecomp.championships.services.work import action_audit, unit_of_work
from puzzlecomp.championships.time_zones import default_time_zone
from puzzlecomp.formats.interchange import (
    FORMAT,
    VERSION,
    BankTransactionData,
    ChampionshipData,
    ChampionshipFile,
    CheckInData,
    DisputeData,
    EntryData,
    EventData,
    FactOverrideData,
    GroupDifficultyData,
    GroupDrawData,
    GroupMoveData,
    GroupStartData,
    InterchangeError,
    InterchangeProblem,
    MemberData,
    ModelChoiceData,
    PaymentAccountData,
    PayoutAccountData,
    PersonData,
    PuzzleData,
    QualifierData,
    RelayDrawData,
    RelayTeamData,
    ResultData,
    RoundData,
    SeatData,
    TimeCreditData,
    championship_file_data,
    problem,
    read_championship_file,
    result_violation,
    settings_problems,
)
from puzzlecomp.rules.credits import time_credit_refusal
from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.limits import MAX_SECONDS
from puzzlecomp.rules.loading import load_ruleset
from puzzlecomp.rules.rounds import RoundRules, find_round, resolve_round
from puzzlecomp.rules.scoring import score_result
from puzzlecomp.rules.settings import championship_settings

BATCH = 500
SLUG_LENGTH = Championship._meta.get_field("slug").max_length

# The tables the championship file deliberately leaves behind, each with its reason; every
# other model of the app is carried (tests/web/test_every_table_carried.py walks them all).
LEFT_OUT: dict[type[Model], str] = {
    Membership: "users and their roles belong to the installation: the importing user becomes "
                "the owner and invites the others again",
    AuditEntry: "the audit log records what happened at the installation where it happened",
    JudgeDevice: "judges' devices and their tokens work only at the installation that paired "
                 "them",
    ResultChange: "the history of every result write names users and devices of the "
                  "installation; each result carries its version",
    Notice: "live notice numbers only order the updates spectators of this installation saw",
    PlanningBackup: "the undo of a group draw or seating names users and is only for undoing "
                    "at the installation; the draws and seats in force are carried",
    PersonChange: "the trail of merges and splits of this installation's person records "
                  "(names users); the people as they are now are carried",
    PersonClaim: "a registrant's pending \"this is me\" claims an existing person record of "
                 "this installation, which a file's people never join",
    ResultsPackage: "a results package is signed by the installation that issued it and "
                    "verified against its key; the new installation issues its own",
    PackageResult: "the codes of an issued package's results belong with that package",
    ImportedPackage: "the packages the archive imported stay with the archive that checked "
                     "their keys; the file carries the championship they made",
    TrustedKey: "the operator's trust in other installations' keys belongs to the "
                "installation, not to any championship",
}


def championship_export(championship: Championship, *, by: Any = None) -> dict[str, Any]:
    """The championship as an interchange document (JSON-ready values); the download of its
    private data (birth dates, emails) is recorded in the audit log."""
    events = list(championship.events.order_by("position", "pk"))
    rounds = {e.pk: list(e.rounds.order_by("position", "pk")) for e in events}
    puzzles: dict[int, list[Puzzle]] = {}
    for puzzle in Puzzle.objects.filter(round__event__championship=championship).order_by(
            "position", "pk"):
        puzzles.setdefault(puzzle.round_id, []).append(puzzle)
    starts: dict[int, list[GroupStart]] = {}
    for start in GroupStart.objects.filter(round__event__championship=championship).order_by(
            "group", "pk"):
        starts.setdefault(start.round_id, []).append(start)
    members = list(EntryMember.objects.filter(entry__event__championship=championship)
                   .select_related("person", "entry__event").order_by(
                       "entry__event__position", "entry__number", "position", "pk"))
    # People are numbered in the file as they first appear among the entries (an import that
    # finds some of them already here numbers them the same when exporting again).
    people = list({m.person_id: m.person for m in members}.values())
    person_key = {p.pk: n for n, p in enumerate(people, start=1)}
    overrides: dict[int, list[FactOverrideData]] = {}
    for o in FactOverride.objects.filter(
            member__entry__event__championship=championship).order_by("fact"):
        overrides.setdefault(o.member_id, []).append(FactOverrideData(
            fact=o.fact, value=o.value, reason=o.reason, at=o.at))
    of_entry: dict[int, list[MemberData]] = {}
    for m in members:
        of_entry.setdefault(m.entry_id, []).append(MemberData(
            person=person_key[m.person_id], position=m.position, represents=str(m.represents),
            accompanied_by_adult=m.accompanied_by_adult,
            first_state_competition_of_year=m.first_state_competition_of_year,
            consent_publish=m.consent_publish, consent_photos=m.consent_photos,
            debutant=m.debutant, overrides=overrides.get(m.pk, [])))
    order = ("round__event__position", "round__position", "entry__number")
    in_rounds = {"round__event__championship": championship}
    document = ChampionshipFile(
        format=FORMAT, version=VERSION, generator=f"puzzlecomp {__version__}",
        exported_at=timezone.now(),
        championship=_championship_data(championship),
        events=[_event_data(e, rounds[e.pk], puzzles, starts) for e in events],
        people=[_person_data(p, person_key[p.pk]) for p in people],
        entries=[_entry_data(e, of_entry.get(e.pk, [])) for e in Entry.objects.filter(
            event__championship=championship).select_related("event")
            .order_by("event__position", "number")],
        seats=[SeatData(event=s.round.event.code, round=s.round.code, entry=s.entry.number,
                        group=s.group, table=s.table, seat=s.seat, no_show=s.no_show,
                        time_credit=s.time_credit)
               for s in Seat.objects.filter(**in_rounds).select_related(
                   "round__event", "entry").order_by(*order)],
        check_ins=[CheckInData(event=c.round.event.code, round=c.round.code,
                               entry=c.entry.number, status=c.status, at=c.at)
                   for c in CheckIn.objects.filter(**in_rounds).select_related(
                       "round__event", "entry").order_by(*order)],
        results=[_result_data(r) for r in Result.objects.filter(**in_rounds).select_related(
            "round__event", "entry").order_by(*order)],
        qualifiers=[_qualifier_data(q) for q in Qualifier.objects.filter(
            from_round__event__championship=championship).select_related(
            "from_round__event", "entry", "replaces__entry").order_by(
            "from_round__event__position", "from_round__position", "entry__number")],
        disputes=[_dispute_data(d) for d in Dispute.objects.filter(**in_rounds).select_related(
            "round__event", "entry").order_by(*order[:2], "filed_at", "entry__number", "pk")],
        **_facts(championship),
    )
    action_audit(CHAMPIONSHIP_DOWNLOADED, championship=championship, user=by,
                 people=len(people))
    return championship_file_data(document)


def _facts(championship: Championship) -> dict[str, Any]:
    """The facts of the championship's own tables: model choices, group draws and moves, relay
    draws and time credit grants (who made them stays behind: users are not in the file)."""
    in_rounds = {"round__event__championship": championship}
    by_round = ("round__event__position", "round__position")
    account = PaymentAccount.objects.filter(championship=championship).first()
    return {
        "payment_account": None if account is None else PaymentAccountData(
            holder=account.holder, iban=account.iban, bic=account.bic,
            local_account=account.local_account, bsb=account.bsb,
            account_number=account.account_number, instructions=account.instructions),
        "bank_transactions": [
            BankTransactionData(
                transaction_id=t.transaction_id, source=t.source, line=t.line,
                booked_on=t.booked_on, amount=t.amount, currency=t.currency,
                reference=t.reference, payer=t.payer, payer_account=t.payer_account,
                message=t.message, status=t.status, reason=t.reason, imported_at=t.imported_at,
                resolved_at=t.resolved_at, resolution=t.resolution,
                event=t.entry.event.code if t.entry else None,
                entry=t.entry.number if t.entry else None)
            for t in BankTransaction.objects.filter(championship=championship)
            .select_related("entry__event").order_by("imported_at", "line", "pk")],
        "payout_accounts": [
            PayoutAccountData(event=p.entry.event.code, entry=p.entry.number, holder=p.holder,
                              iban=p.iban, bic=p.bic, account=p.account)
            for p in PayoutAccount.objects.filter(entry__event__championship=championship)
            .select_related("entry__event").order_by("entry__event__position",
                                                     "entry__number")],
        "model_choices": [
            ModelChoiceData(event=c.round.event.code, round=c.round.code, entry=c.entry.number,
                            models=list(c.chosen_models), chosen_at=c.chosen_at)
            for c in ModelChoice.objects.filter(**in_rounds).select_related(
                "round__event", "entry").order_by(*by_round, "entry__number")],
        "group_draws": [
            GroupDrawData(event=d.round.event.code, round=d.round.code, seed=d.seed,
                          entries=d.entries, drawn_at=d.drawn_at)
            for d in GroupDraw.objects.filter(**in_rounds).select_related(
                "round__event").order_by(*by_round, "drawn_at", "pk")],
        "group_moves": [
            GroupMoveData(event=m.entry.event.code, entry=m.entry.number,
                          from_group=m.from_group, to_group=m.to_group, reason=m.reason,
                          moved_at=m.moved_at)
            for m in GroupMove.objects.filter(entry__event__championship=championship)
            .select_related("entry__event").order_by("entry__event__position", "moved_at",
                                                     "pk")],
        "relay_draws": [
            RelayDrawData(event=r.event.code, seed=r.seed, team_size=r.team_size,
                          pool=list(r.pool), teams=[RelayTeamData(**t) for t in r.teams],
                          left_over=list(r.left_over), drawn_at=r.drawn_at)
            for r in RelayDraw.objects.filter(event__championship=championship)
            .select_related("event").order_by("event__position", "drawn_at", "pk")],
        "time_credits": [
            TimeCreditData(event=g.round.event.code, round=g.round.code, entry=g.entry.number,
                           seconds=g.seconds, reason=g.reason, granted_at=g.granted_at)
            for g in TimeCreditGrant.objects.filter(**in_rounds).select_related(
                "round__event", "entry").order_by(*by_round, "granted_at", "pk")
            # A grant above a day, stored before credits were bounded, is no credit a file can
            # hold; the seat keeps the credit in force.
            if g.seconds <= MAX_SECONDS],
    }


def _championship_data(c: Championship) -> ChampionshipData:
    return ChampionshipData(
        slug=c.slug, name=c.name, ruleset_id=c.ruleset_id, venue=c.venue, starts_at=c.starts_at,
        date_known=c.date_known,
        ends_on=c.ends_on, settings=c.settings or {}, floor_rows=list(c.floor_rows or []),
        guest_tables=c.guest_tables, published=c.published,
        registration_opens_at=c.registration_opens_at,
        registration_closes_at=c.registration_closes_at,
        refund_days_before=c.refund_days_before, fee_currency=c.fee_currency,
        offer_days=c.offer_days, confirm_on_payment=c.confirm_on_payment,
        archived=c.archived, time_zone=c.time_zone)


def _event_data(e: Event, rounds: list[Round], puzzles: dict[int, list[Puzzle]],
                starts: dict[int, list[GroupStart]]) -> EventData:
    return EventData(
        code=e.code, name=e.name, kind=e.kind, members_min=e.members_min,
        members_max=e.members_max, capacity=e.capacity, position=e.position,
        standings_published_at=e.standings_published_at,
        fee_amount=e.fee_amount, fee_per="person" if e.fee_per == "person" else "entry",
        fee_early_amount=e.fee_early_amount, fee_early_until=e.fee_early_until,
        rounds=[RoundData(
            code=r.code, name=r.name, position=r.position,
            time_limit_minutes=r.time_limit_minutes, groups=list(r.groups or []),
            state=r.state, starts_at=r.starts_at, published_at=r.published_at,
            assembly_stopped_at=r.assembly_stopped_at,
            groups_published=r.groups_published, seating_published=r.seating_published,
            group_difficulty=[GroupDifficultyData(**figure) for figure in r.group_difficulty],
            puzzles=[PuzzleData(position=p.position, brand=p.brand, pieces=p.pieces,
                                motif=p.motif, picture=p.picture,
                                models_to_choose_from=p.models_to_choose_from)
                     for p in puzzles.get(r.pk, [])],
            group_starts=[GroupStartData(group=s.group, planned_at=s.planned_at,
                                         started_at=s.started_at, state=s.state)
                          for s in starts.get(r.pk, [])],
        ) for r in rounds],
    )


def _person_data(p: Person, key: int) -> PersonData:
    return PersonData(
        id=key, first_name=p.first_name, last_name=p.last_name, email=p.email,
        nationality=str(p.nationality), other_nationalities=list(p.other_nationalities or []),
        residence=str(p.residence), region=p.region, years_resident=p.years_resident,
        birth_date=p.birth_date, earlier_events=list(p.earlier_events or []),
        consent_publish=p.consent_publish, consent_photos=p.consent_photos,
        archive_id=p.archive_id)


def _entry_data(e: Entry, members: list[MemberData]) -> EntryData:
    return EntryData(
        event=e.event.code, number=e.number, name=e.name, country=e.country, mixed=e.mixed,
        status=e.status, contact_email=e.contact_email, registered_at=e.registered_at,
        confirmed_at=e.confirmed_at, fee_amount=e.fee_amount, fee_currency=e.fee_currency,
        paid_amount=e.paid_amount, paid_at=e.paid_at, cancelled_at=e.cancelled_at,
        refund_amount=e.refund_amount, group=e.group, seed_rank=e.seed_rank,
        language=e.language, offered_at=e.offered_at, members=members)


def _result_data(r: Result) -> ResultData:
    return ResultData(
        event=r.round.event.code, round=r.round.code, entry=r.entry.number, status=r.status,
        time_seconds=r.time_seconds, pieces=r.pieces, remaining=r.remaining, missing=r.missing,
        missing_contiguous=r.missing_contiguous, missing_found=r.missing_found,
        time_credit=r.time_credit, puzzles=list(r.puzzles or []), checked=r.checked,
        competitor_confirmed=r.competitor_confirmed, note=r.note, recorded_at=r.recorded_at,
        version=r.version, published_rank=r.published_rank, archive_group=r.archive_group)


def _qualifier_data(q: Qualifier) -> QualifierData:
    return QualifierData(
        event=q.from_round.event.code, round=q.from_round.code, entry=q.entry.number,
        rank=q.rank, from_group=q.from_group, to_group=q.to_group, reason=q.reason,
        status=q.status, replaces=q.replaces.entry.number if q.replaces else None,
        confirmed_at=q.confirmed_at)


def _dispute_data(d: Dispute) -> DisputeData:
    return DisputeData(
        event=d.round.event.code, round=d.round.code, entry=d.entry.number, text=d.text,
        filed_at=d.filed_at, status=d.status, resolution=d.resolution,
        resolved_at=d.resolved_at)


def championship_import(data: Any, *, slug: str | None = None, user: Any = None,
                        operator: bool | None = None) -> Championship:
    """Create a new championship from an interchange document, all of it or nothing.

    `slug` names the new championship; without it the file's slug is used, and refused when
    a championship has it already. The importing user becomes its owner. Raises
    InterchangeError with every problem found (each naming its path in the document).

    The file's people are new records of the new championship: it never reaches a stored
    person, whatever archive id it gives (linking is the organiser's step, Known people). Only
    the operator (the command line, or staff; `operator` defaults to that) imports an archived
    championship, whose people join the archive's by their archive id.
    """
    read = read_championship_file(data)
    document = read.document
    if document is None:
        raise InterchangeError(read.problems)
    target = slug or document.championship.slug
    if operator is None:
        operator = user is None or bool(getattr(user, "is_staff", False))
    with transaction.atomic():
        # The file's own problems and this install's, in one run (the rows kept by the
        # reader are checked by the engine, named by their place in the file).
        problems = read.problems + read.located(
            _install_problems(document, target, given=slug is not None))
        if document.championship.archived and not operator:
            problems.insert(0, problem("championship.archived",
                                       "only the operator imports an archived championship"))
        if problems:
            raise InterchangeError(problems)
        championship = _championship_of(document, target, operator=operator)
        with unit_of_work(CHAMPIONSHIP_IMPORTED, championship=championship, user=user,
                          source_slug=document.championship.slug, version=document.version,
                          generator=document.generator, entries=len(document.entries),
                          results=len(document.results)) as work:
            championship.save()
            _create(document, championship)
            if championship.archived:
                living_facts_derive()
            if work.user is not None:
                Membership.objects.create(user=work.user, championship=championship,
                                          role=Role.OWNER)
    return championship


def _install_problems(document: ChampionshipFile, target: str,
                      given: bool) -> list[InterchangeProblem]:
    """What this install refuses: a taken slug, an unknown ruleset, event, round or country,
    a bad email, and results the ruleset's engine rejects."""
    problems: list[InterchangeProblem] = []
    where = "slug" if given else "championship.slug"
    try:
        validate_slug(target)
    except ValidationError:
        problems.append(problem(where, f"{target!r} is not a slug (letters, digits, - and _)"))
    if len(target) > SLUG_LENGTH:
        problems.append(problem(where, f"a slug has at most {SLUG_LENGTH} characters"))
    if Championship.objects.filter(slug=target).exists():
        problems.append(problem(where, f"a championship {target!r} exists already; give a new "
                                       "slug for this one"))
    try:
        ruleset = load_ruleset(document.championship.ruleset_id)
    except RulesError as error:
        return [*problems, problem("championship.ruleset_id", str(error))]
    problems += settings_problems(document)
    limits: dict[tuple[str, str], int | None] = {}
    for e, event in enumerate(document.events):
        try:
            spec = ruleset.event(event.code)
        except KeyError:
            problems.append(problem(f"events[{e}].code",
                                    f"ruleset {ruleset.id} has no event {event.code!r}"))
            continue
        for r, rnd in enumerate(event.rounds):
            try:
                spec.round(rnd.code)
            except KeyError:
                problems.append(problem(f"events[{e}].rounds[{r}].code",
                                        f"event {event.code} of {ruleset.id} has no round "
                                        f"{rnd.code!r}"))
                continue
            sizes = {p.pieces for p in rnd.puzzles if p.pieces}
            limits[(event.code, rnd.code)] = sizes.pop() if len(sizes) == 1 else None
    if document.championship.archived:
        problems += [problem(f"events[{e}].rounds[{r}].state",
                             f"an archived championship's rounds are final, not {rnd.state}")
                     for e, event in enumerate(document.events)
                     for r, rnd in enumerate(event.rounds) if rnd.state != "final"]
    for i, person in enumerate(document.people):
        at = f"people[{i}]"
        _country(problems, f"{at}.nationality", person.nationality)
        _country(problems, f"{at}.residence", person.residence)
        for n, code in enumerate(person.other_nationalities):
            _country(problems, f"{at}.other_nationalities[{n}]", code)
        _email(problems, f"{at}.email", person.email)
    for i, entry in enumerate(document.entries):
        _email(problems, f"entries[{i}].contact_email", entry.contact_email)
        for m, member in enumerate(entry.members):
            _country(problems, f"entries[{i}].members[{m}].represents", member.represents)
    problems += _result_problems(document, ruleset_id=ruleset.id, pieces=limits)
    return problems


def _country(problems: list[InterchangeProblem], path: str, code: str) -> None:
    if code and code not in countries:
        problems.append(problem(path, f"{code!r} is not a country code"))


def _email(problems: list[InterchangeProblem], path: str, address: str) -> None:
    if address:
        try:
            validate_email(address)
        except ValidationError:
            problems.append(problem(path, f"{address!r} is not an email address"))


def _result_problems(document: ChampionshipFile, *, ruleset_id: str,
                     pieces: dict[tuple[str, str], int | None]) -> list[InterchangeProblem]:
    """Results the engine refuses under the round's rules, as the judges' writes would be."""
    ruleset = load_ruleset(ruleset_id)
    minutes = {(e.code, r.code): r.time_limit_minutes for e in document.events for r in e.rounds}
    rules: dict[tuple[str, str], RoundRules] = {}
    problems = []
    for i, row in enumerate(document.results):
        key = (row.event, row.round)
        if key not in pieces:
            continue  # a round the ruleset does not have: named with the file's events
        try:
            if key not in rules:
                rules[key] = resolve_round(ruleset, row.event, row.round,
                                           time_limit_minutes=minutes[key] or None,
                                           pieces=pieces[key])
            score_result(engine_result(Result(**_result_fields(row))), rules[key],
                         entry=str(row.entry))
        except RulesError as error:
            problems += [result_violation(i, v) for v in error.violations]
    for i, seat in enumerate(document.seats):
        # A credit granted before any result is refused as the head judge's grant would be.
        if not seat.time_credit:
            continue
        try:
            event, spec = find_round(ruleset, seat.event, seat.round)
        except RulesError:
            continue  # an unknown event or round is named by the file's own checks
        limit = minutes.get((seat.event, seat.round)) or None
        refused = time_credit_refusal(ruleset, event, spec, credit=seat.time_credit,
                                      time_limit_seconds=limit * 60 if limit else None)
        if refused is not None:
            problems.append(problem(f"seats[{i}].time_credit", refused.message))
    return problems


def _result_fields(row: ResultData) -> dict[str, Any]:
    """The stored fields of a result row (the time it was recorded is put back afterwards)."""
    return row.model_dump(exclude={"event", "round", "entry", "recorded_at"})


def _championship_of(document: ChampionshipFile, slug: str, *, operator: bool) -> Championship:
    """The championship row of the file; an organiser's import starts unpublished, so that its
    results reach person pages, rankings and records only once the organiser publishes it."""
    c = document.championship
    return Championship(
        slug=slug, name=c.name, ruleset_id=c.ruleset_id, venue=c.venue, starts_at=c.starts_at,
        date_known=c.date_known,
        ends_on=c.ends_on, settings=championship_settings(load_ruleset(c.ruleset_id), c.settings),
        floor_rows=c.floor_rows,
        guest_tables=c.guest_tables, published=c.published and operator,
        registration_opens_at=c.registration_opens_at,
        registration_closes_at=c.registration_closes_at,
        refund_days_before=c.refund_days_before, fee_currency=c.fee_currency,
        offer_days=c.offer_days, confirm_on_payment=c.confirm_on_payment,
        archived=c.archived, time_zone=c.time_zone or default_time_zone())


def _create(document: ChampionshipFile, championship: Championship) -> None:
    rounds: dict[tuple[str, str], Round] = {}
    events: dict[str, Event] = {}
    for e in document.events:
        event = Event.objects.create(
            championship=championship, code=e.code, name=e.name, kind=e.kind,
            members_min=e.members_min, members_max=e.members_max, capacity=e.capacity,
            position=e.position, standings_published_at=e.standings_published_at,
            fee_amount=e.fee_amount, fee_per=e.fee_per,
            fee_early_amount=e.fee_early_amount, fee_early_until=e.fee_early_until)
        events[e.code] = event
        for r in e.rounds:
            rnd = Round.objects.create(
                event=event,
                **r.model_dump(exclude={"puzzles", "group_difficulty", "group_starts"}),
                group_difficulty=[g.model_dump() for g in r.group_difficulty])
            rounds[(e.code, r.code)] = rnd
            Puzzle.objects.bulk_create(Puzzle(round=rnd, **p.model_dump()) for p in r.puzzles)
            GroupStart.objects.bulk_create(GroupStart(round=rnd, **s.model_dump())
                                           for s in r.group_starts)
    people = _people_of(document)
    filed = {p.id: p for p in document.people}
    entries = Entry.objects.bulk_create(
        (Entry(event=events[e.event], **e.model_dump(exclude={"event", "members"}))
         for e in document.entries), batch_size=BATCH)
    _keep_times(entries, [e.registered_at for e in document.entries], "registered_at")
    entry_of = {(e.event, e.number): row for e, row in zip(document.entries, entries,
                                                           strict=True)}
    members = EntryMember.objects.bulk_create(
        (EntryMember(entry=entry_of[(e.event, e.number)], person=people[m.person],
                     position=m.position, represents=m.represents,
                     accompanied_by_adult=m.accompanied_by_adult,
                     first_state_competition_of_year=m.first_state_competition_of_year,
                     debutant=m.debutant,
                     consent_publish=_given(m.consent_publish, filed[m.person].consent_publish),
                     consent_photos=_given(m.consent_photos, filed[m.person].consent_photos))
         for e in document.entries for m in e.members), batch_size=BATCH)
    given = [m for e in document.entries for m in e.members]
    overrides = FactOverride.objects.bulk_create(
        (FactOverride(member=member, fact=o.fact, value=o.value, reason=o.reason)
         for member, m in zip(members, given, strict=True) for o in m.overrides),
        batch_size=BATCH)
    _keep_times(overrides, [o.at for m in given for o in m.overrides], "at")
    keys = ("event", "round", "entry")
    Seat.objects.bulk_create(
        (Seat(round=rounds[(s.event, s.round)], entry=entry_of[(s.event, s.entry)],
              **s.model_dump(exclude=set(keys))) for s in document.seats), batch_size=BATCH)
    CheckIn.objects.bulk_create(
        (CheckIn(round=rounds[(c.event, c.round)], entry=entry_of[(c.event, c.entry)],
                 status=c.status, at=c.at) for c in document.check_ins), batch_size=BATCH)
    results = Result.objects.bulk_create(
        (Result(round=rounds[(r.event, r.round)], entry=entry_of[(r.event, r.entry)],
                **_result_fields(r)) for r in document.results), batch_size=BATCH)
    _keep_times(results, [r.recorded_at for r in document.results], "recorded_at")
    qualifiers = Qualifier.objects.bulk_create(
        (Qualifier(from_round=rounds[(q.event, q.round)], entry=entry_of[(q.event, q.entry)],
                   **q.model_dump(exclude={*keys, "replaces"})) for q in document.qualifiers),
        batch_size=BATCH)
    by_key = {(q.event, q.round, q.entry): row
              for q, row in zip(document.qualifiers, qualifiers, strict=True)}
    for q, row in zip(document.qualifiers, qualifiers, strict=True):
        row.replaces = by_key[(q.event, q.round, q.replaces)] if q.replaces is not None else None
        row.confirmed_at = q.confirmed_at
    Qualifier.objects.bulk_update(qualifiers, ["replaces", "confirmed_at"], batch_size=BATCH)
    disputes = Dispute.objects.bulk_create(
        (Dispute(round=rounds[(d.event, d.round)], entry=entry_of[(d.event, d.entry)],
                 **d.model_dump(exclude=set(keys))) for d in document.disputes),
        batch_size=BATCH)
    _keep_times(disputes, [d.filed_at for d in document.disputes], "filed_at")
    _facts_create(document, championship, events, rounds, entry_of)


def _given(member: bool | None, person: bool) -> bool:
    """A member's consent as filed; a file from before consent was per championship gives
    only the person's."""
    return person if member is None else member


def _people_of(document: ChampionshipFile) -> dict[int, Person]:
    """The file's people by their number in it, created.

    Only an archived championship's file (the operator's) joins a person whose archive id
    this installation knows (one identity across championships). Any other file's people are
    new records without an archive id: an id in a file is public and proves nothing, and kept
    it would join the archive's history to the record on a later archive import.
    """
    known = {p.archive_id: p for p in Person.objects.filter(
        archive_id__in=[p.archive_id for p in document.people if p.archive_id])
    } if document.championship.archived else {}
    new = [p for p in document.people if p.archive_id not in known]
    linked = document.championship.archived
    created = Person.objects.bulk_create(
        (Person(**p.model_dump(exclude={"id", *(() if linked else ("archive_id",))}))
         for p in new), batch_size=BATCH)
    people = {p.id: row for p, row in zip(new, created, strict=True)}
    people.update({p.id: known[p.archive_id] for p in document.people
                   if p.archive_id in known})
    return people


def _facts_create(document: ChampionshipFile, championship: Championship,
                  events: dict[str, Event],
                  rounds: dict[tuple[str, str], Round],
                  entry_of: dict[tuple[str, int], Entry]) -> None:
    ModelChoice.objects.bulk_create(
        (ModelChoice(round=rounds[(c.event, c.round)], entry=entry_of[(c.event, c.entry)],
                     chosen_models=list(c.models), chosen_at=c.chosen_at)
         for c in document.model_choices), batch_size=BATCH)
    GroupDraw.objects.bulk_create(
        (GroupDraw(round=rounds[(d.event, d.round)], seed=d.seed, entries=d.entries,
                   drawn_at=d.drawn_at) for d in document.group_draws), batch_size=BATCH)
    GroupMove.objects.bulk_create(
        (GroupMove(entry=entry_of[(m.event, m.entry)], from_group=m.from_group,
                   to_group=m.to_group, reason=m.reason, moved_at=m.moved_at)
         for m in document.group_moves), batch_size=BATCH)
    RelayDraw.objects.bulk_create(
        (RelayDraw(event=events[r.event], seed=r.seed, team_size=r.team_size, pool=r.pool,
                   teams=[t.model_dump() for t in r.teams], left_over=r.left_over,
                   drawn_at=r.drawn_at) for r in document.relay_draws), batch_size=BATCH)
    account = document.payment_account
    if account is not None:
        PaymentAccount.objects.create(championship=championship,
                                      **account.model_dump())
    paid = BankTransaction.objects.bulk_create(
        (BankTransaction(championship=championship,
                         entry=entry_of[(t.event or "", t.entry)] if t.entry is not None else None,
                         **t.model_dump(exclude={"event", "entry"}))
         for t in document.bank_transactions), batch_size=BATCH)
    _keep_times(paid, [t.imported_at for t in document.bank_transactions], "imported_at")
    PayoutAccount.objects.bulk_create(
        (PayoutAccount(entry=entry_of[(p.event, p.entry)],
                       **p.model_dump(exclude={"event", "entry"}))
         for p in document.payout_accounts), batch_size=BATCH)
    TimeCreditGrant.objects.bulk_create(
        (TimeCreditGrant(round=rounds[(g.event, g.round)], entry=entry_of[(g.event, g.entry)],
                         seconds=g.seconds, reason=g.reason, granted_at=g.granted_at)
         for g in document.time_credits), batch_size=BATCH)


def _keep_times(rows: list[Any], values: Iterable[Any], field: str) -> None:
    """Put back the file's times on rows whose field the database sets on creation."""
    changed: list[Model] = []
    for row, value in zip(rows, values, strict=True):
        setattr(row, field, value)
        changed.append(row)
    if changed:
        type(changed[0]).objects.bulk_update(changed, [field], batch_size=BATCH)
