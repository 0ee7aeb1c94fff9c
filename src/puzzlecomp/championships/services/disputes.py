"""The head judge's rulings on a round's results: disputes competitors file on their own
published result, corrections with a reason, time credits for the organisation's mistakes,
and the move to final results once no dispute is left open.

Every result change goes through `result_submit`, so it keeps its history, audit entry and
live notice; every ruling is a unit of work of its own (`services.work`).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation

from puzzlecomp.championships.actions import (
    DISPUTE_FILED,
    DISPUTE_RESOLVED,
    RESULT_LOOKED_AT,
    TIME_CREDIT_GRANTED,
)
from puzzlecomp.championships.models import (
    Dispute,
    DisputeStatus,
    Entry,
    Result,
    Round,
    RoundState,
    Seat,
    TimeCreditGrant,
)
from puzzlecomp.championships.selectors.live import time_credit_of, time_credit_refused
from puzzlecomp.championships.selectors.planning import contacts_of
from puzzlecomp.championships.selectors.rounds import dispute_window_ends
from puzzlecomp.championships.services.entrant_mail import (
    entrant_emails_wanted,
    entrant_language,
)
from puzzlecomp.championships.services.results import (
    RESULT_FIELDS,
    ResultConflict,
    ResultValues,
    result_submit,
)
from puzzlecomp.championships.services.work import unit_of_work
from puzzlecomp.rules.errors import RulesError, violation
from puzzlecomp.rules.results import Status


def _refuse(code: str, message: str, **params: Any) -> RulesError:
    return RulesError(violation(code, message, **params))


def dispute_file(*, entry: Entry, round: Round, text: str,
                 now: dt.datetime | None = None) -> Dispute:
    """A competitor disputes their own result of a published round, within the window.

    wjpc-2025.txt, Disputes and Reviews: within 4 hours of the results being posted. Rulesets
    without a window take disputes until the round's results are final. An entry disputes a
    round's result once: a second filing is refused, open or answered.
    """
    rnd = round
    now = now or timezone.now()
    if entry.event_id != rnd.event_id or not Result.objects.filter(round=rnd,
                                                                     entry=entry).exists():
        raise _refuse("dispute.no_result", "the entry has no result in this round",
                      field="round")
    if rnd.state != RoundState.PUBLISHED:
        raise _refuse("dispute.round_not_published",
                      "disputes are filed on published results only", field="round")
    ends = dispute_window_ends(rnd)
    if ends is not None and now > ends:
        raise _refuse("dispute.window_closed", f"disputes closed at {ends.isoformat()}",
                      field="round", ends=ends)
    if not text.strip():
        raise _refuse("dispute.text_required", "say what is wrong with the result",
                      field="text")
    with unit_of_work(DISPUTE_FILED, championship=rnd.event.championship, round=rnd,
                      entry=entry.number) as work:
        # One dispute per entry and round: the entrant's page shows it, with its ruling.
        filed = Dispute.objects.filter(round=rnd, entry=entry).order_by("pk").first()
        if filed is not None and filed.status == DisputeStatus.OPEN:
            raise _refuse("dispute.already_open",
                          "the entry already has an open dispute of this round", field="text")
        if filed is not None:
            raise _refuse("dispute.already_filed",
                          f"the entry's dispute #{filed.pk} of this round is resolved",
                          field="text", dispute=filed.pk)
        dispute = Dispute.objects.create(round=rnd, entry=entry, text=text.strip())
        work.record(dispute=dispute.pk)
    return dispute


def dispute_resolve(*, dispute: Dispute, uphold: bool, resolution: str,
                    correction: ResultValues | None = None, base_version: int | None = None,
                    user: Any = None) -> Dispute:
    """Uphold or reject a dispute; upholding may correct the result (reason "dispute #n").

    The resolution is emailed to the entrant after the commit; the correction's notice makes
    every ranking show the corrected result.
    """
    with unit_of_work(DISPUTE_RESOLVED, championship=dispute.round.event.championship,
                      user=user, round=dispute.round) as work:
        dispute = _resolve(dispute, uphold=uphold, resolution=resolution,
                           correction=correction, base_version=base_version, user=user)
        work.record(entry=dispute.entry.number, dispute=dispute.pk,
                    status=dispute.status, corrected=correction is not None)
        _mail_resolution(dispute)
    return dispute


def _resolve(dispute: Dispute, *, uphold: bool, resolution: str,
             correction: ResultValues | None, base_version: int | None, user: Any) -> Dispute:
    dispute = Dispute.objects.select_for_update().select_related(
        "round__event__championship", "entry").get(pk=dispute.pk)
    if dispute.status != DisputeStatus.OPEN:
        raise _refuse("dispute.already_resolved", f"dispute #{dispute.pk} is already resolved",
                      field="status", dispute=dispute.pk)
    if not resolution.strip():
        raise _refuse("dispute.resolution_required", "say how the dispute was resolved",
                      field="resolution")
    if correction is not None and not uphold:
        raise _refuse("dispute.correction_needs_uphold",
                      "a rejected dispute leaves the result as it is", field="correction")
    if correction is not None:
        result_correct(round=dispute.round, entry=dispute.entry, values=correction,
                       reason=f"dispute #{dispute.pk}: {resolution.strip()}",
                       base_version=base_version, user=user)
    dispute.status = DisputeStatus.UPHELD if uphold else DisputeStatus.REJECTED
    dispute.resolution = resolution.strip()
    dispute.resolved_by = user if getattr(user, "is_authenticated", False) else None
    dispute.resolved_at = timezone.now()
    dispute.save(update_fields=["status", "resolution", "resolved_by", "resolved_at"])
    return dispute


def resolution_recipients(dispute: Dispute) -> list[str]:
    """Whom the ruling of a dispute is emailed to: the entry's addresses, none when it has
    none (a team registered without one) or the organiser or the entrant turned such emails
    off; the head judge is then told to give the ruling in person."""
    recipients = contacts_of(dispute.entry)
    if not recipients or not entrant_emails_wanted(dispute.entry,
                                                   dispute.round.event.championship):
        return []
    return recipients


def _mail_resolution(dispute: Dispute) -> None:
    """Email the entrant how their dispute ended (written now, in the entry's own language,
    sent after the commit), unless nobody is to be emailed (`resolution_recipients`)."""
    recipients = resolution_recipients(dispute)
    if not recipients:
        return
    context = {"dispute": dispute, "entry": dispute.entry, "round": dispute.round,
               "event": dispute.round.event, "championship": dispute.round.event.championship,
               "site_url": settings.SITE_URL}
    with translation.override(entrant_language(dispute.entry)):
        subject = render_to_string("public/disputes/email_resolved_subject.txt", context)
        body = render_to_string("public/disputes/email_resolved.txt", context)
    message = EmailMessage(" ".join(subject.split()), body, to=recipients)
    transaction.on_commit(message.send)


def result_correct(*, round: Round, entry: Entry, values: ResultValues, reason: str,
                   base_version: int | None, user: Any = None) -> Result:
    """The head judge's correction of a result, with a required reason.

    `base_version` is the version the head judge saw, so a change made meanwhile by a judge
    raises ResultConflict instead of being overwritten. The entry's granted time credit is
    kept. Final results are not corrected.
    """
    if not reason.strip():
        raise _refuse("result.reason_required", "say why the result is corrected",
                      entry=str(entry.number), field="reason")
    if round.state == RoundState.FINAL:
        raise _refuse("result.round_final", "the round's results are final", field="round")
    values = dataclasses.replace(values, time_credit=time_credit_of(round, entry))
    return result_submit(round=round, entry=entry, values=values, action="correct",
                         reason=reason.strip(), base_version=base_version, user=user,
                         looked_at=True).result


def result_looked_at(*, round: Round, entry: Entry, base_version: int,
                     user: Any = None) -> Result:
    """The head judge looked again at a result the queue flagged and keeps it as it is.

    Issue 15, plausibility warnings: the reasons leave the queue and stay in the audit log.
    ResultConflict when the result changed since the head judge saw it (`base_version`).
    """
    rnd = round
    with unit_of_work(RESULT_LOOKED_AT, championship=rnd.event.championship, user=user,
                      round=rnd, entry=entry.number) as work:
        row = Result.objects.select_for_update().filter(round=rnd, entry=entry).first()
        if row is None or row.version != base_version:
            raise ResultConflict(row, base_version)
        if not row.second_looks:
            work.nothing_changed()
            return row
        work.record(reasons=[look["code"] for look in row.second_looks])
        row.second_looks = []
        row.save(update_fields=["second_looks"])
    return row


def values_of(row: Result) -> ResultValues:
    """A stored result as the values a write takes."""
    stored = {name: getattr(row, name) for name in RESULT_FIELDS}
    return ResultValues(**{**stored, "status": Status(row.status)})


def time_credit_grant(*, round: Round, entry: Entry, seconds: int, reason: str,
                      user: Any = None) -> int:
    """Give an entry seconds of credit for time lost through the organisation's mistake
    (0 takes a credit back); the credit extends the entry's own limit and is subtracted from
    its time.

    wjpc-2025.txt, Start of the round: a wrong puzzle handed out. The credit in force is kept
    on the entry's seat, so it holds before the entry has a result, and every grant in
    TimeCreditGrant; a result already stored is rewritten with the credit (the engine checks
    it against the recorded time). The rounds that take credits are the ruleset's
    `time_credits` (rules/credits.py, the rule every path applies; docs/rulesets.md).
    """
    rnd = round
    refused = time_credit_refused(rnd, seconds=seconds, entry=str(entry.number))
    if refused is not None:
        raise RulesError(refused)
    if not reason.strip():
        raise _refuse("result.reason_required", "say why the entry gets a time credit",
                      entry=str(entry.number), field="reason")
    if seconds < 0:
        raise _refuse("result.negative", "a time credit is not negative",
                      entry=str(entry.number), field="time_credit")
    if entry.event_id != rnd.event_id:
        raise _refuse("result.entry_not_in_event", f"entry {entry.number} is not in this event",
                      entry=str(entry.number), field="entry")
    if rnd.state == RoundState.FINAL:
        raise _refuse("result.round_final", "the round's results are final", field="round")
    with unit_of_work(TIME_CREDIT_GRANTED, championship=rnd.event.championship, user=user,
                      round=rnd, entry=entry.number, seconds=seconds,
                      reason=reason.strip()) as work:
        if not Seat.objects.filter(round=rnd, entry=entry).update(time_credit=seconds):
            raise _refuse("result.not_seated",
                          f"entry {entry.number} has no seat in this round",
                          entry=str(entry.number), field="entry")
        TimeCreditGrant.objects.create(round=rnd, entry=entry, seconds=seconds,
                                       reason=reason.strip(), granted_by=work.user)
        row = Result.objects.filter(round=rnd, entry=entry).first()
        if row is not None and row.time_credit != seconds:
            result_submit(round=rnd, entry=entry,
                          values=dataclasses.replace(values_of(row), time_credit=seconds),
                          action="credit", reason=reason.strip(), base_version=row.version,
                          user=user)
    return seconds
