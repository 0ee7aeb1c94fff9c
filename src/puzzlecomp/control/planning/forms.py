"""Forms of the planning screens: small, one per operation."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from puzzlecomp.rules import limits


class GroupsAssignForm(forms.Form):
    seed = forms.IntegerField(label=_("Random seed"), min_value=0,
                              max_value=limits.MAX_SEED, required=False,
                              help_text=_("Leave empty for a new one; it is recorded."))
    # Set by the confirmation step that shows what drawing again changes.
    confirmed = forms.BooleanField(required=False, widget=forms.HiddenInput)


class GroupMoveForm(forms.Form):
    entry = forms.IntegerField(label=_("Entry number"), min_value=1,
                               max_value=limits.MAX_ENTRY_NUMBER)
    to_group = forms.CharField(label=_("New group"), max_length=20)
    reason = forms.CharField(label=_("Reason"), max_length=300)


class SeatsSwapForm(forms.Form):
    entry_a = forms.IntegerField(label=_("Entry number"), min_value=1,
                                 max_value=limits.MAX_ENTRY_NUMBER)
    entry_b = forms.IntegerField(label=_("Other entry number"), min_value=1,
                                 max_value=limits.MAX_ENTRY_NUMBER)


class NoShowForm(forms.Form):
    no_show = forms.IntegerField(label=_("Entry not shown up"), min_value=1,
                                 max_value=limits.MAX_ENTRY_NUMBER)
    replacement = forms.IntegerField(label=_("Entry taking the table"), min_value=1,
                                     max_value=limits.MAX_ENTRY_NUMBER)
