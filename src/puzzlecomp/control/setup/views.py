"""Setup screens: the championship, its hall, events, rounds, puzzles, team models and roles."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _

from puzzlecomp.championships.models import (
    Championship,
    Entry,
    EntryStatus,
    Event,
    Membership,
    Puzzle,
    Role,
    Round,
)
from puzzlecomp.championships.roles import requires_role
from puzzlecomp.championships.ruleset_texts import ruleset_text
from puzzlecomp.championships.selectors.lists import entry_models_chosen, round_started
from puzzlecomp.championships.selectors.registration import championship_period
from puzzlecomp.championships.services.entrant_mail import entrant_emails_set
from puzzlecomp.championships.services.settings import (
    SetupError,
    championship_settings_set,
    championship_update,
    entry_models_choose,
    event_update,
    floor_plan_set,
    membership_add,
    membership_change,
    membership_remove,
    puzzle_update,
    registration_terms_set,
    round_model_choice,
    round_update,
)
from puzzlecomp.control.setup import forms as setup_forms
from puzzlecomp.rules.loading import load_ruleset


def _edit(request: HttpRequest, championship: Championship, form: forms.Form,
          save: Callable[[dict[str, Any]], Any], title: str) -> HttpResponse:
    """Show the form; on a valid POST save through the service and go back to the overview."""
    if request.method == "POST" and form.is_valid():
        try:
            save(form.cleaned_data)
        except SetupError as error:
            form.add_error(None, setup_forms.setup_error_message(error))
        else:
            messages.success(request, _("Saved: %(what)s.") % {"what": title})
            return redirect("control:setup:index", slug=championship.slug)
    return render(request, "control/setup/edit.html",
                  {"championship": championship, "form": form, "title": title})


def _round(championship: Championship, event: str, round: str) -> Round:
    return get_object_or_404(Round.objects.select_related("event__championship"),
                             event__championship=championship, event__code=event, code=round)


@requires_role(Role.ORGANISER)
def index(request: HttpRequest, championship: Championship) -> HttpResponse:
    """Everything that can be set up, with a link to each form."""
    events = championship.events.prefetch_related("rounds__puzzles")
    ruleset = load_ruleset(championship.ruleset_id)
    known = ruleset.settings
    return render(request, "control/setup/index.html", {
        "championship": championship, "events": events, "ruleset": ruleset,
        "currency": championship.fee_currency or ruleset.currency,
        "period": championship_period(championship, ruleset),
        "rulebook_fees": {e.id for e in ruleset.events if e.fee is not None},
        "ruleset_settings": [(name, ruleset_text(spec.description),
                              championship.settings.get(name, ""))
                             for name, spec in known.items()],
    })


@requires_role(Role.ORGANISER)
def championship_edit(request: HttpRequest, championship: Championship) -> HttpResponse:
    form = setup_forms.ChampionshipForm(request.POST or None, initial={
        "name": championship.name, "starts_at": championship.starts_at,
        "ends_on": championship.ends_on, "venue": championship.venue,
        "time_zone": championship.time_zone, "published": championship.published,
    })
    return _edit(request, championship, form, lambda data: championship_update(
        championship=championship, by=request.user,
        **{**data, "time_zone": data.get("time_zone") or None}), _("Championship"))


@requires_role(Role.ORGANISER)
def entrant_emails(request: HttpRequest, championship: Championship) -> HttpResponse:
    """Whether entrants are emailed their published results and the answers to disputes."""
    # A POST with the box unticked may carry no field at all: it is still a POST.
    form = setup_forms.EntrantEmailsForm(request.POST if request.method == "POST" else None,
                                         initial={"enabled": championship.entrant_emails})
    return _edit(request, championship, form, lambda data: entrant_emails_set(
        championship=championship, enabled=data["enabled"], by=request.user),
        _("Emails to entrants"))


@requires_role(Role.ORGANISER)
def ruleset_settings(request: HttpRequest, championship: Championship) -> HttpResponse:
    form = setup_forms.RulesetSettingsForm(request.POST or None,
                                           ruleset=load_ruleset(championship.ruleset_id),
                                           initial=championship.settings)
    return _edit(request, championship, form, lambda data: championship_settings_set(
        championship=championship, by=request.user, values=data), _("Ruleset settings"))


@requires_role(Role.ORGANISER)
def floor_plan(request: HttpRequest, championship: Championship) -> HttpResponse:
    form = setup_forms.FloorPlanForm(request.POST or None, initial={
        "rows": ",".join(str(n) for n in championship.floor_rows),
        "guest_tables": championship.guest_tables,
    })
    return _edit(request, championship, form, lambda data: floor_plan_set(
        championship=championship, by=request.user, **data), _("Floor plan"))


@requires_role(Role.ORGANISER)
def event_edit(request: HttpRequest, championship: Championship, event: str) -> HttpResponse:
    row = get_object_or_404(Event, championship=championship, code=event)
    ruleset = load_ruleset(championship.ruleset_id)
    form = setup_forms.EventForm(request.POST or None, initial={
        "name": row.name, "capacity": row.capacity, "fee_amount": row.fee_amount,
        "fee_per": row.fee_per,
        "fee_early_amount": row.fee_early_amount, "fee_early_until": row.fee_early_until,
    }, rulebook_fee=ruleset.event(row.code).fee is not None,
        currency=championship.fee_currency or ruleset.currency)
    named = ruleset.event(row.code).name
    return _edit(request, championship, form, lambda data: event_update(
        event=row, by=request.user, **{**data, "name": data["name"] or named}),
        row.display_name)


@requires_role(Role.ORGANISER)
def registration_terms(request: HttpRequest, championship: Championship) -> HttpResponse:
    """The registration window, refunds and the fees' currency, where the rulebook names none."""
    policy = load_ruleset(championship.ruleset_id).registration
    form = setup_forms.RegistrationTermsForm(request.POST or None, initial={
        "opens_at": championship.registration_opens_at,
        "closes_at": championship.registration_closes_at,
        "refund_days_before": championship.refund_days_before,
        "fee_currency": championship.fee_currency,
        "offer_days": championship.offer_days,
        "confirm_on_payment": championship.confirm_on_payment,
    }, rulebook_window=policy.window is not None,
        rulebook_refunds=policy.refund_days_before is not None)
    return _edit(request, championship, form, lambda data: registration_terms_set(
        championship=championship, by=request.user, opens_at=data.get("opens_at"),
        closes_at=data.get("closes_at"), refund_days_before=data.get("refund_days_before"),
        fee_currency=data["fee_currency"], offer_days=data.get("offer_days"),
        confirm_on_payment=data.get("confirm_on_payment", False)), _("Registration terms"))


