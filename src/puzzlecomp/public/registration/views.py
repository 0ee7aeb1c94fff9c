"""Public registration: the events open for registration, the form, and email confirmation."""

from __future__ import annotations

import contextlib

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _

from puzzlecomp.championships.models import Championship, Entry, EntryStatus, Event, PersonClaim
from puzzlecomp.championships.ruleset_texts import ruleset_text
from puzzlecomp.championships.selectors.registration import (
    event_period,
    outside_official_ranking,
    registration_overview,
)
from puzzlecomp.championships.services.claims import claim_owner_confirm, claim_registrant_confirm
from puzzlecomp.championships.services.people import PeopleRefused
from puzzlecomp.championships.services.registration import entry_confirm, entry_register
from puzzlecomp.championships.throttle import client_address, throttle_hit
from puzzlecomp.public.registration.forms import RegistrationForm
from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.loading import load_ruleset

SENT = "registration_sent"


def index(request: HttpRequest, slug: str) -> HttpResponse:
    """Each event with its registration period, free places and fee today."""
    championship = get_object_or_404(Championship, slug=slug, published=True)
    return render(request, "public/registration/index.html", {
        "championship": championship,
        "events": registration_overview(championship=championship, now=timezone.now()),
        "now": timezone.now(),
        "official_ranking": _official_ranking(championship),
    })


def _official_ranking(championship: Championship) -> str | None:
    """Who competes for the official ranking, in the ruleset's words; None: everybody."""
    official = load_ruleset(championship.ruleset_id).official_ranking
    return ruleset_text(official.description) if official else None


def register(request: HttpRequest, slug: str, event_code: str) -> HttpResponse:
    """The registration form of one event; refusals are shown with the rule's reason."""
    event = get_object_or_404(Event.objects.select_related("championship"), code=event_code,
                              championship__slug=slug, championship__published=True)
    period, now = event_period(event), timezone.now()
    if not _window_open(event):
        # A closed event (its window over, or its only round started) says so at once: the
        # form is not offered, and a form sent from an old page is refused the same way.
        return render(request, "public/registration/form.html", {
            "championship": event.championship, "event": event, "closed": True,
            "period": period, "not_yet": period.opens is not None and now < period.opens,
        })
    form = RegistrationForm(event, request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid() and not form.ask_known_people():
        if _too_many(request, form):
            form.errors.append(_("Too many registrations from here. Try again in an hour."))
            return render(request, "public/registration/form.html", {
                "championship": event.championship, "event": event, "form": form,
            }, status=429)
        try:
            registration = entry_register(event=event, members=form.details(),
                                          team_name=form.team_name_value(),
                                          claimed=form.claimed())
        except RulesError as refused:
            form.add_violations(refused.violations)
        else:
            request.session[SENT] = [registration.entry.pk, registration.outcome]
            return redirect("public:registration:sent", slug=slug)
    return render(request, "public/registration/form.html", {
        "championship": event.championship, "event": event, "form": form,
        "official_ranking": _official_ranking(event.championship),
    })


def _window_open(event: Event) -> bool:
    """Registration is open now: "Is this you?" is asked only then (a closed window refuses the
    entry anyway, and the question would name the archive's people for nothing)."""
    period, now = event_period(event), timezone.now()
    return (period.opens is None or period.opens <= now) and now < period.closes


def _too_many(request: HttpRequest, form: RegistrationForm) -> bool:
    """Each registration mails a confirmation: limit them per address and per email address."""
    limit = settings.REGISTRATIONS_PER_HOUR
    by_address = throttle_hit("registration", [f"ip:{client_address(request)}"], limit)
    by_email = throttle_hit("registration",
                            [f"email:{member.email}" for member in form.details()],
                            max(1, limit // 4))
    return by_address or by_email


def sent(request: HttpRequest, slug: str) -> HttpResponse:
    """After registering: check your email (only for the browser that registered)."""
    championship = get_object_or_404(Championship, slug=slug, published=True)
    entry_pk, outcome = request.session.get(SENT, (None, None))
    entry = get_object_or_404(Entry, pk=entry_pk, event__championship=championship)
    return render(request, "public/registration/sent.html", {
        "championship": championship, "entry": entry, "outcome": outcome,
        "outside_official": outside_official_ranking(entry),
    })


def confirm(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The emailed link: shows the entry and a button; confirming twice changes nothing."""
    entry = get_object_or_404(Entry.objects.select_related("event__championship"), token=token,
                              event__championship__slug=slug)
    if request.method == "POST":
        entry_confirm(entry=entry)
        return redirect("public:registration:confirm", slug=slug, token=token)
    return render(request, "public/registration/confirm.html", {
        "championship": entry.event.championship, "entry": entry,
        "outside_official": outside_official_ranking(entry),
    })


def claim(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The link mailed to a known person's own address: they confirm that a registrant is
    them. The page names nobody: the link's holder is the person."""
    found = get_object_or_404(PersonClaim.objects.select_related(
        "member__entry__event__championship"), owner_token=token,
        member__entry__event__championship__slug=slug)
    if request.method == "POST" and found.state == PersonClaim.State.WAITING:
        with contextlib.suppress(PeopleRefused):  # decided meanwhile: the page shows how
            claim_owner_confirm(claim=found)
        return redirect("public:registration:claim", slug=slug, token=token)
    return render(request, "public/registration/claim.html", {
        "championship": found.member.entry.event.championship, "claim": found,
        "event": found.member.entry.event,
    })


def link(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The link mailed to an entrant an organiser linked to a person of the archive: they
    confirm that those results are theirs. Until then nothing changes (services/claims.py)."""
    found = get_object_or_404(PersonClaim.objects.select_related(
        "person", "member__entry__event__championship"), registrant_token=token,
        member__entry__event__championship__slug=slug)
    cancelled = found.member.entry.status == EntryStatus.CANCELLED
    if (request.method == "POST" and found.state == PersonClaim.State.WAITING
            and found.registrant_confirmed_at is None and not cancelled):
        with contextlib.suppress(PeopleRefused):  # decided meanwhile: the page shows how
            claim_registrant_confirm(claim=found)
        return redirect("public:registration:link", slug=slug, token=token)
    return render(request, "public/registration/link.html", {
        "championship": found.member.entry.event.championship, "claim": found,
        "event": found.member.entry.event, "cancelled": cancelled,
    })
