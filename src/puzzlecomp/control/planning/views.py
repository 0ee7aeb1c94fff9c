"""Groups, seating and printing screens: each view parses, authorises, calls one service."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from puzzlecomp.championships.engine import ruleset_of
from puzzlecomp.championships.messages import form_errors_to_messages, message_of, messages_of
from puzzlecomp.championships.models import Championship, Entry, Role, Round
from puzzlecomp.championships.printing import (
    Heading,
    ListLine,
    participant_list_pdf,
    result_sheets_pdf,
    sheet_rules_get,
    table_cards_pdf,
)
from puzzlecomp.championships.roles import requires_role, role_of
from puzzlecomp.championships.selectors import planning as selectors
from puzzlecomp.championships.selectors.group_maxima import group_maxima_warnings
from puzzlecomp.championships.services import groups as group_services
from puzzlecomp.championships.services import seating as seating_services
from puzzlecomp.championships.services.planning_backups import GROUPS, SEATING, backup_latest
from puzzlecomp.control.planning.forms import (
    GroupMoveForm,
    GroupsAssignForm,
    NoShowForm,
    SeatsSwapForm,
)
from puzzlecomp.planning import PlanningError
from puzzlecomp.rules.errors import RulesError


def _round(championship: Championship, round_id: int) -> Round:
    return get_object_or_404(Round.objects.select_related("event__championship"),
                             pk=round_id, event__championship=championship)


def _entry(rnd: Round, number: int) -> Entry:
    entry = Entry.objects.filter(event=rnd.event, number=number).first()
    if entry is None:
        raise PlanningError("groups.unknown_entry", f"There is no entry {number}.", entry=number)
    return entry


def _organiser(request: HttpRequest, championship: Championship) -> bool:
    role = role_of(request.user, championship)
    return role is not None and role <= Role.ORGANISER


def _attempt(request: HttpRequest, action: Callable[[], Any]) -> bool:
    """Run a service; its refusals become error messages for the next page."""
    try:
        action()
    except (PlanningError, RulesError) as error:
        for text in messages_of(error):
            messages.error(request, text)
        return False
    return True


@requires_role(Role.JUDGE)
def index(request: HttpRequest, championship: Championship) -> HttpResponse:
    """Every round of every event, with where its groups and seating stand."""
    events = championship.events.prefetch_related("rounds")
    return render(request, "control/planning/index.html", {
        "championship": championship, "events": events,
    })


@requires_role(Role.JUDGE)
def groups(request: HttpRequest, championship: Championship, round_id: int) -> HttpResponse:
    """The round's entries with group and table, the groups' balance and the organiser's tools."""
    rnd = _round(championship, round_id)
    first = selectors.is_first_round(rnd)
    lines = selectors.group_lines(rnd)
    return render(request, "control/planning/groups.html", {
        "championship": championship, "round": rnd, "lines": lines, "first": first,
        "balance": selectors.groups_balance_get(rnd) if first and rnd.groups else None,
        "seed": selectors.groups_seed_get(rnd), "labels": selectors.group_labels(rnd),
        "moves": selectors.group_moves_get(rnd.event),
        "undo": backup_latest(rnd, GROUPS),
        "organiser": _organiser(request, championship),
        "assign_form": GroupsAssignForm(), "move_form": GroupMoveForm(),
        "over_maximum": group_maxima_warnings(rnd, (line.group for line in lines)),
    })


def _confirm(request: HttpRequest, championship: Championship, rnd: Round, *, title: str,
             changes: list[str], action: str, fields: dict[str, Any],
             back: str) -> HttpResponse:
    """The confirmation step of a write that replaces groups or seats already made: what it
    changes, and that it can be undone until the round starts."""
    return render(request, "control/planning/confirm.html", {
        "championship": championship, "round": rnd, "title": title, "changes": changes,
        "action": action, "fields": fields, "back": back,
    })