@requires_role(Role.ORGANISER)
def round_edit(request: HttpRequest, championship: Championship, event: str,
               round: str) -> HttpResponse:
    rnd = _round(championship, event, round)
    form = setup_forms.RoundForm(request.POST or None, initial={
        "name": rnd.name, "time_limit_minutes": rnd.time_limit_minutes,
        "starts_at": rnd.starts_at, "groups": ",".join(rnd.groups),
    })
    return _edit(request, championship, form, lambda data: round_update(
        rnd=rnd, by=request.user, **{**data, "name": data["name"] or _ruleset_name(rnd)}),
        f"{rnd.event.display_name}, {rnd.display_name}")


def _ruleset_name(rnd: Round) -> str:
    """The round's name in the ruleset (its stored name for a round the ruleset does not list,
    such as a subcategory's tiebreaker of its own)."""
    try:
        spec = load_ruleset(rnd.event.championship.ruleset_id).event(rnd.event.code)
        return spec.round(rnd.code).name
    except KeyError:
        return rnd.name


@requires_role(Role.ORGANISER)
def puzzle_edit(request: HttpRequest, championship: Championship, event: str, round: str,
                position: int) -> HttpResponse:
    puzzle = get_object_or_404(Puzzle, round=_round(championship, event, round),
                               position=position)
    form = setup_forms.PuzzleForm(request.POST or None, initial={
        "brand": puzzle.brand, "pieces": puzzle.pieces, "motif": puzzle.motif,
        "picture": puzzle.picture,
    })
    rnd = puzzle.round
    title = _("Puzzle %(number)s of %(round)s") % {
        "number": position + 1, "round": f"{rnd.event.display_name}, {rnd.display_name}"}
    return _edit(request, championship, form, lambda data: puzzle_update(
        puzzle=puzzle, by=request.user, **data), title)


