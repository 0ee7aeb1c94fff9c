"""The head judge's start of each group, for rounds whose groups share the tables and play one
after another (WJPC groups A-F on the same tables): their planned starts, and the start."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from puzzlecomp.championships.messages import form_errors_to_messages, messages_of
from puzzlecomp.championships.models import Championship, Role
from puzzlecomp.championships.roles import requires_role
from puzzlecomp.championships.selectors.rounds import (
    group_schedule_get,
    round_clock_get,
)
from puzzlecomp.championships.services import rounds as round_services
from puzzlecomp.control.live.forms import GroupPlanForm
from puzzlecomp.control.live.views import _round
from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.round_life import starts_early


@requires_role(Role.HEAD_JUDGE)
@require_POST
def groups_plan(request: HttpRequest, championship: Championship,
                round_id: int) -> HttpResponse:
    """Save the planned start of each group (shown on the public schedule)."""
    rnd = _round(championship, round_id)
    form = GroupPlanForm(request.POST, groups=group_schedule_get(rnd, now=timezone.now()))
    if not form.is_valid():
        form_errors_to_messages(request, form)
    else:
        round_services.group_plan(round=rnd, planned=form.cleaned_data, user=request.user)
        messages.success(request, _("The planned starts are saved."))
    return redirect("control:live:round", championship.slug, rnd.pk)


@requires_role(Role.HEAD_JUDGE)
def group_start(request: HttpRequest, championship: Championship, round_id: int,
                group: str) -> HttpResponse:
    """Confirm the start of one group (GET), then start it at the server's now (POST)."""
    rnd = _round(championship, round_id)
    if group not in rnd.groups:
        raise Http404
    back = reverse("control:live:round", args=[championship.slug, rnd.pk])
    if request.method == "POST":
        try:
            round_services.group_start(round=rnd, group=group, user=request.user)
        except RulesError as refused:
            for text in messages_of(refused):
                messages.error(request, text)
        else:
            messages.success(request, _("Group %(group)s has started.") % {"group": group})
        return redirect(back)
    now = timezone.now()
    round_clock_get(rnd, now=now)
    planned = next((g.planned_at for g in group_schedule_get(rnd, now=now) if g.group == group),
                   None)
    return render(request, "control/live/group_start.html", {
        "championship": championship, "round": rnd, "group": group, "back": back,
        "planned": planned, "early": starts_early(planned, now),
    })