@requires_role(Role.ORGANISER)
@require_POST
def groups_assign(request: HttpRequest, championship: Championship,
                  round_id: int) -> HttpResponse:
    """Draw the groups; over groups already drawn, first show what a new draw changes."""
    rnd = _round(championship, round_id)
    form = GroupsAssignForm(request.POST)
    if not form.is_valid():
        form_errors_to_messages(request, form)
        return redirect("control:planning:groups", championship.slug, rnd.pk)
    seed = form.cleaned_data["seed"]
    seed = random.SystemRandom().randrange(1_000_000) if seed is None else seed
    if not form.cleaned_data["confirmed"] and selectors.groups_balance_get(rnd) is not None:
        found: list[group_services.GroupsChange] = []
        if _attempt(request, lambda: found.append(
                group_services.groups_assign_preview(round=rnd, seed=seed))):
            change = found[0]
            changes = [ngettext(
                "Drawing the groups again with seed %(seed)s puts %(count)s of %(entries)s "
                "entries in another group.", "Drawing the groups again with seed %(seed)s puts "
                "%(count)s of %(entries)s entries in another group.", change.changed) % {
                "seed": seed, "count": change.changed, "entries": change.entries}]
            if change.seats:
                changes.append(ngettext("It clears the round's %(count)s seat.",
                                        "It clears the round's %(count)s seats.",
                                        change.seats) % {"count": change.seats})
            return _confirm(request, championship, rnd, title=_("Draw the groups again?"),
                            changes=changes, fields={"seed": seed},
                            action=reverse("control:planning:groups_assign",
                                           args=[championship.slug, rnd.pk]),
                            back=reverse("control:planning:groups",
                                         args=[championship.slug, rnd.pk]))
        return redirect("control:planning:groups", championship.slug, rnd.pk)
    if _attempt(request, lambda: group_services.groups_assign(round=rnd, seed=seed,
                                                              user=request.user)):
        messages.success(request, _("Groups assigned with seed %(seed)s.") % {"seed": seed})
    return redirect("control:planning:groups", championship.slug, rnd.pk)


@requires_role(Role.ORGANISER)
@require_POST
def groups_undo(request: HttpRequest, championship: Championship, round_id: int) -> HttpResponse:
    """Put back the groups and seats the latest draw replaced."""
    rnd = _round(championship, round_id)
    done: list[int] = []
    if _attempt(request, lambda: done.append(group_services.groups_undo(round=rnd,
                                                                        user=request.user))):
        messages.success(request, ngettext(
            "Draw undone: %(count)s entry is back in its previous group.",
            "Draw undone: %(count)s entries are back in their previous group.",
            done[0]) % {"count": done[0]})
    return redirect("control:planning:groups", championship.slug, rnd.pk)


@requires_role(Role.ORGANISER)
@require_POST
def group_move(request: HttpRequest, championship: Championship, round_id: int) -> HttpResponse:
    rnd = _round(championship, round_id)
    form = GroupMoveForm(request.POST)
    if not form.is_valid():
        form_errors_to_messages(request, form)
    else:
        data = form.cleaned_data
        if _attempt(request, lambda: group_services.entry_group_move(
                entry=_entry(rnd, data["entry"]), to_group=data["to_group"],
                reason=data["reason"], user=request.user)):
            messages.success(request, _("Entry %(entry)s moved to group %(group)s.")
                             % {"entry": data["entry"], "group": data["to_group"]})
    return redirect("control:planning:groups", championship.slug, rnd.pk)


@requires_role(Role.ORGANISER)
@require_POST
def groups_publish(request: HttpRequest, championship: Championship,
                   round_id: int) -> HttpResponse:
    rnd = _round(championship, round_id)
    sent: list[int] = []
    if _attempt(request, lambda: sent.append(
            group_services.groups_publish(round=rnd, user=request.user))):
        messages.success(request, _("Groups published; %(count)s emails sent.")
                         % {"count": sent[0]})
    return redirect("control:planning:groups", championship.slug, rnd.pk)