@requires_role(Role.ORGANISER)
def team_models(request: HttpRequest, championship: Championship, event: str,
                round: str) -> HttpResponse:
    """Each team's choice of models before the start (wjpc-2025 teams: 2 of 4)."""
    rnd = _round(championship, event, round)
    offered, to_choose = round_model_choice(rnd)
    if not offered:
        raise Http404
    form = setup_forms.TeamModelsForm(request.POST or None, offered=offered)
    if request.method == "POST" and form.is_valid():
        entry = Entry.objects.filter(event=rnd.event, number=form.cleaned_data["entry"]).first()
        if entry is None:
            form.add_error("entry", _("No team has this number."))
        else:
            try:
                entry_models_choose(entry=entry, rnd=rnd, models=form.cleaned_data["models"],
                                    by=request.user)
            except SetupError as error:
                form.add_error(None, setup_forms.setup_error_message(error))
            else:
                messages.success(request, _("Models recorded for %(entry)s.") % {"entry": entry})
                return redirect(request.path)
    chosen = entry_models_chosen(rnd=rnd)
    teams = [(entry, chosen.get(entry.pk))
             for entry in rnd.event.entries.exclude(status=EntryStatus.CANCELLED)]
    return render(request, "control/setup/team_models.html", {
        "championship": championship, "round": rnd, "form": form, "teams": teams,
        "offered": offered, "to_choose": to_choose,
        "started": round_started(rnd, timezone.now()),
    })


@requires_role(Role.OWNER)
def members(request: HttpRequest, championship: Championship) -> HttpResponse:
    """Who has which role; the owner adds people by username or email."""
    form = setup_forms.MemberAddForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            membership_add(championship=championship, by=request.user,
                           identifier=form.cleaned_data["identifier"],
                           role=Role(form.cleaned_data["role"]))
        except SetupError as error:
            form.add_error(None, setup_forms.setup_error_message(error))
        else:
            messages.success(request, _("Role given to %(who)s.")
                             % {"who": form.cleaned_data["identifier"]})
            return redirect("control:setup:members", slug=championship.slug)
    memberships = championship.memberships.select_related("user").order_by("role",
                                                                          "user__username")
    return render(request, "control/setup/members.html", {
        "championship": championship, "form": form, "role_form": setup_forms.MemberRoleForm,
        "memberships": memberships,
    })


def _member_action(request: HttpRequest, championship: Championship, membership_id: int,
                   act: Callable[[Membership], Any]) -> HttpResponse:
    membership = get_object_or_404(Membership, championship=championship, pk=membership_id)
    if request.method == "POST":
        try:
            act(membership)
        except SetupError as error:
            messages.error(request, setup_forms.setup_error_message(error))
        else:
            messages.success(request, _("Roles updated."))
    return redirect("control:setup:members", slug=championship.slug)


@requires_role(Role.OWNER)
def member_role(request: HttpRequest, championship: Championship,
                membership_id: int) -> HttpResponse:
    form = setup_forms.MemberRoleForm(request.POST or None)
    if request.method == "POST" and not form.is_valid():
        messages.error(request, _("Choose one of the roles."))
        return redirect("control:setup:members", slug=championship.slug)
    return _member_action(request, championship, membership_id, lambda membership: (
        membership_change(membership=membership, by=request.user,
                          role=Role(form.cleaned_data["role"]))))


@requires_role(Role.OWNER)
def member_remove(request: HttpRequest, championship: Championship,
                  membership_id: int) -> HttpResponse:
    return _member_action(request, championship, membership_id, lambda membership: (
        membership_remove(membership=membership, by=request.user)))
