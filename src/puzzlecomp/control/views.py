"""Organiser screens: a few lines each, parsing, authorising and calling one service."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from puzzlecomp.championships.models import Championship, EntryStatus, Role
from puzzlecomp.championships.roles import (
    may_create_championship,
    requires_championship_creator,
    requires_role,
    role_of,
)
from puzzlecomp.championships.selectors.checklist import first_run_checklist
from puzzlecomp.championships.services.setup import championship_create
from puzzlecomp.control.forms import ChampionshipCreateForm


@login_required
def home(request: HttpRequest) -> HttpResponse:
    """The championships the user has a role in, and a form to create one."""
    if request.user.is_staff:
        championships = Championship.objects.all()
    else:
        championships = Championship.objects.filter(memberships__user=request.user)
    listed = [(c, role_of(request.user, c)) for c in championships]
    return render(request, "control/home.html", {
        "championships": listed, "form": ChampionshipCreateForm(),
        "may_create": may_create_championship(request.user)})


@requires_championship_creator
def championship_new(request: HttpRequest) -> HttpResponse:
    """Create a championship from a ruleset; the creator becomes its owner."""
    form = ChampionshipCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        championship = championship_create(owner=request.user, **form.cleaned_data)
        messages.success(request, _("Championship created from ruleset %(ruleset)s.")
                         % {"ruleset": championship.ruleset_id})
        return redirect("control:dashboard", slug=championship.slug)
    return render(request, "control/championship_new.html", {"form": form})


@requires_role(Role.JUDGE)
def dashboard(request: HttpRequest, championship: Championship) -> HttpResponse:
    """Events, rounds and entry counts of one championship."""
    events = championship.events.annotate(
        confirmed=Count("entries", filter=Q(entries__status=EntryStatus.CONFIRMED)),
        waiting=Count("entries", filter=Q(entries__status=EntryStatus.WAITING)),
        unconfirmed=Count("entries", filter=Q(entries__status=EntryStatus.UNCONFIRMED)),
    ).prefetch_related("rounds")
    role = role_of(request.user, championship)
    organiser = request.user.is_staff or (role is not None and role <= Role.ORGANISER)
    checklist = [
        (item, reverse(item.url_name, args=(championship.slug, *item.url_args)))
        for item in first_run_checklist(championship)] if organiser else []
    return render(request, "control/dashboard.html", {
        "championship": championship, "events": events, "role": role,
        "checklist": checklist, "checklist_open": sum(not item.done for item, _ in checklist),
    })
