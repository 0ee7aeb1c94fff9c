"""Emails to an entrant's own address when their result is published and when the head judge
rules on their dispute.

Optional twice over: the organiser may turn them off for the championship, and each entrant
on their own page (the private link of their registration emails). Written in the language
of the request that publishes, sent after the commit: a publication rolled back mails no one.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation

from puzzlecomp.championships.actions import ENTRANT_EMAILS_SET, ENTRY_EMAILS_CHOSEN
from puzzlecomp.championships.engine import round_ranking
from puzzlecomp.championships.messages import STATUS_LABELS
from puzzlecomp.championships.models import Championship, Entry, Round
from puzzlecomp.championships.selectors.planning import contacts_of
from puzzlecomp.championships.selectors.rounds import dispute_window_ends
from puzzlecomp.championships.services.registration import entrant_link
from puzzlecomp.championships.services.work import unit_of_work
from puzzlecomp.championships.time_zones import championship_zone
from puzzlecomp.rules.ranking import RankedEntry
from puzzlecomp.rules.results import Status
from puzzlecomp.rules.times import format_time


def entrant_emails_wanted(entry: Entry, championship: Championship) -> bool:
    """Whether the entrant is emailed their results: the organiser sends them and the entrant
    has not turned them off."""
    return championship.entrant_emails and entry.result_emails


def entry_emails_choose(*, entry: Entry, wanted: bool) -> Entry:
    """The entrant turns the emails of their results and rulings on or off (their own page)."""
    with unit_of_work(ENTRY_EMAILS_CHOSEN, championship=entry.event.championship,
                      entry=entry.number, event=entry.event.code, wanted=wanted) as work:
        if not Entry.objects.filter(pk=entry.pk).exclude(result_emails=wanted).update(
                result_emails=wanted):
            work.nothing_changed()
    entry.result_emails = wanted
    return entry


def entrant_emails_set(*, championship: Championship, enabled: bool, by: Any = None) -> None:
    """The organiser turns the emails of results and rulings on or off for every entrant."""
    with unit_of_work(ENTRANT_EMAILS_SET, championship=championship, user=by,
                      enabled=enabled) as work:
        if not Championship.objects.filter(pk=championship.pk).exclude(
                entrant_emails=enabled).update(entrant_emails=enabled):
            work.nothing_changed()
    championship.entrant_emails = enabled


def results_published_mail(rnd: Round) -> None:
    """After the commit, email every entrant with a result in the round their place and
    result (those who want them); the ranking is read then, as every page shows it."""
    language = translation.get_language()
    round_id = rnd.pk

    def send() -> None:
        fresh = Round.objects.select_related("event__championship").get(pk=round_id)
        with translation.override(language):
            messages = result_emails(fresh)
        if messages:
            get_connection().send_messages(messages)

    # robust: a mail server that refuses leaves the publication done (and logs the error).
    transaction.on_commit(send, robust=True)


def result_emails(rnd: Round) -> list[EmailMessage]:
    """One email per entrant of the round who wants them: the championship, its date and
    venue, their place and result, the dispute window and their own page."""
    championship = rnd.event.championship
    if not championship.entrant_emails:
        return []
    lines = {int(line.entry.id): line for line in round_ranking(rnd).lines}
    entries = (Entry.objects.filter(event=rnd.event, results__round=rnd, result_emails=True)
               .select_related("event__championship").prefetch_related("members__person"))
    window_ends = dispute_window_ends(rnd)
    messages = []
    for entry in entries:
        recipients = contacts_of(entry)
        line = lines.get(entry.number)
        if not recipients or line is None:
            continue
        # In the language the entry registered in (else the publisher's), times in the
        # championship's zone, whatever page or process sends the emails.
        with translation.override(entrant_language(entry)), \
                timezone.override(championship_zone(championship)):
            context = {"championship": championship, "event": rnd.event, "round": rnd,
                       "entry": entry, "place": line.rank, "group": line.entry.group,
                       # None: the ruleset has no official ranking; False: outside it.
                       "official": line.eligible, "official_place": line.official_rank,
                       "result": result_words(line), "window_ends": window_ends,
                       "entrant_link": entrant_link(entry)}
            subject = render_to_string("emails/result_published_subject.txt", context)
            body = render_to_string("emails/result_published.txt", context)
        messages.append(EmailMessage(" ".join(subject.split()), body, to=recipients))
    return messages


def entrant_language(entry: Entry) -> str | None:
    """The language to write to an entry in: the one it registered in, when the site speaks
    it; None keeps the language in force (the publisher's)."""
    spoken = {code for code, _name in settings.LANGUAGES}
    return entry.language if entry.language in spoken else translation.get_language()


def result_words(line: RankedEntry) -> str:
    """A result in a few words: the final time of a finish, else the pieces counted or how it
    ended."""
    score = line.score
    if score.status is Status.FINISHED and score.final_time is not None:
        return format_time(score.final_time)
    words = str(STATUS_LABELS.get(str(score.status), score.status))
    if score.status is Status.UNFINISHED and score.pieces is not None:
        return f"{words} ({score.pieces})"
    return words
