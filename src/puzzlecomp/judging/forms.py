"""The head judge's form for a judge's device (a section of tables)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from puzzlecomp.rules import limits


class DeviceForm(forms.Form):
    label = forms.CharField(label=_("Label"), max_length=100,
                            help_text=_("Who holds the phone, or which part of the hall."))
    table_from = forms.IntegerField(label=_("From table"), min_value=1,
                                    max_value=limits.MAX_TABLES)
    table_to = forms.IntegerField(label=_("To table"), min_value=1, max_value=limits.MAX_TABLES)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        first, last = data.get("table_from"), data.get("table_to")
        if first is not None and last is not None and last < first:
            self.add_error("table_to", _("The last table comes after the first one."))
        return data
