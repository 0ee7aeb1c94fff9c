"""Organiser forms for registrations: payments, the relay draw, facts from history."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from puzzlecomp.championships.models import HistoryFact
from puzzlecomp.championships.services.relay import SEED_LIMIT


class PaymentForm(forms.Form):
    amount = forms.DecimalField(label=_("Amount received"), max_digits=10, decimal_places=2,
                                min_value=Decimal("0.01"))


class DrawForm(forms.Form):
    seed = forms.IntegerField(
        label=_("Seed"), required=False, min_value=0, max_value=SEED_LIMIT - 1,
        help_text=_("Leave empty for a random seed; give a recorded seed to repeat a draw."))


class FactOverrideForm(forms.Form):
    """An organiser's value for one fact derived from one member's history, with the reason."""

    member = forms.TypedChoiceField(label=_("Member"), coerce=int)
    fact = forms.ChoiceField(label=_("Fact"), choices=HistoryFact.choices)
    value = forms.TypedChoiceField(label=_("Value"), coerce=lambda text: text == "yes",
                                   choices=(("yes", _("yes")), ("no", _("no"))))
    reason = forms.CharField(label=_("Reason"), max_length=300)

    def __init__(self, members: list[tuple[int, str]], facts: list[tuple[str, str]],
                 *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["member"].choices = members
        self.fields["fact"].choices = facts


class SamePersonForm(forms.Form):
    """This member is that known person: the two records become one."""

    member = forms.IntegerField(widget=forms.HiddenInput)
    person = forms.IntegerField(widget=forms.HiddenInput)
    reason = forms.CharField(label=_("Reason"), max_length=300)

