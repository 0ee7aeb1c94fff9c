"""The import form, and the message of an import problem naming its row, entry and field."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from puzzlecomp.championships.messages import message_of
from puzzlecomp.championships.models import Championship, Event
from puzzlecomp.championships.services.importing import ImportProblem

MAX_UPLOAD_BYTES = 5 * 1024 * 1024

def problem_message(problem: ImportProblem) -> str:
    """'row 7, entry T3, field birth_date: '31/02/1990' is not a date', translated."""
    text = message_of(problem.code, problem.message, problem.params)
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
                           help_text=_('Columns are described in the '
                                       '<a href="#import-guide">import guide</a> below.'))

    def __init__(self, *args: object, championship: Championship, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        field = self.fields["event"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = championship.events.all()
        # The page is the championship's already: the event's own name is enough.
        field.label_from_instance = lambda event: event.display_name

    def clean_file(self) -> object:
        upload = self.cleaned_data["file"]
        if not upload.name.lower().endswith((".csv", ".xlsx")):
            raise forms.ValidationError(_("Upload a .csv or .xlsx file."))
        if upload.size > MAX_UPLOAD_BYTES:
            raise forms.ValidationError(_("The file is larger than 5 MB."))
        return upload
