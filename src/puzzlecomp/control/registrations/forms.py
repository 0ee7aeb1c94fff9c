"""Organiser forms for registrations: the entry list's search and filters, payments, the
relay draw, facts from history."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from puzzlecomp.championships.bounds import money_field
from puzzlecomp.championships.models import EntryStatus, HistoryFact
from puzzlecomp.championships.ruleset_texts import ruleset_text
from puzzlecomp.championships.selectors.registration import EntryRow
from puzzlecomp.championships.services.relay import SEED_LIMIT
from puzzlecomp.rules import limits

YES_NO = [("", _("all")), ("yes", _("yes")), ("no", _("no"))]


class EntryFilterForm(forms.Form):
    """Search and filters of the entry list; a filter left empty keeps every entry."""

    q = forms.CharField(label=_("Search"), required=False, max_length=200,
                        widget=forms.TextInput(attrs={"type": "search", "placeholder": _(
                            "number, name or email")}))
    status = forms.ChoiceField(label=_("Status"), required=False,
                               choices=[("", _("all")), *EntryStatus.choices])
    category = forms.ChoiceField(label=_("Age category"), required=False)
    accompanied = forms.ChoiceField(label=_("Accompanied by an adult"), required=False,
                                    choices=YES_NO)
    foreign = forms.ChoiceField(label=_("Outside the official ranking"), required=False,
                                choices=YES_NO)
    unpaid = forms.BooleanField(label=_("Fee not paid in full"), required=False)

    def __init__(self, *args: Any, categories: Sequence[str], foreign: bool,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if categories:
            self.fields["category"].choices = [("", _("all")),
                                               *((c, ruleset_text(c)) for c in categories)]
        else:
            del self.fields["category"]
        if not foreign:
            del self.fields["foreign"]

    def apply(self, rows: Sequence[EntryRow]) -> list[EntryRow]:
        """The rows that pass every filter given (all of them when the form is empty)."""
        if not self.is_bound or not self.is_valid():
            return list(rows)
        wanted = self.cleaned_data
        found = [row for row in rows if not wanted["q"] or row.matches(wanted["q"])]
        if wanted["status"]:
            found = [row for row in found if row.entry.status == wanted["status"]]
        if wanted.get("category"):
            found = [row for row in found if wanted["category"] in row.age_categories]
        if wanted["accompanied"]:
            found = [row for row in found
                     if row.accompanied_by_adult == (wanted["accompanied"] == "yes")]
        if wanted.get("foreign"):
            found = [row for row in found if row.foreign == (wanted["foreign"] == "yes")]
        if wanted["unpaid"]:
            found = [row for row in found if row.outstanding]
        return found


class PaymentForm(forms.Form):
    amount = money_field(_("Amount received"), min_value=Decimal("0.01"))

    def __init__(self, *args: Any, currency: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if currency:
            self.fields["amount"].label = f"{self.fields['amount'].label} ({currency})"


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

    member = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=limits.MAX_ID)
    person = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=limits.MAX_ID)
    reason = forms.CharField(label=_("Reason"), max_length=300)

