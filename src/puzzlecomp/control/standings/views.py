"""An event's standings and awards for the organisers, the ceremony papers and publishing.

Each view parses, authorises, reads `selectors.standings` (or calls one service) and renders.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from puzzlecomp.championships.messages import messages_of
from puzzlecomp.championships.models import Championship, Event, Role
from puzzlecomp.championships.printing.ceremony import (
    ceremony_file_name,
    ceremony_list_pdf,
    certificates_pdf,
)
from puzzlecomp.championships.roles import requires_role, role_of
from puzzlecomp.championships.selectors.results_package import certificate_codes
from puzzlecomp.championships.selectors.rounds import event_rounds_to_come
from puzzlecomp.championships.selectors.standings import EventStandings, event_standings_get
from puzzlecomp.championships.services.results_package import results_package_issue
from puzzlecomp.championships.services.standings import event_standings_publish
from puzzlecomp.championships.services.tiebreakers import tiebreaker_round_create
from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.subcategories import OVERALL


def _event(championship: Championship, code: str) -> Event:
    return get_object_or_404(Event.objects.select_related("championship"),
                             championship=championship, code=code)


def _read(request: HttpRequest, event: Event) -> EventStandings | None:
    """The event's standings, or None with the engine's refusal as error messages."""
    try:
        return event_standings_get(event=event)
    except RulesError as error:
        for text in messages_of(error, name_entry=True):
            messages.error(request, text)
        return None


def _page(request: HttpRequest, championship: Championship, event: Event,
          template: str, **context: Any) -> HttpResponse:
    role = role_of(request.user, championship)
    return render(request, template, {
        "championship": championship, "event": event, "events": championship.events.all(),
        "organiser": role is not None and role <= Role.ORGANISER,
        "rounds_to_come": event_rounds_to_come(event.pk), **context})


@requires_role(Role.JUDGE)
def index(request: HttpRequest, championship: Championship) -> HttpResponse:
    first = championship.events.first()
    if first is None:
        raise Http404
    return redirect("control:standings:standings", championship.slug, first.code)


@requires_role(Role.JUDGE)
def standings(request: HttpRequest, championship: Championship, event: str) -> HttpResponse:
    """The event's standings overall or in one subcategory (?category=)."""
    chosen = _event(championship, event)
    found = _read(request, chosen)
    category = request.GET.get("category", OVERALL)
    rows = []
    if found is not None:
        try:
            rows = found.rows(category, public=False)
        except RulesError:
            raise Http404 from None
    return _page(request, championship, chosen, "control/standings/standings.html",
                 standings=found, category=category, rows=rows)


@requires_role(Role.JUDGE)
def awards(request: HttpRequest, championship: Championship, event: str) -> HttpResponse:
    """Who takes each prize, category by category, with the ceremony papers."""
    chosen = _event(championship, event)
    found = _read(request, chosen)
    sections = []
    if found is not None:
        try:
            awards = found.award_rows(public=False)
        except RulesError as error:
            for text in messages_of(error, name_entry=True):
                messages.error(request, text)
            awards = []
        for category in found.categories:
            rows = [award for award in awards if award.category == category.id]
            if rows:
                sections.append({"category": category, "rows": rows})
    to_hold = found.tiebreakers_to_hold() if found is not None else []
    return _page(request, championship, chosen, "control/standings/awards.html",
                 standings=found, sections=sections, to_hold=to_hold)


@requires_role(Role.ORGANISER)
@require_POST
def tiebreaker_hold(request: HttpRequest, championship: Championship, event: str,
                    category: str) -> HttpResponse:
    """Make the subcategory's tiebreaker round, its called entrants seated."""
    chosen = _event(championship, event)
    try:
        rnd = tiebreaker_round_create(event=chosen, category=category, user=request.user)
    except RulesError as error:
        for text in messages_of(error, name_entry=True):
            messages.error(request, text)
    else:
        messages.success(request, _("%(round)s is ready: its entrants are seated; record its "
                                    "results as for any round.") % {"round": rnd.display_name})
    return redirect("control:standings:awards", championship.slug, chosen.code)


@requires_role(Role.ORGANISER)
@require_POST
def publish(request: HttpRequest, championship: Championship, event: str) -> HttpResponse:
    chosen = _event(championship, event)
    published = request.POST.get("published") == "yes"
    try:
        knowingly = int(request.POST.get("knowingly", ""))
    except ValueError:
        knowingly = None
    try:
        event_standings_publish(event=chosen, published=published, user=request.user,
                                knowingly=knowingly)
    except RulesError as refused:
        for text in messages_of(refused):
            messages.error(request, text)
    else:
        _published_message(request, chosen, published)
    return redirect("control:standings:standings", championship.slug, chosen.code)


def _published_message(request: HttpRequest, chosen: Event, published: bool) -> None:
    if published:
        messages.success(request, _("The standings of %(event)s are public.")
                         % {"event": chosen.display_name})
    else:
        messages.info(request, _("The standings of %(event)s are no longer public.")
                      % {"event": chosen.display_name})


def _pdf(content: bytes, name: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{name}.pdf"'
    return response


def _papers(request: HttpRequest, championship: Championship, event: str,
            build: Any) -> HttpResponse:
    """A ceremony PDF built from the standings, or back to the awards with the refusal."""
    chosen = _event(championship, event)
    found = _read(request, chosen)
    if found is not None and found.still_to_come:
        messages.error(request, found.still_to_come)
    elif found is not None:
        try:
            return build(found)  # type: ignore[no-any-return]
        except RulesError as error:
            for text in messages_of(error, name_entry=True):
                messages.error(request, text)
    return redirect("control:standings:awards", championship.slug, chosen.code)


@requires_role(Role.JUDGE)
def ceremony_pdf(request: HttpRequest, championship: Championship, event: str) -> HttpResponse:
    """The list the presenter reads from: per category, place, name, country and prize."""
    return _papers(request, championship, event, lambda found: _pdf(
        ceremony_list_pdf(found), ceremony_file_name(found, "ceremony")))


@requires_role(Role.JUDGE)
def certificates(request: HttpRequest, championship: Championship, event: str,
                 category: str | None = None, entry: int | None = None) -> HttpResponse:
    """A certificate for one prize winner, or for every prize of the event in one file."""

    def build(found: EventStandings) -> HttpResponse:
        chosen = [a for a in found.award_rows(public=False) if entry is None
                  or (a.category == category and a.entry == entry)]
        if not chosen:
            raise Http404
        what = "certificates" if entry is None else f"certificate-{category}-{entry}"
        # Printing certificates issues the event's signed package (the one there is when
        # nothing changed): each certificate's code is its winner's result in it.
        issued = results_package_issue(championship=championship, event_code=found.event.code,
                                       user=request.user)
        return _pdf(certificates_pdf(
            found, chosen, codes=certificate_codes(issued, found.prizes.round_id),
            verify_url=settings.SITE_URL.rstrip("/") + reverse("public:packages:verify")),
            ceremony_file_name(found, what))

    return _papers(request, championship, event, build)