@requires_role(Role.HEAD_JUDGE)
def seating(request: HttpRequest, championship: Championship, round_id: int) -> HttpResponse:
    """The hall with one group's entries at their tables, and the seating tools."""
    rnd = _round(championship, round_id)
    try:
        group = selectors.group_of_label(rnd, request.GET.get("group"))
        floor = selectors.floor_map_get(rnd, group)
    except PlanningError as error:
        messages.error(request, message_of(error.code, error.message, error.params))
        return redirect("control:planning:groups", championship.slug, rnd.pk)
    return render(request, "control/planning/seating.html", {
        "championship": championship, "round": rnd, "group": group, "map": floor,
        "labels": selectors.group_labels(rnd), "seated": selectors.seated_groups(rnd),
        "tables_needed": selectors.tables_needed(rnd, group),
        "no_show_from": seating_services.no_show_allowed_at(rnd, group),
        "no_show_rule": ruleset_of(rnd).no_show_after_minutes is not None,
        "undo": backup_latest(rnd, SEATING),
        "organiser": _organiser(request, championship),
        "swap_form": SeatsSwapForm(), "no_show_form": NoShowForm(),
    })


def _to_seating(championship: Championship, rnd: Round, group: str) -> HttpResponse:
    url = reverse("control:planning:seating", args=[championship.slug, rnd.pk])
    return redirect(f"{url}?group={group}" if group else url)


@requires_role(Role.ORGANISER)
@require_POST
def seating_publish(request: HttpRequest, championship: Championship,
                    round_id: int) -> HttpResponse:
    """Make the round's tables public (entrant pages, the API)."""
    rnd = _round(championship, round_id)
    if _attempt(request, lambda: seating_services.seating_publish(round=rnd, user=request.user)):
        messages.success(request, _("Seating published."))
    return _to_seating(championship, rnd, request.POST.get("group", ""))


@requires_role(Role.ORGANISER)
@require_POST
def seating_assign(request: HttpRequest, championship: Championship,
                   round_id: int) -> HttpResponse:
    """Seat one group (or every group, one hall session each) in seeding order."""
    rnd = _round(championship, round_id)
    group = request.POST.get("group", "")
    chosen = [group] if group or selectors.group_labels(rnd) == [""] else None
    if request.POST.get("confirmed") != "1" and (group in selectors.seated_groups(rnd)):
        found: list[tuple[int, int]] = []
        if _attempt(request, lambda: found.append(seating_services.seating_assign_preview(
                round=rnd, groups=chosen))):
            changed, seated = found[0]
            changes = [ngettext(
                "Seating again moves %(count)s of the %(seated)s entries seated now to another "
                "table or seat.", "Seating again moves %(count)s of the %(seated)s entries "
                "seated now to another table or seat.", changed) % {
                "count": changed, "seated": seated}]
            back = reverse("control:planning:seating", args=[championship.slug, rnd.pk])
            return _confirm(request, championship, rnd, title=_("Seat again?"), changes=changes,
                            fields={"group": group},
                            action=reverse("control:planning:seating_assign",
                                           args=[championship.slug, rnd.pk]),
                            back=f"{back}?group={group}" if group else back)
        return _to_seating(championship, rnd, group)
    made: list[int] = []
    if _attempt(request, lambda: made.append(seating_services.seating_assign(
            round=rnd, groups=chosen, user=request.user))):
        messages.success(request, ngettext("%(count)s entry seated.", "%(count)s entries seated.",
                                           made[0]) % {"count": made[0]})
    return _to_seating(championship, rnd, group)


@requires_role(Role.ORGANISER)
@require_POST
def seating_undo(request: HttpRequest, championship: Championship,
                 round_id: int) -> HttpResponse:
    """Put back the seats the latest seating replaced."""
    rnd = _round(championship, round_id)
    done: list[int] = []
    if _attempt(request, lambda: done.append(seating_services.seating_undo(
            round=rnd, user=request.user))):
        messages.success(request, ngettext(
            "Seating undone: %(count)s entry is back at its previous table.",
            "Seating undone: %(count)s entries are back at their previous table.",
            done[0]) % {"count": done[0]})
    return _to_seating(championship, rnd, request.POST.get("group", ""))


@requires_role(Role.ORGANISER)
@require_POST
def seats_swap(request: HttpRequest, championship: Championship, round_id: int) -> HttpResponse:
    rnd = _round(championship, round_id)
    form = SeatsSwapForm(request.POST)
    if not form.is_valid():
        form_errors_to_messages(request, form)
    elif _attempt(request, lambda: seating_services.seats_swap(
            round=rnd, entry_a=_entry(rnd, form.cleaned_data["entry_a"]),
            entry_b=_entry(rnd, form.cleaned_data["entry_b"]), user=request.user)):
        messages.success(request, _("Seats swapped."))
    return _to_seating(championship, rnd, request.POST.get("group", ""))


