"""The check-in desk: organisers find an entrant by name, number or QR code and record them
present, late or a no-show; the ruleset's no-show rule offers the missing ones' tables."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from puzzlecomp.championships.messages import messages_of
from puzzlecomp.championships.models import Championship, CheckInStatus, Entry, Role, Round
from puzzlecomp.championships.printing import DeskLine, Heading, check_in_list_pdf
from puzzlecomp.championships.roles import requires_role
from puzzlecomp.championships.selectors.check_in import (
    desk_get,
    desk_search,
    entry_by_link,
    replacement_candidates,
)
from puzzlecomp.championships.services.check_in import entry_check_in
from puzzlecomp.championships.services.seating import seat_no_show
from puzzlecomp.control.check_in.forms import CheckInForm, ReplaceForm
from puzzlecomp.planning import PlanningError
from puzzlecomp.rules.errors import RulesError

PAGE_SIZE = 50
# The desk's filters: every entrant, those still to come, or one status.
FILTERS = ("all", "none", "offered", *CheckInStatus.values)


def _round(championship: Championship, round_id: int) -> Round:
    return get_object_or_404(Round.objects.select_related("event__championship"),
                             pk=round_id, event__championship=championship)


def _entry(rnd: Round, number: int) -> Entry:
    return get_object_or_404(Entry, event=rnd.event, number=number)


def _desk_url(championship: Championship, rnd: Round, query: str = "") -> str:
    url = reverse("control:check_in:desk", args=[championship.slug, rnd.pk])
    return f"{url}?{urlencode({'q': query})}" if query else url


@requires_role(Role.ORGANISER)
def index(request: HttpRequest, championship: Championship) -> HttpResponse:
    """The rounds to check entrants in for, the next one to start first."""
    rounds = (Round.objects.filter(event__championship=championship)
              .select_related("event").order_by("starts_at", "event__position", "position"))
    return render(request, "control/check_in/index.html", {
        "championship": championship, "rounds": rounds})


@requires_role(Role.ORGANISER)
def desk(request: HttpRequest, championship: Championship, round_id: int) -> HttpResponse:
    """The desk: search, filter and page through the round's entrants and check them in."""
    rnd = _round(championship, round_id)
    query = request.GET.get("q", "").strip()
    shown = request.GET.get("show", "all")
    shown = shown if shown in FILTERS else "all"
    scanned = entry_by_link(championship, query) if query else None
    if scanned is not None and scanned.event_id == rnd.event_id:
        query = str(scanned.number)
    current = desk_get(rnd, now=timezone.now())
    groups = sorted({line.group for line in current.lines if line.group})
    group = request.GET.get("group", "")
    lines = desk_search(current.lines, query)
    if group in groups:
        lines = [line for line in lines if line.group == group]
    if shown == "offered":
        lines = [line for line in lines if line.offered]
    elif shown != "all":
        lines = [line for line in lines if (line.status or "none") == shown]
    page = Paginator(lines, PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "control/check_in/desk.html", {
        "championship": championship, "round": rnd, "desk": current, "page": page,
        "query": query, "shown": shown, "filters": _filters(current.counts),
        "groups": groups if len(groups) > 1 else [], "group": group,
        "scanned_elsewhere": scanned is not None and scanned.event_id != rnd.event_id,
        "statuses": [(v, label) for v, label in CheckInStatus.choices
                     if v != CheckInStatus.REPLACED],
        "other_rounds": Round.objects.filter(event__championship=championship)
        .exclude(pk=rnd.pk).select_related("event"),
    })


def _filters(counts: dict[str, int]) -> list[tuple[str, str, int]]:
    labels = {"all": _("All"), "none": _("Not checked in"), "offered": _("May be replaced"),
              **dict(CheckInStatus.choices)}
    return [(key, str(labels[key]), counts.get(key, 0)) for key in FILTERS
            if key != "offered" or counts["offered"]]


@requires_role(Role.ORGANISER)
@require_POST
def check_in(request: HttpRequest, championship: Championship, round_id: int,
             number: int) -> HttpResponse:
    """Record one entrant's status, then back to an empty search for the next one."""
    rnd = _round(championship, round_id)
    entry = _entry(rnd, number)
    form = CheckInForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose present, late or no-show."))
        return redirect(_desk_url(championship, rnd, str(number)))
    status = form.cleaned_data["status"]
    try:
        entry_check_in(round=rnd, entry=entry, status=status, by=request.user)
    except RulesError as refused:
        for text in messages_of(refused):
            messages.error(request, text)
        return redirect(_desk_url(championship, rnd, str(number)))
    messages.success(request, _("%(number)s %(name)s: %(status)s.") % {
        "number": entry.number, "name": entry.name,
        "status": CheckInStatus(status).label})
    return redirect(_desk_url(championship, rnd))


@requires_role(Role.ORGANISER)
def replace(request: HttpRequest, championship: Championship, round_id: int,
            number: int) -> HttpResponse:
    """Give a no-show's table to an entry from the waiting list (or a spare entry)."""
    rnd = _round(championship, round_id)
    entry = _entry(rnd, number)
    candidates = replacement_candidates(rnd)
    form = ReplaceForm(candidates, request.POST or None)
    if request.method == "POST" and form.is_valid():
        replacement = _entry(rnd, form.cleaned_data["replacement"])
        try:
            seat_no_show(round=rnd, no_show=entry, replacement=replacement, user=request.user)
        except (RulesError, PlanningError) as refused:
            for text in messages_of(refused):
                messages.error(request, text)
        else:
            messages.success(request, _("Entry %(replacement)s takes the table of entry "
                                        "%(number)s.") % {"replacement": replacement.number,
                                                          "number": entry.number})
            return redirect(_desk_url(championship, rnd))
    line = next((ln for ln in desk_get(rnd, now=timezone.now()).lines
                 if ln.number == entry.number), None)
    return render(request, "control/check_in/replace.html", {
        "championship": championship, "round": rnd, "entry": entry, "line": line,
        "form": form, "candidates": candidates,
    })


@requires_role(Role.ORGANISER)
def desk_list(request: HttpRequest, championship: Championship, round_id: int) -> HttpResponse:
    """The desk's printed list of the round's entrants, sorted by name (a PDF)."""
    rnd = _round(championship, round_id)
    lines = [DeskLine(line.name, line.number, line.country, line.group, line.table)
             for line in desk_get(rnd, now=timezone.now()).lines]
    heading = Heading(championship.name, rnd.event.display_name, rnd.display_name, "")
    content = check_in_list_pdf(heading=heading, lines=lines)
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = (
        f'attachment; filename="check-in-{rnd.event.code}-{rnd.code}.pdf"')
    return response
