"""The entrant gives the account their refund or prize money is paid to (their private link)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from puzzlecomp.championships.messages import violation_message
from puzzlecomp.championships.models import Entry
from puzzlecomp.championships.services.payments import payout_account_set
from puzzlecomp.rules.errors import RulesError


class PayoutAccountForm(forms.Form):
    holder = forms.CharField(label=gettext_lazy("Account holder"), max_length=70)
    iban = forms.CharField(label=gettext_lazy("IBAN"), max_length=42, required=False)
    bic = forms.CharField(label=gettext_lazy("BIC"), max_length=11, required=False)
    account = forms.CharField(label=gettext_lazy("Account outside SEPA (as your bank writes it)"),
                              max_length=60, required=False)


@require_POST
def payout_account(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """Store the entrant's account for refunds and prize money."""
    entry = get_object_or_404(Entry.objects.select_related("event__championship"),
                              token=token, event__championship__slug=slug)
    form = PayoutAccountForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give the account holder."))
    else:
        try:
            payout_account_set(entry=entry, **form.cleaned_data)
        except RulesError as refused:
            for violation in refused.violations:
                messages.error(request, violation_message(violation))
        else:
            messages.success(request, _("Your account is saved."))
    return redirect(reverse("public:disputes:entrant", args=[slug, token]) + "#payout")
