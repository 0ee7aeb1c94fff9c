"""Forms of the head judge's screens: time credits, corrections and dispute resolutions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from puzzlecomp.championships.messages import STATUS_LABELS
from puzzlecomp.championships.models import Championship, ProjectorScene, Result, Round
from puzzlecomp.championships.selectors.rounds import GroupTimes
from puzzlecomp.championships.services.results import ResultValues
from puzzlecomp.rules import limits
from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.results import Status
from puzzlecomp.rules.times import format_time, parse_time


def _seconds(text: str) -> int:
    try:
        return parse_time(text)
    except ValueError:
        raise forms.ValidationError(
            _("Write a time as H:MM:SS, MM:SS or whole seconds.")) from None


class TimeCreditForm(forms.Form):
    entry = forms.IntegerField(label=_("Entry number"), min_value=1,
                               max_value=limits.MAX_ENTRY_NUMBER)
    credit = forms.CharField(label=_("Time credit (MM:SS)"), max_length=12,
                             help_text=_("The time lost, e.g. 2:30; 0 takes a credit back."))
    reason = forms.CharField(label=_("Reason"), max_length=300)

    def clean_credit(self) -> int:
        seconds = _seconds(self.cleaned_data["credit"])
        # The round's own limit is the service's check (rules/credits.py); a day bounds any.
        if seconds > limits.MAX_SECONDS:
            raise forms.ValidationError(
                _("A time credit is at most %(max)s.") % {"max": format_time(limits.MAX_SECONDS)})
        return seconds


# Engine field names -> the form field that shows their error.
FIELD_OF = {"time": "time", "pieces": "pieces", "remaining": "remaining",
            "missing": "missing", "missing_contiguous": "missing_contiguous",
            "missing_found": "missing_found", "status": "status", "reason": "reason"}


class ResultFieldsForm(forms.Form):
    """The recorded values of one result, as the head judge corrects them."""

    status = forms.ChoiceField(label=_("Result"),
                               choices=[(s.value, STATUS_LABELS[s.value]) for s in Status])
    time = forms.CharField(label=_("Time (H:MM:SS)"), max_length=12, required=False)
    pieces = forms.IntegerField(label=_("Pieces placed"), min_value=0,
                                max_value=limits.MAX_PIECES, required=False)
    remaining = forms.IntegerField(label=_("Pieces remaining"), min_value=0,
                                   max_value=limits.MAX_PIECES, required=False)
    missing = forms.IntegerField(label=_("Missing pieces"), min_value=0,
                                 max_value=limits.MAX_PIECES, required=False)
    missing_contiguous = forms.IntegerField(label=_("of them in contiguous clusters"),
                                            min_value=0,
                                            max_value=limits.MAX_PIECES, required=False)
    missing_found = forms.IntegerField(label=_("of them found elsewhere"), min_value=0,
                                       max_value=limits.MAX_PIECES,
                                       required=False)
    checked = forms.BooleanField(label=_("Puzzle checked by a judge"), required=False)
    competitor_confirmed = forms.BooleanField(label=_("Time confirmed by the competitor"),
                                              required=False)
    note = forms.CharField(label=_("Note"), max_length=300, required=False)
    base_version = forms.IntegerField(widget=forms.HiddenInput, min_value=0,
                                      max_value=limits.MAX_VERSION)

    def __init__(self, *args: Any, statuses: Sequence[Status], puzzles: int = 1,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Only the statuses the round's ruleset defines (rules.scoring.statuses_of).
        field = self.fields["status"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [(s.value, STATUS_LABELS[s.value]) for s in statuses]
        self.puzzle_count = puzzles
        if puzzles > 1:
            # A multi-puzzle round records each puzzle (its finish from the shared start, or
            # its count); the result's time is the last finish, so there is no plain time.
            for name in ("time", "pieces", "remaining"):
                del self.fields[name]
            # Pieces missing overall (not of one puzzle) stay, so a correction keeps them.
            self.fields["missing"].label = _("Missing pieces not of one puzzle")
            for number in range(1, puzzles + 1):
                self.fields[f"puzzle_{number}_time"] = forms.CharField(
                    label=_("Puzzle %(number)s: finish (H:MM:SS)") % {"number": number},
                    max_length=12, required=False)
                self.fields[f"puzzle_{number}_pieces"] = forms.IntegerField(
                    label=_("Puzzle %(number)s: pieces placed (unfinished)")
                    % {"number": number}, min_value=0, max_value=limits.MAX_PIECES,
                    required=False)
                self.fields[f"puzzle_{number}_missing"] = forms.IntegerField(
                    label=_("Puzzle %(number)s: missing pieces") % {"number": number},
                    min_value=0, max_value=limits.MAX_PIECES, required=False)
            self.order_fields([name for name in self.fields if name not in (
                "missing", "missing_contiguous", "missing_found", "checked",
                "competitor_confirmed", "note", "reason", "base_version")])

    def clean_time(self) -> int | None:
        text = self.cleaned_data["time"].strip()
        return _seconds(text) if text else None

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for number in range(1, self.puzzle_count + 1 if self.puzzle_count > 1 else 1):
            name = f"puzzle_{number}_time"
            text = (data.get(name) or "").strip()
            try:
                data[name] = _seconds(text) if text else None
            except forms.ValidationError as error:
                self.add_error(name, error)
        return data

    def values(self, *, puzzles: list[dict[str, Any]]) -> ResultValues:
        """The corrected values; in a multi-puzzle round each puzzle's finish, count and
        missing pieces as corrected, the rest of its record (its check) as stored."""
        data = self.cleaned_data
        common = {"status": Status(data["status"]), "checked": data["checked"],
                  "competitor_confirmed": data["competitor_confirmed"], "note": data["note"]}
        missing: dict[str, Any] = {"missing": data["missing"] or 0,
                                   "missing_contiguous": data["missing_contiguous"] or 0,
                                   "missing_found": data["missing_found"] or 0}
        if self.puzzle_count > 1:
            return ResultValues(**common, **missing, puzzles=self._puzzles(puzzles))
        return ResultValues(
            **common, **missing, time_seconds=data["time"], pieces=data["pieces"],
            remaining=data["remaining"], puzzles=puzzles)

    def _puzzles(self, stored: list[dict[str, Any]]) -> list[dict[str, Any]]:
        data = self.cleaned_data
        if Status(data["status"]) not in (Status.FINISHED, Status.UNFINISHED):
            return []  # a result without a time or a count keeps no puzzles (the history has them)
        corrected = []
        for number in range(1, self.puzzle_count + 1):
            record = {"time": None, "pieces": None, "remaining": None, "missing": 0,
                      "contiguous": 0, "found": 0, "verified": data["checked"],
                      "authorised": True}
            if number <= len(stored):
                record.update(stored[number - 1])
            time = data.get(f"puzzle_{number}_time")
            missing = data.get(f"puzzle_{number}_missing") or 0
            pieces = None if time is not None else data.get(f"puzzle_{number}_pieces")
            record.update(time=time, missing=missing if time is not None else 0, pieces=pieces,
                          # A count stored as pieces remaining stays until pieces replace it.
                          remaining=record["remaining"] if time is None and pieces is None
                          else None)
            if time is None:
                record.update(contiguous=0, found=0)
            else:
                record.update(contiguous=min(record["contiguous"], missing),
                              found=min(record["found"], missing))
            corrected.append(record)
        return corrected

    def add_violations(self, error: RulesError, messages: list[str]) -> None:
        """Show the engine's refusals at the fields they name."""
        for violation, text in zip(error.violations, messages, strict=True):
            field = FIELD_OF.get(violation.field)
            self.add_error(field if field in self.fields else None, text)


