"""Rounds after the results: qualifiers, the next round in one step, and result downloads.

Each view parses, authorises, calls one service and renders.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from puzzlecomp.championships.messages import form_errors_to_messages, messages_of
from puzzlecomp.championships.models import (
    Championship,
    QualifierStatus,
    Role,
    Round,
    RoundState,
)
from puzzlecomp.championships.printing.round_results import (
    results_file_name,
    round_results_pdf,
    round_results_table,
)
from puzzlecomp.championships.roles import requires_role, role_of
from puzzlecomp.championships.selectors.fairness import (
    round_group_difficulties,
    shown_difficulties,
    stored_difficulties,
)
from puzzlecomp.championships.selectors.group_maxima import group_maxima_warnings
from puzzlecomp.championships.selectors.rounds import dispute_window_ends
from puzzlecomp.championships.services import fairness
from puzzlecomp.championships.services import qualifiers as services
from puzzlecomp.championships.services.exporting import FORMATS, table_export
from puzzlecomp.championships.services.qualifiers import QualifierError, QualifierLine
from puzzlecomp.control.rounds.forms import WithdrawForm
from puzzlecomp.live.snapshot import round_snapshot_cached
from puzzlecomp.planning import PlanningError
from puzzlecomp.rules.errors import RulesError

# Why an entry goes on, in words (rules.qualification.QualifyReason).
REASONS = {
    "place": gettext_lazy("place in the group"),
    "tie": gettext_lazy("tied at the cut-off"),
    "playoff": gettext_lazy("country play-off"),
    "national": gettext_lazy("national quota"),
    "foreign": gettext_lazy("foreign quota"),
}
REFUSALS = (QualifierError, PlanningError, RulesError)
# How certain a place is while the round runs (rules.clinching.Certainty).
CERTAINTIES = {
    "clinched": gettext_lazy("qualified whatever happens"),
    "provisional": gettext_lazy("expected"),
    "out": gettext_lazy("cannot qualify any more"),
}


def _round(championship: Championship, round_id: int) -> Round:
    return get_object_or_404(Round.objects.select_related("event__championship"),
                             pk=round_id, event__championship=championship)


def _attempt(request: HttpRequest, action: Callable[[], Any]) -> tuple[bool, Any]:
    """Run a service: (True, its answer), or (False, None) with its refusal as error messages
    for the next page."""
    try:
        return True, action()
    except REFUSALS as error:
        for text in messages_of(error, name_entry=True):
            messages.error(request, text)
        return False, None


def _organiser(request: HttpRequest, championship: Championship) -> bool:
    role = role_of(request.user, championship)
    return role is not None and role <= Role.ORGANISER


def _to_qualifiers(championship: Championship, rnd: Round) -> HttpResponse:
    return redirect("control:rounds:qualifiers", championship.slug, rnd.pk)


@requires_role(Role.JUDGE)
def index(request: HttpRequest, championship: Championship) -> HttpResponse:
    """Every round with its state, its result downloads and, for organisers, its qualifiers."""
    return render(request, "control/rounds/index.html", {
        "championship": championship,
        "events": championship.events.prefetch_related("rounds"),
        "formats": [*FORMATS, "pdf"],
        "organiser": _organiser(request, championship),
    })


def _shown(line: QualifierLine) -> dict[str, Any]:
    return {"line": line, "reason": REASONS.get(line.reason, line.reason),
            "withdrawn": line.status == QualifierStatus.WITHDRAWN}


@requires_role(Role.ORGANISER)
def qualifiers(request: HttpRequest, championship: Championship, round_id: int) -> HttpResponse:
    """The engine's qualifiers of a published round, the confirmed ones and the tools."""
    rnd = _round(championship, round_id)
    context: dict[str, Any] = {"championship": championship, "round": rnd,
                               "published": rnd.state in services.DONE_STATES,
                               "withdraw_form": WithdrawForm()}
    if context["published"]:
        try:
            found = services.round_qualifiers_get(rnd)
            next_round = services.next_round_of(rnd)
        except REFUSALS as error:
            context["problems"] = messages_of(error, name_entry=True)
        else:
            context.update(
                next_round=next_round, outdated=found.outdated,
                confirmed=[_shown(line) for line in found.confirmed],
                proposed=[_shown(line) for line in found.proposed],
                next_seated=next_round.seats.count(),
                disputes_until=_disputes_until(rnd),
                cancelled=[{"offer": c, "reason": REASONS.get(c.reason, c.reason)}
                           for c in services.cancelled_qualifiers_get(rnd)]
                if found.confirmed else [],
                over_maximum=group_maxima_warnings(next_round, (
                    line.to_group for line in (found.confirmed or found.proposed)
                    if line.status != QualifierStatus.WITHDRAWN)),
            )
        context.update(_fairness(rnd))
    elif rnd.state != RoundState.PLANNED:
        context["standing"] = _standing(rnd)
    return render(request, "control/rounds/qualifiers.html", context)


def _window_confirmed(request: HttpRequest) -> dt.datetime | None:
    """The end of the dispute window the confirmation showed (its checkbox carries it), None
    when not ticked or not a time: the guard then asks again."""
    try:
        ends = dt.datetime.fromisoformat(request.POST.get("knowingly", ""))
    except ValueError:
        return None
    return ends if timezone.is_aware(ends) else None


def _disputes_until(rnd: Round) -> dt.datetime | None:
    """When the round's dispute window closes, while it is open (confirming asks first)."""
    ends = dispute_window_ends(rnd) if rnd.state == RoundState.PUBLISHED else None
    return ends if ends is not None and timezone.now() < ends else None


