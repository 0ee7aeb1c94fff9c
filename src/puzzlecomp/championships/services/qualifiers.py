"""After a round is published: the organiser confirms the engine's qualifiers, replaces a qualifier
who withdraws by the rules (`rules.qualification.replacement_for`), and creates the next round's
groups and seating in one step.

The engine decides who qualifies and why; the stored Qualifier rows record what the organiser
confirmed, so the next round is seated from them even if a later correction moves a result.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils import timezone

from puzzlecomp.championships.actions import (
    NEXT_ROUND_CREATED,
    QUALIFIER_WITHDRAWN,
    QUALIFIERS_CONFIRMED,
    SEATING,
)
from puzzlecomp.championships.engine import (
    RoundRanking,
    round_entrants_without_result,
    round_ranking,
    round_rules,
)
from puzzlecomp.championships.models import (
    Dispute,
    DisputeStatus,
    Entry,
    EntryStatus,
    Qualifier,
    QualifierStatus,
    Round,
    RoundState,
    Seat,
)
from puzzlecomp.championships.selectors.rounds import dispute_window_ends
from puzzlecomp.championships.services.seating import seating_assign
from puzzlecomp.championships.services.work import Work, unit_of_work
from puzzlecomp.rules import results
from puzzlecomp.rules.clinching import Certainty, qualification_certainty
from puzzlecomp.rules.guards import dispute_window_guard
from puzzlecomp.rules.qualification import Qualifier as EngineQualifier
from puzzlecomp.rules.qualification import (
    QualifyReason,
    qualification_rules,
    qualify_for_next_round,
    replacement_for,
)
from puzzlecomp.rules.ranking import RankedEntry
from puzzlecomp.rules.rounds import RoundRules

DONE_STATES = (RoundState.PUBLISHED, RoundState.FINAL)


class QualifierError(Exception):
    """A refused qualifier operation: a machine code, an English message and its parameters."""

    def __init__(self, code: str, message: str, **params: int | str) -> None:
        self.code = code
        self.message = message
        self.params = params
        super().__init__(message)


@dataclass(frozen=True)
class QualifierLine:
    """A qualifier as the organiser sees it; `status` is blank for the engine's proposal."""

    number: int
    name: str
    country: str
    rank: int
    from_group: str
    to_group: str
    reason: str
    status: str = ""
    # The entry number of the withdrawn qualifier whose place this one took.
    replaces: int | None = None


@dataclass(frozen=True)
class RoundQualifiers:
    """The engine's qualifiers of a round beside the confirmed ones."""

    proposed: list[QualifierLine]
    confirmed: list[QualifierLine]
    # True when the ranking changed since the confirmation (a correction, an upheld dispute).
    outdated: bool


@dataclass(frozen=True)
class NextRound:
    round: Round
    groups: list[str]
    seated: int


def next_round_of(rnd: Round) -> Round:
    """The round the qualifiers go to (RulesError `qualification.last_round` for the last)."""
    to_round = qualification_rules(round_rules(rnd)).to_round
    found = Round.objects.select_related("event__championship").filter(
        event=rnd.event, code=to_round).first()
    if found is None:
        raise QualifierError("qualifiers.no_next_round",
                             f"The event has no round {to_round!r} for the qualifiers.",
                             round=to_round)
    return found


def _locked(rnd: Round) -> Round:
    """The round, locked until the transaction ends: two organisers confirming at once take
    turns instead of writing the same rows twice."""
    Round.objects.select_for_update().filter(pk=rnd.pk).values_list("pk").first()
    rnd.refresh_from_db(fields=["state"])
    return rnd


def _engine(rnd: Round) -> tuple[list[RankedEntry], list[EngineQualifier], RoundRules]:
    ranking = round_ranking(rnd)
    return ranking.lines, qualify_for_next_round(ranking.lines, ranking.rules), ranking.rules


# What makes two confirmations the same: entry number, rank, group, next group, reason.
Key = tuple[int, int, str, str, str]


def _engine_key(q: EngineQualifier) -> Key:
    return (int(q.entry.id), q.rank, q.entry.group, q.to_group, str(q.reason))


def _row_key(row: Qualifier) -> Key:
    return (row.entry.number, row.rank, row.from_group, row.to_group, row.reason)


def _stored(rnd: Round) -> list[Qualifier]:
    return list(Qualifier.objects.filter(from_round=rnd)
                .select_related("entry", "replaces__entry").order_by("pk"))


def _line_of_engine(q: EngineQualifier) -> QualifierLine:
    return QualifierLine(int(q.entry.id), q.entry.name, q.entry.country, q.rank, q.entry.group,
                         q.to_group, str(q.reason))


def _line_of_row(row: Qualifier) -> QualifierLine:
    return QualifierLine(row.entry.number, row.entry.name, row.entry.country, row.rank,
                         row.from_group, row.to_group, row.reason, row.status,
                         row.replaces.entry.number if row.replaces else None)


