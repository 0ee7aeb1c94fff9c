"""Forms of the setup screens, and the message of a refused setup change."""

from __future__ import annotations

import zoneinfo
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from puzzlecomp.championships.bounds import money_field, one_line
from puzzlecomp.championships.messages import message_of
from puzzlecomp.championships.models import Role
from puzzlecomp.championships.ruleset_texts import ruleset_text
from puzzlecomp.championships.services.settings import SetupError
from puzzlecomp.championships.time_zones import time_zone_names
from puzzlecomp.rules import limits
from puzzlecomp.rules.ruleset import Ruleset


def setup_error_message(error: SetupError) -> str:
    """The translated message of a refused setup change."""
    return message_of(error.code, error.message, error.params)


def time_zone_choices() -> list[tuple[str, str]]:
    return [(name, name.replace("_", " ")) for name in time_zone_names()]


DATETIME = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


def comma_list(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


class ChampionshipForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200, validators=[one_line])
    starts_at = forms.DateTimeField(label=_("Starts at"), widget=DATETIME)
    ends_on = forms.DateField(label=_("Ends on"), required=False,
                              widget=forms.DateInput(attrs={"type": "date"},
                                                     format="%Y-%m-%d"))
    venue = forms.CharField(label=_("Venue"), max_length=200, required=False)
    # Blank (a form posted without it): the zone stays as it is.
    time_zone = forms.ChoiceField(
        label=_("Time zone"), choices=time_zone_choices, required=False,
        help_text=_("Where the championship is held: every time shown, printed, emailed and "
                    "exported is in it. The start above is read in it."))
    published = forms.BooleanField(label=_("Published (the public pages show it)"),
                                   required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        # The start is typed as a local time of the zone chosen in the same form.
        if data.get("starts_at") and data.get("time_zone"):
            naive = timezone.make_naive(data["starts_at"])
            data["starts_at"] = timezone.make_aware(naive, zoneinfo.ZoneInfo(data["time_zone"]))
        return data


class EntrantEmailsForm(forms.Form):
    enabled = forms.BooleanField(
        label=_("Email entrants when their result is published and when their dispute is "
                "answered"), required=False,
        help_text=_("Each entrant may still turn these emails off on their own page."))


class RulesetSettingsForm(forms.Form):
    """One choice per setting the ruleset declares, from the values it declares."""

    def __init__(self, *args: Any, ruleset: Ruleset, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, spec in ruleset.settings.items():
            choices = [(c.value, f"{c.value}: {ruleset_text(c.name)}" if c.name else c.value)
                       for c in ruleset.setting_values(name)]
            self.fields[name] = forms.ChoiceField(
                label=name, help_text=ruleset_text(spec.description), required=spec.default is None,
                choices=choices if spec.default is not None else [("", "---------"), *choices],
                initial=spec.default)


class FloorPlanForm(forms.Form):
    rows = forms.CharField(label=_("Tables per row, front to back"), max_length=2000,
                           help_text=_("Whole numbers separated by commas, e.g. 6,8,10."))
    guest_tables = forms.IntegerField(label=_("Guest tables (at the back)"), min_value=0,
                                      max_value=limits.MAX_TABLES)

    def clean_rows(self) -> list[int]:
        parts = self.cleaned_data["rows"].replace(" ", "").strip(",").split(",")
        if not all(part.isascii() and part.isdigit() for part in parts):
            raise forms.ValidationError(
                _("Give the tables per row as whole numbers separated by commas, e.g. 6,8,10."))
        if len(parts) > limits.MAX_ROWS or any(len(part) > 6 for part in parts):
            raise forms.ValidationError(_("The hall holds at most %(rows)s rows of %(tables)s "
                                          "tables.") % {"rows": limits.MAX_ROWS,
                                                        "tables": limits.MAX_TABLES_PER_ROW})
        return [int(part) for part in parts]


DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


# Events and rounds: the ruleset's name is translated on every page, the organiser's is not.
NAME_HELP = _("The ruleset's name is shown in each visitor's language; a name of your own is "
              "shown as you type it. Blank: the ruleset's name.")


class EventForm(forms.Form):
    name = forms.CharField(label=_("Event name"), max_length=100, required=False,
                           help_text=NAME_HELP, validators=[one_line])
    capacity = forms.IntegerField(label=_("Capacity (entries; blank: no limit)"), min_value=1,
                                  max_value=limits.MAX_ENTRIES, required=False)
    fee_amount = money_field(_("Fee"), required=False, help_text=_("Blank: no fee is shown."))
    fee_per = forms.ChoiceField(label=_("The fee is per"), initial="entry",
                                choices=[("entry", _("entry")), ("person", _("person"))])
    fee_early_amount = money_field(_("Early fee"), required=False)
    fee_early_until = forms.DateField(label=_("Early fee for registrations up to and "
                                              "including"), required=False, widget=DATE)

    def __init__(self, *args: Any, rulebook_fee: bool, currency: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if rulebook_fee:
            # The rulebook prices this event: its fee is not the organiser's to change.
            for name in ("fee_amount", "fee_per", "fee_early_amount", "fee_early_until"):
                del self.fields[name]
        else:
            for name in ("fee_amount", "fee_early_amount"):
                self.fields[name].label = f"{self.fields[name].label} ({currency})"


class RegistrationTermsForm(forms.Form):
    """What the rulebook leaves to the organiser: the window, refunds, the fees' currency."""

    opens_at = forms.DateTimeField(label=_("Registration opens"), required=False,
                                   widget=DATETIME, help_text=_("Blank: open now."))
    closes_at = forms.DateTimeField(label=_("Registration closes"), required=False,
                                    widget=DATETIME,
                                    help_text=_("Blank: at the start of the championship."))
    refund_days_before = forms.IntegerField(
        label=_("Full refund for cancellations up to this many days before the start"),
        min_value=0, max_value=365, required=False,
        help_text=_("Blank: no refund."))
    fee_currency = forms.CharField(label=_("Currency of the fees"), max_length=3,
                                   required=False, help_text=_("A three-letter code such as "
                                                               "EUR, CZK, NOK or AUD."))
    offer_days = forms.IntegerField(
        label=_("Days to pay for a place offered from the waiting list"), min_value=1,
        max_value=60, required=False,
        help_text=_("A freed place is offered to the first waiting entry; unpaid after this "
                    "many days, it passes to the next. Blank: you promote waiting entries "
                    "yourself."))
    confirm_on_payment = forms.BooleanField(
        label=_("Confirm entries only once their fee is paid"), required=False)

    def __init__(self, *args: Any, rulebook_window: bool, rulebook_refunds: bool,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if rulebook_window:
            del self.fields["opens_at"], self.fields["closes_at"]
        if rulebook_refunds:
            del self.fields["refund_days_before"]


class RoundForm(forms.Form):
    name = forms.CharField(label=_("Round name"), max_length=100, required=False,
                           help_text=NAME_HELP, validators=[one_line])
    time_limit_minutes = forms.IntegerField(label=_("Time limit (minutes)"), min_value=1,
                                            max_value=limits.MAX_MINUTES, required=False)
    starts_at = forms.DateTimeField(label=_("Starts at"), required=False, widget=DATETIME)
    groups = forms.CharField(label=_("Groups"), required=False, max_length=400,
                             help_text=_("Labels separated by commas, e.g. A,B,C."))

    def clean_groups(self) -> list[str]:
        return comma_list(self.cleaned_data["groups"])


class PuzzleForm(forms.Form):
    brand = forms.CharField(label=_("Brand"), max_length=100, required=False)
    pieces = forms.IntegerField(label=_("Pieces"), min_value=1, max_value=limits.MAX_PIECES,
                                required=False)
    motif = forms.CharField(label=_("Motif"), max_length=200, required=False,
                            help_text=_("Hidden from the public until the round starts."))
    picture = forms.BooleanField(label=_("Picture on the box"), required=False)


class TeamModelsForm(forms.Form):
    entry = forms.IntegerField(label=_("Team number"), min_value=1,
                               max_value=limits.MAX_ENTRY_NUMBER)

    def __init__(self, *args: Any, offered: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["models"] = forms.TypedMultipleChoiceField(
            label=_("Chosen models"), coerce=int, widget=forms.CheckboxSelectMultiple,
            choices=[(n, _("Model %(number)s") % {"number": n}) for n in range(1, offered + 1)],
        )


class MemberAddForm(forms.Form):
    identifier = forms.CharField(label=_("Username or email"), max_length=254)
    role = forms.TypedChoiceField(label=_("Role"), choices=Role.choices, coerce=int,
                                  initial=Role.JUDGE)


class MemberRoleForm(forms.Form):
    role = forms.TypedChoiceField(label=_("Role"), choices=Role.choices, coerce=int)
