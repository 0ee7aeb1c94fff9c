"""The import form, and the translated message of each import problem code."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from puzzlecomp.championships.models import Championship, Event
from puzzlecomp.championships.services.importing import ImportProblem

MAX_UPLOAD_BYTES = 5 * 1024 * 1024

MESSAGES = {
    "import.unknown_format": _("Upload a .csv or .xlsx file."),
    "import.unreadable": _("The file cannot be read as %(kind)s."),
    "import.missing_column": _("the header has no %(column)s column"),
    "import.empty": _("The file has no rows below the header."),
    "import.too_many_rows": _("The file has %(count)s rows; at most %(max)s at once."),
    "import.blank": _("is blank"),
    "import.too_long": _("is longer than %(max)s characters"),
    "import.unknown_country": _("'%(value)s' is not a country"),
    "import.not_a_date": _("'%(value)s' is not a date (YYYY-MM-DD)"),
    "import.not_a_number": _("'%(value)s' is not a whole number"),
    "import.not_yes_no": _("'%(value)s' is not yes or no"),
    "import.unknown_value": _("'%(value)s' is not one of %(allowed)s"),
    "import.bad_email": _("'%(value)s' is not an email address"),
    "import.entry_blank": _("pairs and teams need an entry key to group their members"),
    "import.position_twice": _("position %(position)s is used twice in entry %(entry_key)s"),
    "import.member_count": _(
        "entry %(entry_key)s has %(count)s members; %(event)s needs %(min)s to %(max)s"),
    "import.already_entered": _("%(value)s already has an entry in this event"),
    "import.email_twice": _("%(value)s is also in entry %(other)s"),
}


def problem_message(problem: ImportProblem) -> str:
    """'row 7, entry T3, field birth_date: '31/02/1990' is not a date', translated."""
    message = MESSAGES.get(problem.code)
    text = str(message) % problem.params if message is not None else problem.message
    where = []
    if problem.row is not None:
        where.append(str(_("row %(row)s") % {"row": problem.row}))
    if problem.entry and not problem.entry.startswith("row "):
        where.append(str(_("entry %(entry)s") % {"entry": problem.entry}))
    if problem.field:
        where.append(str(_("field %(field)s") % {"field": problem.field}))
    return f"{', '.join(where)}: {text}" if where else text


class ImportForm(forms.Form):
    event = forms.ModelChoiceField(label=_("Event"), queryset=Event.objects.none())
    file = forms.FileField(label=_("CSV or XLSX file"),
                           help_text=_("Columns are described in the import guide."))

    def __init__(self, *args: object, championship: Championship, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["event"].queryset = championship.events.all()  # type: ignore[attr-defined]

    def clean_file(self) -> object:
        upload = self.cleaned_data["file"]
        if not upload.name.lower().endswith((".csv", ".xlsx")):
            raise forms.ValidationError(_("Upload a .csv or .xlsx file."))
        if upload.size > MAX_UPLOAD_BYTES:
            raise forms.ValidationError(_("The file is larger than 5 MB."))
        return upload
