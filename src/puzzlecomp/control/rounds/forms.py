"""Forms of the rounds screens: small, one per operation."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from puzzlecomp.rules import limits
from puzzlecomp.rules.limits import MAX_CHAMPIONSHIP_FILE_BYTES

# An interchange file of a 2,000-entry championship is a few megabytes.
IMPORT_MAX_BYTES = MAX_CHAMPIONSHIP_FILE_BYTES


class WithdrawForm(forms.Form):
    entry = forms.IntegerField(label=_("Entry number"), min_value=0,
                               max_value=limits.MAX_ENTRY_NUMBER)
    lapse = forms.BooleanField(
        label=_("If nobody can take the place, let it lapse"), required=False,
        help_text=_("A play-off place belongs to its country: with nobody of that country "
                    "left, it is not passed on."))
    # The replacement the page offered (0: nobody, the place lapses); empty when the organiser
    # names the withdrawing entry by hand and the rules choose.
    offered = forms.IntegerField(required=False, min_value=0, max_value=limits.MAX_ENTRY_NUMBER,
                                 widget=forms.HiddenInput)


class ChampionshipImportForm(forms.Form):
    file = forms.FileField(label=_("Championship file (JSON)"))
    slug = forms.SlugField(label=_("Short name in addresses"), max_length=50, required=False,
                           help_text=_("Leave empty to keep the file's; needed when a "
                                       "championship here has it already."))

    def clean_file(self) -> object:
        upload = self.cleaned_data["file"]
        if upload.size > IMPORT_MAX_BYTES:
            raise forms.ValidationError(_("The file is larger than %(size)s MB.")
                                        % {"size": IMPORT_MAX_BYTES // (1024 * 1024)})
        return upload
