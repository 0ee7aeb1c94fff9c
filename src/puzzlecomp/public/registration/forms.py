"""The registration form: one block of fields per person, as many as the event allows."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _
from django_countries import countries

from puzzlecomp.championships.country_names import country_choices
from puzzlecomp.championships.engine import ioc_of_code
from puzzlecomp.championships.messages import violation_message
from puzzlecomp.championships.models import Event, Person
from puzzlecomp.championships.ruleset_texts import ruleset_text
from puzzlecomp.championships.selectors.people import (
    PersonCandidate,
    archive_only,
    person_candidates,
)
from puzzlecomp.championships.selectors.person_pages import public_people
from puzzlecomp.championships.selectors.registration import (
    competition_day,
    event_rules,
    person_matches,
)
from puzzlecomp.championships.services.registration import MemberDetails
from puzzlecomp.rules import limits
from puzzlecomp.rules.errors import RuleViolation
from puzzlecomp.rules.ruleset import PersonFact

# Engine fields (members[i].<attribute>) -> the form field that shows the message.
FIELD_OF = {"email": "email", "birth_year": "birth_date", "birth_date": "birth_date",
            "accompanied_by_adult": "accompanied_by_adult", "chosen_nationality": "represents"}
MEMBER_FIELD = re.compile(r"^members\[(\d+)\]\.(\w+)$")




def country_name(ioc_code: str) -> str:
    """The name of a country by its IOC code, in the active language."""
    return next((str(name) for code, name in countries if ioc_of_code(code) == ioc_code),
                ioc_code)


def optional_country_choices() -> list[tuple[str, str]]:
    return [("", "---------"), *country_choices()]


class MemberForm(forms.Form):
    """One person of an entry."""

    # Each required field's row is marked (the page says what the mark means).
    required_css_class = "required"

    first_name = forms.CharField(label=_("First name"), max_length=100)
    last_name = forms.CharField(label=_("Last name"), max_length=100)
    email = forms.EmailField(label=_("Email"))
    birth_date = forms.DateField(label=_("Birth date"),
                                 help_text=_("Private: only your age category is published."),
                                 widget=forms.DateInput(attrs={"type": "date"}))
    nationality = forms.ChoiceField(label=_("Nationality"), choices=optional_country_choices)
    other_nationalities = forms.MultipleChoiceField(
        label=_("Other nationalities"), choices=country_choices, required=False,
        widget=forms.SelectMultiple(attrs={"size": 4}))
    represents = forms.ChoiceField(
        label=_("Nationality you represent"), choices=optional_country_choices, required=False,
        help_text=_("Required when you hold more than one nationality. Where the rulebook says "
                    "so (WJPC), the choice is final once you have competed."))
    residence = forms.ChoiceField(label=_("Country of residence"),
                                  choices=optional_country_choices)
    # Only where the ruleset reads the region (its choices and whose it is come from there).
    region = forms.ChoiceField(label=_("State or territory"), required=False)
    # Only where the ruleset reads it (Norway's title: citizens or 5 years' residents).
    years_resident = forms.IntegerField(min_value=0, max_value=limits.MAX_YEARS, required=False)
    accompanied_by_adult = forms.BooleanField(
        label=_("An adult (parent or guardian) accompanies me"), required=False)
    # Only where the ruleset reads it (a territory resident's trophy at their first state
    # competition of the year).
    first_state_competition_of_year = forms.BooleanField(
        label=_("This is the first state competition I enter this calendar year"),
        required=False)
    consent_publish = forms.BooleanField(
        label=_("I agree that my name, nationality and age category may be published in the "
                "participant list and results"))
    consent_photos = forms.BooleanField(
        label=_("Photos and videos of me may be published to promote the championship"),
        required=False)

    def __init__(self, *args: Any, region: PersonFact | None = None,
                 first_of_year_asked: bool = False, years_resident: PersonFact | None = None,
                 accompanied_below: int | None = None, age_day: dt.date | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.region = region
        if years_resident is None:
            del self.fields["years_resident"]
        else:
            self.fields["years_resident"].label = ruleset_text(years_resident.description)
            self.fields["years_resident"].help_text = _(
                "Whole years you have lived there; it decides the official ranking. Blank if "
                "you do not live there.")
        if not first_of_year_asked:
            del self.fields["first_state_competition_of_year"]
        if region is None:
            del self.fields["region"]
        else:
            # The names are the ruleset's; catalogs translate those they know.
            self.fields["region"].choices = [
                ("", "---------"),
                *((c.value, ruleset_text(c.name) if c.name else c.value) for c in region.values)]
            if region.residents_of is not None:
                self.fields["region"].help_text = _("For residents of %(country)s.") % {
                    "country": country_name(region.residents_of)}
        if accompanied_below is None:
            del self.fields["accompanied_by_adult"]
        else:
            # The ruleset's day for ages (rules/ages.py): the competition's first day here.
            self.fields["accompanied_by_adult"].help_text = _(
                "Needed for anyone under %(age)s on %(day)s.") % {
                "age": accompanied_below,
                "day": formats.date_format(age_day, "DATE_FORMAT") if age_day else ""}

    def clean_birth_date(self) -> dt.date:
        born: dt.date = self.cleaned_data["birth_date"]
        if born > timezone.localdate() or born.year < 1900:
            raise forms.ValidationError(_("Please give a real birth date."))
        return born

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.region is None:
            return data
        country = self.region.residents_of
        resident = country is None or ioc_of_code(data.get("residence") or "") == country
        if data.get("region") and country is not None and not resident:
            self.add_error("region", _("A state or territory is only for residents of "
                                       "%(country)s.") % {"country": country_name(country)})
        if resident and not data.get("region"):
            self.add_error("region", _("Please choose your state or territory: prizes here "
                                       "depend on it."))
        return data

    def details(self) -> MemberDetails:
        data = self.cleaned_data
        return MemberDetails(
            first_name=data["first_name"], last_name=data["last_name"], email=data["email"],
            nationality=data["nationality"], birth_date=data["birth_date"],
            other_nationalities=tuple(data["other_nationalities"]),
            represents=data["represents"], residence=data["residence"],
            region=data.get("region", ""),
            consent_publish=data["consent_publish"], consent_photos=data["consent_photos"],
            accompanied_by_adult=data.get("accompanied_by_adult", False),
            first_state_competition_of_year=data.get("first_state_competition_of_year"),
            years_resident=data.get("years_resident"),
        )


class RegistrationForm:
    """Member blocks for one event: the first `members_min` are required, the rest optional."""

    def __init__(self, event: Event, data: Any = None) -> None:
        ruleset, spec = event_rules(event)
        self.event = event
        blocks = 1 if spec.drawn_teams else spec.members_max
        required = 1 if spec.drawn_teams else spec.members_min
        region = ruleset.facts.get("region")
        accompanied_below = ruleset.registration.age.accompanied_below
        age_day = ruleset.registration.age.day(competition_day(event.championship))
        self.members = [
            MemberForm(data, prefix=f"m{i}", region=region,
                       first_of_year_asked="first_state_competition_of_year" in ruleset.facts,
                       years_resident=ruleset.facts.get("years_resident"),
                       accompanied_below=accompanied_below, age_day=age_day,
                       empty_permitted=i >= required, use_required_attribute=i < required)
            for i in range(blocks)
        ]
        self.entry = TeamNameForm(data, prefix="entry") if event.kind == "team" else None
        self.errors: list[str] = []
        self._filled: list[int] = []
        self.data = data
        # Per member block: the known people they may be, asked as "is this you?".
        self.known: dict[int, list[PersonCandidate]] = {}

    def is_valid(self) -> bool:
        checked = [form.is_valid() for form in self.members]  # every block shows its errors
        valid = all(checked)
        if self.entry is not None:
            valid = self.entry.is_valid() and valid
        self._filled = [i for i, form in enumerate(self.members)
                        if i == 0 or form.has_changed()]
        return valid

    def details(self) -> list[MemberDetails]:
        return [self.members[i].details() for i in self._filled]

    def ask_known_people(self) -> bool:
        """True when some member may be a person known from earlier championships and has not
        said whether they are; `known` then holds the people to ask about.

        Only people of the archive alone (selectors.people.archive_only) without an email on
        record who consented to publication are offered: anyone else is found by email, names
        and birth date, or merged by an organiser. The typed birth year plays no part, so the
        question never tells a stored birth year; the answer is a claim that waits for proof
        (services/claims.py).
        """
        unanswered = False
        for i in self._filled:
            member = self.members[i].details()
            if person_matches(email=member.email, first_name=member.first_name,
                              last_name=member.last_name, birth_date=member.birth_date).exists():
                continue
            found = [c for c in person_candidates(
                first_name=member.first_name, last_name=member.last_name,
                birth_year=None, country=member.nationality) if not c.person.email]
            # Named somewhere with the consent given there (selectors.publishing).
            public = set(public_people().filter(pk__in=[c.person.pk for c in found])
                         .values_list("pk", flat=True))
            found = [c for c in found if c.person.pk in public]
            from_archive = archive_only([c.person.pk for c in found])
            candidates = [c for c in found if c.person.pk in from_archive]
            if candidates:
                self.known[i] = candidates
                answer = self.data.get(f"m{i}-known", "")
                offered = {"none", *(str(c.person.pk) for c in candidates)}
                if answer and answer not in offered:
                    # Someone not offered for this name: no skipping the question.
                    self.errors.append(_("Choose one of the people offered, or say it is "
                                         "someone else."))
                unanswered = unanswered or answer not in offered
        return unanswered

    def claimed(self) -> dict[str, Person]:
        """The known person each member said they are, by the member's identity."""
        claims = {}
        for i, candidates in self.known.items():
            answer = self.data.get(f"m{i}-known", "")
            chosen = next((c.person for c in candidates if str(c.person.pk) == answer), None)
            if chosen is not None:
                claims[self.members[i].details().identity] = chosen
        return claims

    def summary(self) -> list[dict[str, str]]:
        """Every message of the form for the summary above it: the person's number, the
        field's label and the message, with the field's id to jump to."""
        found = [{"person": "", "label": "", "message": str(text), "id": ""}
                 for text in self.errors]
        blocks: list[tuple[str, forms.Form]] = [
            (str(n), form) for n, form in enumerate(self.members, start=1)]
        if self.entry is not None:
            blocks.insert(0, ("", self.entry))
        for person, form in blocks:
            for name, texts in form.errors.items():
                field = form.fields.get(name) if name != forms.forms.NON_FIELD_ERRORS else None
                for text in texts:
                    found.append({"person": person, "label": str(field.label) if field else "",
                                  "message": str(text),
                                  "id": form[name].id_for_label if field else ""})
        return found

    def team_name_value(self) -> str:
        return self.entry.cleaned_data["name"] if self.entry is not None else ""

    def add_violations(self, violations: Sequence[RuleViolation]) -> None:
        """Show each refusal next to the person and field it concerns, or above the form."""
        for violation in violations:
            message = violation_message(violation, event=self.event.display_name)
            match = MEMBER_FIELD.match(violation.field)
            if match is None or int(match[1]) >= len(self._filled):
                self.errors.append(message)
                continue
            form = self.members[self._filled[int(match[1])]]
            form.add_error(FIELD_OF.get(match[2]), message)


class TeamNameForm(forms.Form):
    name = forms.CharField(label=_("Team name"), max_length=200, required=False,
                           help_text=_("Optional: the members' names are used without one."))
