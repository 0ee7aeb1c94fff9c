"""The check-in desk's forms: a status for an entrant, a replacement for a no-show."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from puzzlecomp.championships.models import CheckInStatus, Entry
from puzzlecomp.rules.check_in import DESK_STATUSES


class CheckInForm(forms.Form):
    status = forms.ChoiceField(label=_("Status"), choices=[
        (value, label) for value, label in CheckInStatus.choices if value in DESK_STATUSES])
    q = forms.CharField(required=False, widget=forms.HiddenInput)


class ReplaceForm(forms.Form):
    replacement = forms.TypedChoiceField(label=_("Give the table to"), coerce=int)

    def __init__(self, candidates: Sequence[Entry], *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        waiting = _("waiting list")
        self.fields["replacement"].choices = [
            (entry.number, f"{entry.number} · {entry.name}"
                           + (f" ({waiting})" if entry.status == "waiting" else ""))
            for entry in candidates]
