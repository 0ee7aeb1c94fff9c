"""A competitor's private page (the link in their registration emails): their published
results, the dispute window, and the form to dispute a result."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

import segno
from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from puzzlecomp.championships.messages import STATUS_LABELS, messages_of
from puzzlecomp.championships.models import Entry, EntryStatus, Role, Round, RoundState
from puzzlecomp.championships.roles import role_of
from puzzlecomp.championships.selectors.registration import entry_withdrawal
from puzzlecomp.championships.services.disputes import dispute_file
from puzzlecomp.championships.services.entrant_mail import (
    entrant_emails_wanted,
    entry_emails_choose,
)
from puzzlecomp.championships.services.registration import entry_cancel
from puzzlecomp.public.disputes.forms import DisputeFileForm
from puzzlecomp.public.disputes.selectors import EntrantRound, entrant_rounds_get
from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.times import format_time


def entrant(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The entry's published results; POST files a dispute of one round's result."""
    entry = get_object_or_404(Entry.objects.select_related("event__championship"),
                              token=token, event__championship__slug=slug)
    posted = DisputeFileForm(request.POST) if request.method == "POST" else None
    if posted is not None and posted.is_valid():
        rnd = get_object_or_404(Round, pk=posted.cleaned_data["round"], event=entry.event)
        try:
            dispute = dispute_file(entry=entry, round=rnd, text=posted.cleaned_data["text"])
        except RulesError as refused:
            # Messages, not form errors: a closed window hides the round's form.
            for text in messages_of(refused):
                messages.error(request, text)
        else:
            if entrant_emails_wanted(entry, entry.event.championship):
                messages.success(request, _("Dispute #%(number)s is filed. The head judge "
                                            "will answer it, and you will receive the answer "
                                            "by email.") % {"number": dispute.pk})
            else:
                messages.success(request, _("Dispute #%(number)s is filed. The head judge "
                                            "will answer it on this page.")
                                 % {"number": dispute.pk})
            return redirect("public:disputes:entrant", slug=slug, token=token)
    rounds = [_shown(r, posted) for r in entrant_rounds_get(entry, now=timezone.now())]
    championship = entry.event.championship
    link = settings.SITE_URL.rstrip("/") + request.path
    desk = None
    role = role_of(request.user, championship)
    if role is not None and role <= Role.ORGANISER:
        # An organiser who scans the entrant's code at the desk goes on to check them in.
        coming = entry.event.rounds.exclude(state=RoundState.FINAL).order_by("position").first()
        if coming is not None:
            desk = reverse("control:check_in:desk", args=[championship.slug, coming.pk])
            desk += "?" + urlencode({"q": entry.number})
    response = render(request, "public/disputes/entrant.html", {
        "championship": championship, "entry": entry, "rounds": rounds,
        "qr_code": mark_safe(segno.make(link, error="m").svg_inline(
            scale=5, title=str(_("Your entry's code for the check-in desk")))),
        "desk": desk,
        "withdrawal": (entry_withdrawal(entry=entry, on=timezone.localdate())
                       if entry.status != EntryStatus.CANCELLED
                       and championship.starts_at > timezone.now() else None),
    })
    # The page is reached through a private link: keep it out of search engines.
    response["X-Robots-Tag"] = "noindex"
    return response


@require_POST
def withdraw(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The entrant withdraws their entry, having seen the refund rule and today's refund."""
    entry = get_object_or_404(Entry.objects.select_related("event__championship"),
                              token=token, event__championship__slug=slug)
    if request.POST.get("confirm") != "1":
        messages.error(request, _("Tick the box to confirm that you withdraw."))
        return redirect(reverse("public:disputes:entrant", args=[slug, token]) + "#withdraw")
    try:
        refund = entry_cancel(entry=entry, by=None)
    except RulesError as refused:
        for text in messages_of(refused):
            messages.error(request, text)
    else:
        messages.success(request, _("Your entry is withdrawn. Refund due: %(amount)s %(currency)s.")
                         % {"amount": f"{refund.amount.amount:.2f}",
                            "currency": refund.amount.currency})
    return redirect("public:disputes:entrant", slug=slug, token=token)


@require_POST
def emails(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The entrant turns the emails of their published results and rulings on or off."""
    entry = get_object_or_404(Entry.objects.select_related("event__championship"),
                              token=token, event__championship__slug=slug)
    wanted = request.POST.get("wanted") == "1"
    entry_emails_choose(entry=entry, wanted=wanted)
    messages.success(request, _("We will email you your published results and the answers "
                                "to your disputes.") if wanted else
                     _("We will no longer email you your results: they stay on this page."))
    return redirect("public:disputes:entrant", slug=slug, token=token)


def _shown(found: EntrantRound, posted: DisputeFileForm | None) -> dict[str, Any]:
    """A round as the template shows it, with its form (the posted one when it is for it)."""
    form = None
    # A result is disputed once: after filing, the page shows the dispute instead of the form.
    if found.may_dispute and not found.disputes:
        mine = posted is not None and str(found.round.pk) == posted.data.get("round")
        form = posted if mine else DisputeFileForm(initial={"round": found.round.pk})
    line = found.line or {}
    clock = {key: format_time(line[key]) if line.get(key) is not None else ""
             for key in ("time_seconds", "final_seconds", "penalty_seconds")}
    return {"round": found.round, "line": line, "times": clock,
            "status": STATUS_LABELS.get(line.get("status", ""), ""),
            "window_ends": found.window_ends, "disputes": found.disputes, "form": form,
            "window_open": found.may_dispute}
