import zoneinfo
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from puzzlecomp.championships.bounds import one_line
from puzzlecomp.championships.country_names import country_choices
from puzzlecomp.championships.ruleset_texts import ruleset_text
from puzzlecomp.championships.time_zones import default_time_zone, time_zone_names
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
    country = forms.ChoiceField(
        label=_("Host country"), required=False,
        choices=lambda: [("", "---------"), *country_choices()],
        help_text=_("Gives the time zone when you choose none."))
    time_zone = forms.ChoiceField(
        label=_("Time zone"), required=False,
        choices=lambda: [("", _("The host country's")),
                         *((n, n.replace("_", " ")) for n in time_zone_names())],
        help_text=_("Every time shown, printed, emailed and exported is in it; the start "
                    "above is read in it."))

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        data["time_zone"] = data.get("time_zone") or default_time_zone(data.get("country", ""))
        # The start is typed as a local time where the championship is held.
        if data.get("starts_at"):
            naive = timezone.make_naive(data["starts_at"])
            data["starts_at"] = timezone.make_aware(naive, zoneinfo.ZoneInfo(data["time_zone"]))
        return data
