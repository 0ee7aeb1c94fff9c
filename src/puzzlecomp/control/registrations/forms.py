"""Organiser forms for registrations: payments and the relay draw."""

from __future__ import annotations

from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _

from puzzlecomp.championships.services.relay import SEED_LIMIT


class PaymentForm(forms.Form):
    amount = forms.DecimalField(label=_("Amount received"), max_digits=10, decimal_places=2,
                                min_value=Decimal("0.01"))


class DrawForm(forms.Form):
    seed = forms.IntegerField(
        label=_("Seed"), required=False, min_value=0, max_value=SEED_LIMIT - 1,
        help_text=_("Leave empty for a random seed; give a recorded seed to repeat a draw."))