def _in_order(lines: list[QualifierLine]) -> list[QualifierLine]:
    return sorted(lines, key=lambda q: (q.to_group, q.from_group, q.rank, q.number))


def _originals_match(stored: Sequence[Qualifier], engine: Sequence[EngineQualifier]) -> bool:
    """Whether the confirmed rows (replacements aside) are the engine's qualifiers now."""
    confirmed = {_row_key(row) for row in stored if row.replaces_id is None}
    return confirmed == {_engine_key(q) for q in engine}


def round_qualifiers_get(rnd: Round) -> RoundQualifiers:
    """The engine's qualifiers and the confirmed ones; RulesError when the engine cannot say."""
    _, engine, _ = _engine(rnd)
    stored = _stored(rnd)
    return RoundQualifiers(
        proposed=_in_order([_line_of_engine(q) for q in engine]),
        confirmed=_in_order([_line_of_row(row) for row in stored]),
        outdated=bool(stored) and not _originals_match(stored, engine),
    )


def round_qualification_marks(rnd: Round, ranking: Sequence[RankedEntry], *,
                              rules: RoundRules | None = None) -> dict[int, QualifierLine]:
    """Entry number -> its qualification: the confirmed rows (withdrawn ones too) once there are
    any, else the engine's prediction (status blank); empty for an event's last round, and for
    a round of the archive, whose published results say nothing of who went on (a prediction
    by today's ruleset would be an invented fact)."""
    stored = _stored(rnd)
    if stored:
        return {row.entry.number: _line_of_row(row) for row in stored}
    if rnd.event.championship.archived:
        return {}
    rules = rules or round_rules(rnd)
    if not ranking or rules.round.qualification is None:
        return {}
    return {int(q.entry.id): _line_of_engine(q) for q in qualify_for_next_round(ranking, rules)}


def round_qualification_certainty(rnd: Round, ranked: RoundRanking) -> dict[int, Certainty]:
    """Entry number -> whether its qualification is clinched, only expected or certainly out,
    allowing for the entrants still puzzling and the finishes awaiting their check
    (`rules.clinching`); empty once the organiser confirmed the qualifiers, for final results
    and for an event's last round. RulesError when the engine cannot say who goes on."""
    if (rnd.state == RoundState.FINAL or ranked.rules.round.qualification is None
            or Qualifier.objects.filter(from_round=rnd).exists()):
        return {}
    pending = [str(number) for number, row in ranked.rows.items() if not row["checked"]]
    qualification = ranked.rules.round.qualification
    # Quotas read who is national; places by rank alone need no one's people.
    puzzling = [] if rnd.state in DONE_STATES else round_entrants_without_result(
        rnd, members=bool(qualification.quotas))
    certain = qualification_certainty(ranked.lines, ranked.rules, pending=pending,
                                      puzzling=puzzling,
                                      settings=rnd.event.championship.settings)
    return {int(entry): certainty for entry, certainty in certain.items()}


def _check_published(rnd: Round) -> None:
    if rnd.state not in DONE_STATES:
        raise QualifierError("qualifiers.round_not_published",
                             "Qualifiers are confirmed once the round's results are published.")


def _check_not_started(next_round: Round) -> None:
    if next_round.state != RoundState.PLANNED:
        raise QualifierError("qualifiers.next_round_started",
                             f"{next_round.name} has started; its entrants can no longer change.",
                             round=next_round.name)


def qualifiers_confirm(*, round: Round, user: Any = None,
                       knowingly: dt.datetime | bool | None = None,
                       now: dt.datetime | None = None) -> int:
    """Store the engine's qualifiers of a published round; returns the rows written.

    Idempotent: when the stored confirmation is still the engine's, nothing is written (0).
    After a correction changed the ranking, confirming again replaces the confirmation and
    applies the earlier withdrawals again. Refused while a dispute of the round is open,
    once the next round has started, and while the dispute window is open unless the
    organiser confirms `knowingly` the window's end as the confirmation showed it (True: the
    window as it is now, for a caller that decides itself, the demo's script); the audit
    records until when it was open.
    """
    with unit_of_work(QUALIFIERS_CONFIRMED, championship=round.event.championship, user=user,
                      round=round) as work:
        return _confirm(round, work, knowingly=knowingly, now=now or timezone.now())


