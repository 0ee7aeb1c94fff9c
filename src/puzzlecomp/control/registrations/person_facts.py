"""The person facts of an entry's members that the ruleset declares (citizenship, residence,
years of residence, region), corrected by an organiser with a reason: the official ranking
and the prizes read them. One form per member, prefilled with what is stored."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from puzzlecomp.championships.country_names import country_choices
from puzzlecomp.championships.engine import ruleset_of
from puzzlecomp.championships.messages import message_of
from puzzlecomp.championships.models import Championship, Entry, EntryMember, Role
from puzzlecomp.championships.roles import requires_role
from puzzlecomp.championships.ruleset_texts import ruleset_text
from puzzlecomp.championships.selectors.registration import outside_official_ranking
from puzzlecomp.championships.services.person_facts import (
    PersonFactsRefused,
    editable_facts,
    member_person_facts_set,
)
from puzzlecomp.rules import limits
from puzzlecomp.rules.ruleset import PersonFact


def fact_field(fact: PersonFact, *, required: bool) -> forms.Field:
    """The form field of a declared person fact, labelled in the ruleset's words."""
    label = ruleset_text(fact.description)
    if fact.kind == "number":
        return forms.IntegerField(label=label, min_value=0, max_value=limits.MAX_YEARS,
                                  required=False)
    if fact.kind == "country":
        return forms.ChoiceField(label=label, required=required, choices=[
            ("", "---------"), *country_choices()])
    return forms.ChoiceField(label=label, required=False, choices=[
        ("", "---------"),
        *((c.value, ruleset_text(c.name) if c.name else c.value) for c in fact.values)])


class PersonFactsForm(forms.Form):
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=300)

    def __init__(self, *args: Any, member: EntryMember, **kwargs: Any) -> None:
        person = member.person
        declared = editable_facts(member)
        initial = {name: _initial(getattr(person, name)) for name in declared}
        super().__init__(*args, prefix=f"m{member.pk}", initial=initial, **kwargs)
        reason = self.fields.pop("reason")
        for name, fact in declared.items():
            self.fields[name] = fact_field(fact, required=name == "nationality")
        self.fields["reason"] = reason
        self.member = member

    def values(self) -> dict[str, Any]:
        return {name: value if value != "" else None for name, value in self.cleaned_data.items()
                if name != "reason"}


def _initial(value: Any) -> Any:
    code = getattr(value, "code", None)
    return code if code is not None else value


@requires_role(Role.ORGANISER)
def person_facts(request: HttpRequest, championship: Championship, event_code: str,
                 number: int) -> HttpResponse:
    """Each member's declared person facts, and a form to correct them with a reason."""
    entry = get_object_or_404(Entry.objects.select_related("event__championship"),
                              event__championship=championship, event__code=event_code,
                              number=number)
    members = list(EntryMember.objects.filter(entry=entry).select_related("person", "entry"))
    for member in members:
        member.entry = entry
    posted = request.POST.get("member") if request.method == "POST" else None
    cards = [PersonFactsForm(request.POST if str(m.pk) == posted else None, member=m)
             for m in members if editable_facts(m)]
    chosen = next((form for form in cards if form.is_bound), None)
    if chosen is not None and chosen.is_valid():
        try:
            changed = member_person_facts_set(member=chosen.member, values=chosen.values(),
                                              reason=chosen.cleaned_data["reason"],
                                              user=request.user)
        except PersonFactsRefused as refused:
            messages.error(request, message_of(refused.code, refused.message, refused.params))
        else:
            if changed:
                messages.success(request, _("Person facts of %(name)s set.")
                                 % {"name": chosen.member.person})
            else:
                messages.info(request, _("Nothing changed."))
            return redirect("control:registrations:person_facts", championship.slug,
                            event_code, number)
    official = ruleset_of(entry).official_ranking
    return render(request, "control/registrations/person_facts.html", {
        "championship": championship, "entry": entry, "cards": cards,
        "official_ranking": ruleset_text(official.description) if official else None,
        "outside_official": outside_official_ranking(entry),
    })
