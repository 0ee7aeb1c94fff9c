"""Treasurer forms: the organiser's account, a statement upload, a queued line decided."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class AccountForm(forms.Form):
    holder = forms.CharField(label=_("Account holder"), max_length=70)
    iban = forms.CharField(label=_("IBAN"), max_length=42, required=False)
    bic = forms.CharField(label=_("BIC"), max_length=11, required=False)
    local_account = forms.CharField(
        label=_("Czech account number"), max_length=30, required=False,
        help_text=_("Instead of an IBAN: prefix-number/bank code, e.g. 19-2000145399/0800."))
    bsb = forms.CharField(label=_("BSB"), max_length=7, required=False,
                          help_text=_("Australia: with the account number below."))
    account_number = forms.CharField(label=_("Account number"), max_length=20, required=False)
    instructions = forms.CharField(
        label=_("Payment instructions"), max_length=2000, required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Shown to entrants beside the account, e.g. for currencies without a "
                    "payment QR code."))


class StatementForm(forms.Form):
    statement = forms.FileField(
        label=_("Bank statement"),
        help_text=_("camt.053 XML, or your bank's CSV export. Nothing is stored until you "
                    "confirm the preview."))


class AssignForm(forms.Form):
    entry = forms.CharField(label=_("Entry (event code/number, or reference)"), max_length=40)
    reason = forms.CharField(label=_("Reason"), max_length=200)


class ResolveForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=200)