def _confirm(round: Round, work: Work, *, knowingly: dt.datetime | bool | None,
             now: dt.datetime) -> int:
    rnd = _locked(round)
    _check_published(rnd)
    window = dispute_window_ends(rnd) if rnd.state == RoundState.PUBLISHED else None
    dispute_window_guard(window, now=now, knowingly=window if knowingly is True
                         else knowingly or None)
    if window is not None and now < window:
        work.record(dispute_window_open_until=window.isoformat())
    open_disputes = Dispute.objects.filter(round=rnd, status=DisputeStatus.OPEN).count()
    if open_disputes:
        raise QualifierError("qualifiers.disputes_open",
                             f"{open_disputes} disputes of this round are open; resolve them "
                             "before confirming the qualifiers.", count=open_disputes)
    next_round = next_round_of(rnd)
    _check_not_started(next_round)
    ranking, engine, rules = _engine(rnd)
    if not engine:
        raise QualifierError("qualifiers.none", "Nobody qualifies: the round has no ranked "
                             "results.")
    stored = _stored(rnd)
    if stored and _originals_match(stored, engine):
        work.nothing_changed()
        return 0
    withdrawn = [row.entry.number for row in stored if row.status == QualifierStatus.WITHDRAWN]
    Qualifier.objects.filter(from_round=rnd).delete()
    entries = {e.number: e for e in Entry.objects.filter(
        event=rnd.event, number__in=[int(q.entry.id) for q in engine])}
    Qualifier.objects.bulk_create(
        Qualifier(from_round=rnd, entry=entries[int(q.entry.id)], rank=q.rank,
                  from_group=q.entry.group, to_group=q.to_group, reason=str(q.reason),
                  confirmed_by=work.user)
        for q in engine
    )
    kept = []
    # In the order they withdrew: a replacement who withdrew later is withdrawn again after.
    for number in withdrawn:
        if Qualifier.objects.filter(from_round=rnd, entry__number=number,
                                    status=QualifierStatus.CONFIRMED).exists():
            with unit_of_work(QUALIFIER_WITHDRAWN, championship=rnd.event.championship,
                              user=work.user, round=rnd) as withdrawal:
                _withdraw(rnd, number, ranking, rules, withdrawal, lapse=True)
            kept.append(number)
    work.record(qualifiers=len(engine), again=bool(stored), withdrawals_kept=kept)
    return len(engine)


def qualifier_withdraw(*, round: Round, entry_number: int, user: Any = None,
                       lapse: bool = False, offered: int | None = None) -> Qualifier | None:
    """Mark a confirmed qualifier withdrawn and confirm the replacement the rules name.

    Returns the replacement's row. When nobody can take the place, QualifierError
    `qualifiers.no_replacement` unless `lapse` says to let the place lapse (returns None).
    If the next round is seated, the replacement takes the withdrawn qualifier's table.
    `offered` is the replacement the organiser's page named (0: nobody, the place lapses);
    when the rules now name someone else, QualifierError `qualifiers.offer_changed` (or
    `..._to_lapse`) and nothing is written.
    """
    with unit_of_work(QUALIFIER_WITHDRAWN, championship=round.event.championship, user=user,
                      round=round) as work:
        rnd = _locked(round)
        _check_published(rnd)
        _check_not_started(next_round_of(rnd))
        ranking, _, rules = _engine(rnd)
        return _withdraw(rnd, entry_number, ranking, rules, work, lapse=lapse,
                         offered=offered)


@dataclass(frozen=True)
class CancelledQualifier:
    """A confirmed qualifier whose entry was cancelled, and who the rules name to take its
    place (None: nobody is left, the place would lapse)."""

    number: int
    name: str
    replacement_number: int | None
    replacement_name: str
    reason: str


def cancelled_qualifiers_get(rnd: Round) -> list[CancelledQualifier]:
    """The round's confirmed qualifiers whose entries were cancelled while the next round has
    not started, each with the replacement the ruleset's qualification order names, so the
    organiser is offered it (docs/qualification.md, Replacements)."""
    stored = _stored(rnd)
    gone = [r for r in stored if r.status == QualifierStatus.CONFIRMED
            and r.entry.status == EntryStatus.CANCELLED]
    if not gone or next_round_of(rnd).state != RoundState.PLANNED:
        return []
    ranking, _, rules = _engine(rnd)
    taken = _taken(stored, ranking)
    names = dict(Entry.objects.filter(event=rnd.event).values_list("number", "name"))
    offers = []
    for row in gone:
        chosen = replacement_for(str(row.entry.number), ranking, taken, rules)
        number = int(chosen.entry.id) if chosen is not None else None
        offers.append(CancelledQualifier(
            row.entry.number, row.entry.name, number,
            names.get(number, "") if number is not None else "",
            str(chosen.reason) if chosen is not None else ""))
    return offers


def _taken(stored: Sequence[Qualifier], ranking: Sequence[RankedEntry]) -> list[EngineQualifier]:
    """Every stored qualifier as the engine's (withdrawn ones count as taken too, so nobody
    who withdrew comes back)."""
    engine_entries = {line.entry.id: line.entry for line in ranking}
    return [
        EngineQualifier(engine_entries.get(str(r.entry.number))
                        or results.Entry(id=str(r.entry.number), group=r.from_group),
                        r.rank, r.to_group, QualifyReason(r.reason))
        for r in stored
    ]


