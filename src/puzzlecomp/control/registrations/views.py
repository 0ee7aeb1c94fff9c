"""Organiser screens for registrations: entry lists, payments, cancellations, waiting list, draw."""

from __future__ import annotations

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _

from puzzlecomp.championships.engine import with_members
from puzzlecomp.championships.messages import violation_message
from puzzlecomp.championships.models import Championship, Entry, Event, Role
from puzzlecomp.championships.roles import requires_role
from puzzlecomp.championships.selectors.registration import (
    age_categories,
    entry_currency,
    entry_refund,
    entry_rows,
    event_currency,
    event_registration,
    event_rules,
    registration_overview,
    relay_draws,
    relay_pool,
    waiting_entries,
)
from puzzlecomp.championships.services.registration import (
    entry_cancel,
    entry_payment_record,
    waiting_list_promote,
)
from puzzlecomp.championships.services.relay import pool_label, relay_teams_draw
from puzzlecomp.control.registrations.entry_table import entry_table_rows
from puzzlecomp.control.registrations.forms import DrawForm, EntryFilterForm, PaymentForm
from puzzlecomp.rules.errors import RulesError

ENTRIES_PER_PAGE = 100


def _event(championship: Championship, event_code: str) -> Event:
    return get_object_or_404(Event, championship=championship, code=event_code)


def _entry(championship: Championship, event_code: str, number: int) -> Entry:
    return get_object_or_404(Entry.objects.select_related("event__championship"),
                             event__championship=championship, event__code=event_code,
                             number=number)


def _refused(request: HttpRequest, refused: RulesError, event: Event) -> None:
    for violation in refused.violations:
        messages.error(request, violation_message(violation, event=event.name))


@requires_role(Role.ORGANISER)
def index(request: HttpRequest, championship: Championship) -> HttpResponse:
    """Registration state of every event."""
    return render(request, "control/registrations/index.html", {
        "championship": championship,
        "events": registration_overview(championship=championship, now=timezone.now()),
    })


@requires_role(Role.ORGANISER)
def event_entries(request: HttpRequest, championship: Championship,
                  event_code: str) -> HttpResponse:
    """The entries of one event with status, categories, fee due and paid: searched,
    filtered and a page at a time."""
    event = _event(championship, event_code)
    everything = entry_rows(event=event)
    ruleset, spec = event_rules(event)
    chosen = EntryFilterForm(request.GET or None,
                             categories=[c.name for c in age_categories(spec)],
                             foreign=ruleset.official_ranking is not None)
    rows = chosen.apply(everything)
    page = Paginator(rows, ENTRIES_PER_PAGE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(request, "control/registrations/event.html", {
        "championship": championship, "event": event, "page": page, "filter": chosen,
        "found": len(rows), "total": len(everything), "query": query.urlencode(),
        "age_column": "category" in chosen.fields, "foreign_column": "foreign" in chosen.fields,
        "table_rows": entry_table_rows(
            page.object_list, championship=championship, event=event,
            default_currency=event_currency(event), age_column="category" in chosen.fields,
            foreign_column="foreign" in chosen.fields),
        "waiting": waiting_entries(event=event).count(),
        "overview": event_registration(event=event, now=timezone.now()),
    })


@requires_role(Role.ORGANISER)
def payment(request: HttpRequest, championship: Championship, event_code: str,
            number: int) -> HttpResponse:
    """Record a payment received for an entry."""
    entry = _entry(championship, event_code, number)
    currency = entry_currency(entry)
    form = PaymentForm(request.POST or None, currency=currency)
    if request.method == "POST" and form.is_valid():
        try:
            entry = entry_payment_record(entry=entry, by=request.user, **form.cleaned_data)
        except RulesError as refused:
            _refused(request, refused, entry.event)
        else:
            messages.success(request, _("Payment recorded for entry %(number)s.")
                             % {"number": entry.number})
            return redirect("control:registrations:event", championship.slug, event_code)
    return render(request, "control/registrations/payment.html", {
        "championship": championship, "entry": entry, "form": form, "currency": currency,
    })


@requires_role(Role.ORGANISER)
def cancel(request: HttpRequest, championship: Championship, event_code: str,
           number: int) -> HttpResponse:
    """Cancel an entry; the page shows the refund the rulebook allows today."""
    entry = _entry(championship, event_code, number)
    if request.method == "POST":
        try:
            refund = entry_cancel(entry=entry, by=request.user)
        except RulesError as refused:
            _refused(request, refused, entry.event)
        else:
            messages.success(request, _("Entry %(number)s cancelled; refund %(amount)s "
                                        "%(currency)s.") % {
                "number": entry.number, "amount": refund.amount.amount,
                "currency": refund.amount.currency})
        return redirect("control:registrations:event", championship.slug, event_code)
    refund = entry_refund(entry=entry, on=timezone.localdate())
    return render(request, "control/registrations/cancel.html", {
        "championship": championship, "entry": entry, "refund": refund,
        "reason": refund.refusal and violation_message(refund.refusal),
    })


@requires_role(Role.ORGANISER)
def promote(request: HttpRequest, championship: Championship, event_code: str) -> HttpResponse:
    """Give a free place to the first entry on the waiting list."""
    event = _event(championship, event_code)
    if request.method == "POST":
        try:
            entry = waiting_list_promote(event=event, by=request.user)
        except RulesError as refused:
            _refused(request, refused, event)
        else:
            messages.success(request, _("Entry %(number)s moved from the waiting list to "
                                        "confirmed.") % {"number": entry.number})
        return redirect("control:registrations:event", championship.slug, event_code)
    return render(request, "control/registrations/promote.html", {
        "championship": championship, "event": event,
        "waiting": waiting_entries(event=event).prefetch_related(with_members()),
    })


@requires_role(Role.ORGANISER)
def draw(request: HttpRequest, championship: Championship, event_code: str) -> HttpResponse:
    """Draw relay teams from the people registered alone, with a recorded seed."""
    event = _event(championship, event_code)
    form = DrawForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            result = relay_teams_draw(event=event, by=request.user, **form.cleaned_data)
        except RulesError as refused:
            _refused(request, refused, event)
        else:
            messages.success(request, _("Drew %(teams)s teams with seed %(seed)s; %(left)s "
                                        "left over.") % {
                "teams": len(result.teams), "seed": result.draw.seed,
                "left": len(result.left_over)})
            return redirect("control:registrations:draw", championship.slug, event_code)
    return render(request, "control/registrations/draw.html", {
        "championship": championship, "event": event, "form": form,
        "pool": [pool_label(entry) for entry in relay_pool(event=event)],
        "draws": relay_draws(event=event),
    })