def _standing(rnd: Round) -> list[dict[str, Any]]:
    """While the round runs: every ranked line with where it would go and how certain that is,
    read from the round's live snapshot (the ranking every public page shows)."""
    lines = json.loads(round_snapshot_cached(rnd).body)["lines"]
    return [{"line": line, "to_group": (line["qualified"] or {}).get("to_group", ""),
             "reason": REASONS.get((line["qualified"] or {}).get("reason", ""), ""),
             "certainty": CERTAINTIES.get(line["certainty"] or "", ""),
             "clinched": line["certainty"] == "clinched"}
            for line in lines if line["certainty"]]


def _fairness(rnd: Round) -> dict[str, Any]:
    """Each group's puzzle difficulty now, and whether the published figures are these."""
    try:
        now = stored_difficulties(round_group_difficulties(rnd))
    except RulesError:
        return {}
    shown = shown_difficulties(now)
    return {"difficulty": shown["figures"], "difficulty_told_apart": shown["told_apart"],
            "difficulty_comparable": any(f["percent"] is not None for f in now),
            "difficulty_published": bool(rnd.group_difficulty),
            "difficulty_outdated": bool(rnd.group_difficulty) and rnd.group_difficulty != now}


@requires_role(Role.ORGANISER)
@require_POST
def group_difficulty_publish(request: HttpRequest, championship: Championship,
                             round_id: int) -> HttpResponse:
    """Publish the groups' puzzle difficulty with the round's results, or take it back."""
    rnd = _round(championship, round_id)
    publish = request.POST.get("publish") == "1"
    ok, _figures = _attempt(request, lambda: fairness.group_difficulty_publish(
        round=rnd, publish=publish, user=request.user))
    if ok:
        messages.success(request, _("The group difficulty is published with the results.")
                         if publish else _("The group difficulty is no longer published."))
    return _to_qualifiers(championship, rnd)


@requires_role(Role.ORGANISER)
@require_POST
def qualifiers_confirm(request: HttpRequest, championship: Championship,
                       round_id: int) -> HttpResponse:
    rnd = _round(championship, round_id)
    ok, written = _attempt(request, lambda: services.qualifiers_confirm(
        round=rnd, user=request.user, knowingly=_window_confirmed(request)))
    if ok and written:
        messages.success(request, ngettext("%(count)s qualifier confirmed.",
                                           "%(count)s qualifiers confirmed.", written)
                         % {"count": written})
    elif ok:
        messages.info(request, _("The confirmed qualifiers are already the engine's."))
    return _to_qualifiers(championship, rnd)


@requires_role(Role.ORGANISER)
@require_POST
def qualifier_withdraw(request: HttpRequest, championship: Championship,
                       round_id: int) -> HttpResponse:
    """A qualifier withdraws: the rules name who takes the place."""
    rnd = _round(championship, round_id)
    form = WithdrawForm(request.POST)
    if not form.is_valid():
        form_errors_to_messages(request, form)
        return _to_qualifiers(championship, rnd)
    number = form.cleaned_data["entry"]
    ok, replacement = _attempt(request, lambda: services.qualifier_withdraw(
        round=rnd, entry_number=number, user=request.user, lapse=form.cleaned_data["lapse"],
        offered=form.cleaned_data["offered"]))
    if ok:
        if replacement is None:
            messages.warning(request, _("Entry %(entry)s withdrew; nobody can take the place, "
                                        "so it lapses.") % {"entry": number})
        else:
            messages.success(request, _("Entry %(entry)s withdrew; entry %(replacement)s "
                                        "takes the place (%(reason)s).") % {
                "entry": number, "replacement": replacement.entry.number,
                "reason": REASONS.get(replacement.reason, replacement.reason)})
    return _to_qualifiers(championship, rnd)


@requires_role(Role.ORGANISER)
@require_POST
def next_round_create(request: HttpRequest, championship: Championship,
                      round_id: int) -> HttpResponse:
    """From the confirmed qualifiers: the next round's groups and every group's seating."""
    rnd = _round(championship, round_id)
    ok, made = _attempt(request, lambda: services.next_round_create(round=rnd,
                                                                    user=request.user))
    if ok:
        groups = ", ".join(made.groups)
        seated = ngettext("%(count)s entry seated.", "%(count)s entries seated.",
                          made.seated) % {"count": made.seated}
        messages.success(request, (_("%(round)s: groups %(groups)s, %(seated)s")
                                   if groups else _("%(round)s: %(seated)s"))
                         % {"round": made.round.display_name, "groups": groups, "seated": seated})
    return _to_qualifiers(championship, rnd)


@requires_role(Role.JUDGE)
def export(request: HttpRequest, championship: Championship, round_id: int,
           fmt: str) -> HttpResponse:
    """The round's results as CSV, XLSX or PDF, with tables and qualification."""
    rnd = _round(championship, round_id)
    if fmt not in (*FORMATS, "pdf"):
        raise Http404
    try:
        if fmt == "pdf":
            content, content_type = round_results_pdf(rnd), "application/pdf"
            filename = f"{results_file_name(rnd)}.pdf"
        else:
            file = table_export(championship=championship, table=round_results_table(rnd),
                                fmt=fmt, by=request.user)
            content, content_type, filename = file.content, file.content_type, file.filename
    except RulesError as error:
        for text in messages_of(error, name_entry=True):
            messages.error(request, text)
        return redirect("control:rounds:index", championship.slug)
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
