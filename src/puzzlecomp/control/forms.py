from django import forms
from django.utils.translation import gettext_lazy as _

from puzzlecomp.championships.bounds import one_line
from puzzlecomp.championships.ruleset_texts import ruleset_text
from puzzlecomp.rules.loading import load_ruleset, ruleset_ids


def ruleset_choices() -> list[tuple[str, str]]:
    return [(rid, f"{ruleset_text(load_ruleset(rid).name)} ({rid})") for rid in ruleset_ids()]


class ChampionshipCreateForm(forms.Form):
    ruleset_id = forms.ChoiceField(label=_("Ruleset"), choices=ruleset_choices)
    name = forms.CharField(label=_("Name"), max_length=200, validators=[one_line])
    starts_at = forms.DateTimeField(
        label=_("Starts at"), widget=forms.DateTimeInput(attrs={"type": "datetime-local"})
    )
    venue = forms.CharField(label=_("Venue"), max_length=200, required=False)
