"""The competitor's dispute form."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from puzzlecomp.rules import limits


class DisputeFileForm(forms.Form):
    round = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=limits.MAX_ID)
    text = forms.CharField(label=_("What is wrong with your result?"), max_length=2000,
                           widget=forms.Textarea(attrs={"rows": 4}),
                           help_text=_("For example the time, the missing pieces or the "
                                       "pieces counted, and what you saw."))