def _withdraw(rnd: Round, number: int, ranking: Sequence[RankedEntry], rules: RoundRules,
              work: Work, *, lapse: bool, offered: int | None = None) -> Qualifier | None:
    stored = _stored(rnd)
    row = next((r for r in stored if r.entry.number == number), None)
    if row is None:
        raise QualifierError("qualifiers.not_a_qualifier",
                             f"Entry {number} is not a confirmed qualifier of this round.",
                             entry=number)
    if row.status != QualifierStatus.CONFIRMED:
        raise QualifierError("qualifiers.already_withdrawn",
                             f"Entry {number} has already withdrawn.", entry=number)
    chosen = replacement_for(str(number), ranking, _taken(stored, ranking), rules)
    now_offered = int(chosen.entry.id) if chosen is not None else 0
    if offered is not None and offered != now_offered:
        if chosen is None:
            raise QualifierError("qualifiers.offer_changed_to_lapse",
                                 f"Nobody is left to take the place of entry {number}; the "
                                 f"page offered entry {offered}.", entry=number)
        raise QualifierError("qualifiers.offer_changed",
                             f"Entry {now_offered} now takes the place of entry {number}; the "
                             f"page offered {offered or 'nobody'}.", entry=number,
                             replacement=now_offered)
    if chosen is None and not lapse:
        raise QualifierError(
            "qualifiers.no_replacement",
            f"Nobody can take the place of entry {number} ({row.reason}): no entrant the rules "
            "allow is left.", entry=number, reason=row.reason)
    row.status = QualifierStatus.WITHDRAWN
    row.save(update_fields=["status"])
    next_round = next_round_of(rnd)
    seat = Seat.objects.filter(round=next_round, entry=row.entry).first()
    replacement = None
    if chosen is not None:
        entry = Entry.objects.get(event=rnd.event, number=int(chosen.entry.id))
        replacement = Qualifier.objects.create(
            from_round=rnd, entry=entry, rank=chosen.rank, from_group=chosen.entry.group,
            to_group=chosen.to_group, reason=str(chosen.reason), replaces=row,
            confirmed_by=work.user)
        if seat is not None and not Seat.objects.filter(round=next_round, entry=entry).exists():
            # The replacement sits where the withdrawn qualifier would have.
            seat.entry = entry
            seat.save(update_fields=["entry"])
            seat = None
    if seat is not None:
        seat.delete()
    if Seat.objects.filter(round=next_round).exists():
        work.announce(next_round, SEATING)
    work.record(entry=number, replacement=replacement.entry.number if replacement else None,
                lapsed=replacement is None)
    return replacement


def _next_groups(next_round: Round, rules: RoundRules, to_groups: set[str]) -> list[str]:
    """The groups receiving qualifiers, in the ruleset's order; none for an undivided round."""
    if to_groups <= {""}:
        return []
    order = list(rules.event.round(next_round.code).groups)
    return sorted(to_groups, key=lambda g: (order.index(g) if g in order else len(order), g))


def next_round_create(*, round: Round, user: Any = None) -> NextRound:
    """From the confirmed qualifiers, set the next round's groups and seat every group.

    Refused before the qualifiers are confirmed, when the ranking changed since, and once the
    next round has started. Seats made before are replaced.
    """
    with unit_of_work(NEXT_ROUND_CREATED, championship=round.event.championship, user=user,
                      from_round=round.pk) as work:
        created = _next_round(round, user=work.user)
        work.record(round=created.round.pk, groups=created.groups, seats=created.seated)
        work.announce(created.round)
    return created


def _next_round(round: Round, *, user: Any) -> NextRound:
    rnd = _locked(round)
    _, engine, rules = _engine(rnd)
    stored = _stored(rnd)
    if not stored:
        raise QualifierError("qualifiers.not_confirmed", "Confirm the qualifiers first.")
    if not _originals_match(stored, engine):
        raise QualifierError("qualifiers.outdated", "The ranking changed since the qualifiers "
                             "were confirmed: confirm them again first.")
    next_round = next_round_of(rnd)
    _check_not_started(next_round)
    confirmed = {row.to_group for row in stored if row.status == QualifierStatus.CONFIRMED}
    next_round.groups = _next_groups(next_round, rules, confirmed)
    # Made from confirmed qualifiers and announced: the next round's groups and tables are
    # published here (a first round's are published by the organiser, groups then seating).
    next_round.groups_published = next_round.seating_published = True
    next_round.save(update_fields=["groups", "groups_published", "seating_published"])
    Seat.objects.filter(round=next_round).delete()
    seated = seating_assign(round=next_round, groups=None, user=user)
    return NextRound(next_round, list(next_round.groups), seated)