@requires_role(Role.HEAD_JUDGE)
@require_POST
def seat_no_show(request: HttpRequest, championship: Championship,
                 round_id: int) -> HttpResponse:
    """Give a missing entrant's table to another entry (from the ruleset's minutes on)."""
    rnd = _round(championship, round_id)
    form = NoShowForm(request.POST)
    if not form.is_valid():
        form_errors_to_messages(request, form)
    elif _attempt(request, lambda: seating_services.seat_no_show(
            round=rnd, no_show=_entry(rnd, form.cleaned_data["no_show"]),
            replacement=_entry(rnd, form.cleaned_data["replacement"]), user=request.user)):
        messages.success(request, _("Entry %(entry)s took the table of entry %(no_show)s.")
                         % {"entry": form.cleaned_data["replacement"],
                            "no_show": form.cleaned_data["no_show"]})
    return _to_seating(championship, rnd, request.POST.get("group", ""))


def _heading(rnd: Round, group: str) -> Heading:
    return Heading(rnd.event.championship.name, rnd.event.display_name, rnd.display_name, group)


def _pdf(content: bytes, name: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    # A download, so the cards land in the organiser's files ready to print.
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def _printable_tables(request: HttpRequest, championship: Championship,
                      round_id: int) -> tuple[Round, str, dict[int, Any]] | HttpResponse:
    rnd = _round(championship, round_id)
    try:
        group = selectors.group_of_label(rnd, request.GET.get("group"))
    except PlanningError as error:
        messages.error(request, message_of(error.code, error.message, error.params))
        return redirect("control:planning:groups", championship.slug, rnd.pk)
    tables = selectors.tables_get(rnd, group)
    if not tables:
        messages.error(request, _("Seat the group before printing its tables."))
        return redirect("control:planning:groups", championship.slug, rnd.pk)
    return rnd, group, tables


@requires_role(Role.JUDGE)
def print_table_cards(request: HttpRequest, championship: Championship,
                      round_id: int) -> HttpResponse:
    """Table cards: number, names, countries and the judge's QR code (a PDF)."""
    found = _printable_tables(request, championship, round_id)
    if isinstance(found, HttpResponse):
        return found
    rnd, group, tables = found
    base = f"{settings.SITE_URL.rstrip('/')}/judge/{championship.slug}/table/{rnd.pk}"
    return _pdf(table_cards_pdf(heading=_heading(rnd, group), tables=tables,
                                judge_url=lambda table: f"{base}/{table}"),
                f"table-cards-{rnd.event.code}-{rnd.code}-{group}.pdf")


@requires_role(Role.JUDGE)
def print_result_sheets(request: HttpRequest, championship: Championship,
                        round_id: int) -> HttpResponse:
    """Judges' result sheets, one page per table (a PDF)."""
    found = _printable_tables(request, championship, round_id)
    if isinstance(found, HttpResponse):
        return found
    rnd, group, tables = found
    return _pdf(result_sheets_pdf(heading=_heading(rnd, group),
                                  rules=sheet_rules_get(rnd, group), tables=tables),
                f"result-sheets-{rnd.event.code}-{rnd.code}-{group}.pdf")


@requires_role(Role.JUDGE)
def print_participants(request: HttpRequest, championship: Championship,
                       round_id: int) -> HttpResponse:
    """Participant lists: one page (or more) per group, or one group with ?group= (a PDF)."""
    rnd = _round(championship, round_id)
    wanted = request.GET.get("group")
    sections: dict[str, list[ListLine]] = {}
    for line in selectors.group_lines(rnd):
        if wanted in (None, "", line.group):
            sections.setdefault(line.group, []).append(ListLine(
                line.number, line.name, line.country, line.table))
    return _pdf(participant_list_pdf(heading=_heading(rnd, wanted or ""),
                                     sections=list(sections.items())),
                f"participants-{rnd.event.code}-{rnd.code}.pdf")