def initial_of(row: Result | None) -> dict[str, Any]:
    """The form's starting values: the stored result (each puzzle's of a multi-puzzle round),
    or an empty finished one."""
    if row is None:
        return {"status": Status.FINISHED.value, "checked": True, "base_version": 0}
    per_puzzle: dict[str, Any] = {}
    for number, puzzle in enumerate(row.puzzles or [], start=1):
        time = puzzle.get("time")
        per_puzzle[f"puzzle_{number}_time"] = format_time(time) if time is not None else ""
        per_puzzle[f"puzzle_{number}_pieces"] = puzzle.get("pieces") if time is None else None
        per_puzzle[f"puzzle_{number}_missing"] = puzzle.get("missing") or 0
    return {**per_puzzle,
        "status": row.status,
        "time": format_time(row.time_seconds) if row.time_seconds is not None else "",
        "pieces": row.pieces, "remaining": row.remaining, "missing": row.missing,
        "missing_contiguous": row.missing_contiguous, "missing_found": row.missing_found,
        "checked": row.checked, "competitor_confirmed": row.competitor_confirmed,
        "note": row.note, "base_version": row.version,
    }


class CorrectionForm(ResultFieldsForm):
    reason = forms.CharField(label=_("Reason for the correction"), max_length=300,
                             help_text=_("Kept in the entry's history with the old and new "
                                         "values."))


class DisputeResolveForm(ResultFieldsForm):
    REJECT, UPHOLD, CORRECT = "reject", "uphold", "correct"

    decision = forms.ChoiceField(label=_("Decision"), widget=forms.RadioSelect, choices=[
        (REJECT, _("Reject: the result stands")),
        (UPHOLD, _("Uphold without changing the result")),
        (CORRECT, _("Uphold and correct the result as below")),
    ])
    resolution = forms.CharField(label=_("Answer to the competitor"), max_length=2000,
                                 widget=forms.Textarea(attrs={"rows": 3}))

    field_order = ["decision", "resolution"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The result's fields matter only when the decision corrects it.
        self.fields["status"].required = False

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("decision") != self.CORRECT:
            for name in self.fields:
                if name not in ("base_version", "decision", "resolution"):
                    self.errors.pop(name, None)
        elif not data.get("status"):
            self.add_error("status", _("Choose the corrected result."))
        return data

    @property
    def corrects(self) -> bool:
        return self.cleaned_data.get("decision") == self.CORRECT


class EntryFilterForm(forms.Form):
    """What "Entries and corrections" lists: a group, a number or name, only those without a
    result (a WJPC round seats 1,200 entries; the list is paged)."""

    group = forms.ChoiceField(label=_("Group"), required=False)
    q = forms.CharField(label=_("Number or name"), max_length=100, required=False)
    without_result = forms.BooleanField(label=_("Only those with no result yet"),
                                        required=False)

    def __init__(self, *args: Any, groups: Sequence[str], **kwargs: Any) -> None:
        super().__init__(*args, label_suffix="", **kwargs)
        field = self.fields["group"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [("", _("All groups")), *((g, g) for g in groups)]


class ProjectorSceneForm(forms.Form):
    """What the hall's projectors show: a scene of a round (or of one of its groups), or a
    message. The message goes with the scene it is sent with: a switch without it clears it."""

    scene = forms.ChoiceField(label=_("Scene"), choices=ProjectorScene.choices)
    round = forms.ModelChoiceField(label=_("Round"), queryset=Round.objects.none(),
                                   required=False)
    group = forms.ChoiceField(label=_("Group"), required=False,
                              help_text=_("One group of the round, or every group."))
    message = forms.CharField(label=_("Message"), max_length=200, required=False,
                              help_text=_("Shown with this scene only: send it again with the "
                                          "next scene to keep it."))

    def __init__(self, *args: Any, championship: Championship, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["round"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = (Round.objects.filter(event__championship=championship)
                          .select_related("event").order_by("event__position", "position"))
        field.label_from_instance = lambda rnd: f"{rnd.event.display_name} · {rnd.display_name}"
        rounds = list(field.queryset)
        groups = sorted({g for rnd in rounds for g in rnd.groups or []})
        group = self.fields["group"]
        assert isinstance(group, forms.ChoiceField)
        group.choices = [("", _("Every group")),
                         *((g, _("Group %(group)s") % {"group": g}) for g in groups)]
        # Each round's own groups: projector-form.js offers only the chosen round's (without
        # JavaScript every group is offered, and the server refuses one the round lacks).
        self.round_groups = {str(rnd.pk): list(rnd.groups or []) for rnd in rounds}

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        scene = data.get("scene")
        rnd, group = data.get("round"), data.get("group") or ""
        if scene == ProjectorScene.MESSAGE and not data.get("message"):
            self.add_error("message", _("Write the message to show."))
        elif scene and scene != ProjectorScene.MESSAGE and rnd is None:
            self.add_error("round", _("Choose the round whose scene to show."))
        elif (scene != ProjectorScene.MESSAGE and rnd is not None and group
              and group not in (rnd.groups or [])):
            self.add_error("group", _("%(round)s has no group %(group)s.")
                           % {"round": f"{rnd.event.display_name} · {rnd.display_name}",
                              "group": group})
        return data


class GroupPlanForm(forms.Form):
    """A planned start for each group of the round (local time of the championship)."""

    def __init__(self, *args: Any, groups: list[GroupTimes], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for g in groups:
            at = g.planned_at
            self.fields[g.group] = forms.DateTimeField(
                label=_("Group %(group)s") % {"group": g.group}, required=False,
                widget=forms.DateTimeInput(attrs={"type": "datetime-local"},
                                           format="%Y-%m-%dT%H:%M"),
                initial=timezone.localtime(at) if at else None)

