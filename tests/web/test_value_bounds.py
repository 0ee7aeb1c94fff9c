"""Issue 22, finding 7 and the line break of finding 8: every amount of money is bounded where
it is typed (rules/limits.py MAX_MONEY, within the model's 10-digit columns), on SQLite and
PostgreSQL, in the forms, the services and the championship file; a name is one line at setup,
in the championship file, and an email's subject never fails on one stored before."""

from __future__ import annotations

import copy
import html
import importlib
import pkgutil
from decimal import Decimal

import pytest
from django import forms
from django.core import mail
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

import puzzlecomp
from puzzlecomp.championships.messages import message_of
from puzzlecomp.championships.models import Championship, Entry, Event, Role
from puzzlecomp.championships.services.interchange import championship_export
from puzzlecomp.championships.services.registration import entry_payment_record
from puzzlecomp.championships.services.settings import (
    SetupError,
    championship_update,
    event_update,
)
from puzzlecomp.formats.entries_csv import read_entries
from puzzlecomp.formats.interchange import InterchangeError, parse_championship_file
from puzzlecomp.formats.results_csv import InputError
from puzzlecomp.rules import limits
from puzzlecomp.rules.errors import RulesError
from tests.web.test_registration_public import (  # noqa: F401 (fixtures)
    person,
    published,
    register,
    wjpc,
)

LARGE = "99999999.99"


@pytest.fixture
def entry(championship: Championship) -> Entry:
    return Entry.objects.create(event=championship.events.get(code="individual"), number=1,
                                name="Jana Nová", status="confirmed", fee_currency="EUR",
                                fee_amount=Decimal(60), paid_amount=Decimal(500))


def pages_of(client, championship: Championship) -> list[str]:
    return [reverse("control:registrations:event", args=[championship.slug, "individual"]),
            reverse("control:registrations:payment", args=[championship.slug, "individual", 1]),
            reverse("control:rounds:championship_download", args=[championship.slug])]


def test_the_largest_amount_fits_the_columns_even_summed_over_a_team():
    """A team's fee sums its members' fees (services/relay.py): that sum must fit too."""
    for field in ("fee_amount", "paid_amount", "refund_amount"):
        column = Entry._meta.get_field(field)
        largest = Decimal(10) ** (column.max_digits - column.decimal_places)
        assert largest > limits.MAX_MONEY * limits.MAX_MEMBERS, field
    for field in ("fee_amount", "fee_early_amount"):
        column = Event._meta.get_field(field)
        assert Decimal(10) ** (column.max_digits - column.decimal_places) > limits.MAX_MONEY


@pytest.mark.parametrize("amount", [LARGE, "1000000.01", "1e12"])
def test_a_payment_past_the_bound_is_refused_and_every_page_still_answers(
        championship, entry, client_as, amount):
    client = client_as(championship, Role.ORGANISER)
    payment = reverse("control:registrations:payment", args=[championship.slug, "individual", 1])
    response = client.post(payment, {"amount": amount})
    assert response.status_code == 200
    assert "less than or equal to 1000000" in response.content.decode()
    entry.refresh_from_db()
    assert entry.paid_amount == Decimal(500)
    for page in pages_of(client, championship):
        assert client.get(page).status_code == 200, page


def test_a_payment_that_takes_the_total_past_the_bound_is_refused_by_the_service(entry):
    with pytest.raises(RulesError) as refused:
        entry_payment_record(entry=entry, amount=limits.MAX_MONEY, by=None)
    (violation,) = refused.value.violations
    assert violation.code == "payment.too_large"
    assert "at most 1000000.00" in message_of(violation.code, violation.message,
                                              violation.params)
    entry.refresh_from_db()
    assert entry.paid_amount == Decimal(500)
    entry_payment_record(entry=entry, amount=limits.MAX_MONEY - 500, by=None)
    entry.refresh_from_db()
    assert entry.paid_amount == limits.MAX_MONEY


def test_a_fee_past_the_bound_is_refused_in_the_form_and_the_service(make_championship,
                                                                     client_as):
    """The Czech rulebook names no fee: the organiser sets it (czech-championship.txt)."""
    czech = make_championship("czech-championship")
    event = czech.events.get(code="individual")
    client = client_as(czech, Role.ORGANISER)
    response = client.post(reverse("control:setup:event", args=[czech.slug, event.code]),
                           {"name": event.name, "fee_amount": LARGE, "fee_per": "entry"})
    assert response.status_code == 200
    assert "less than or equal to 1000000" in response.content.decode()
    event.refresh_from_db()
    assert event.fee_amount is None
    with pytest.raises(SetupError) as refused:
        event_update(event=event, by=None, capacity=None, fee_amount=Decimal(LARGE))
    assert refused.value.code == "fee.too_large"


def test_the_championship_file_refuses_money_past_the_bound(championship, entry):
    document = championship_export(championship)
    for place in ("paid_amount", "fee_amount", "refund_amount"):
        hostile = copy.deepcopy(document)
        hostile["entries"][0][place] = LARGE
        with pytest.raises(InterchangeError) as refused:
            parse_championship_file(hostile)
        assert any(p.path.endswith(place) for p in refused.value.problems), place


# A tab, a bell and a C1 control are no plain line either (review finding 3, values).
@pytest.mark.parametrize("name", ["WJPC\nfake", "WJPC\r\n2027", "WJPC\u2028 2027",
                                  "Tab\tname", "Bell\x07name", "C1\x9aname"])
def test_a_championship_name_of_two_lines_is_refused_at_setup(championship, client_as,
                                                              creator, client, name):
    client.force_login(creator)
    response = client.post("/control/new/", {"ruleset_id": "wjpc-2025", "name": name,
                                             "starts_at": "2027-09-20T09:00"})
    assert response.status_code == 200
    assert "A name is one line" in response.content.decode()
    assert Championship.objects.count() == 1
    organiser = client_as(championship, Role.ORGANISER)
    response = organiser.post(reverse("control:setup:championship", args=[championship.slug]),
                              {"name": name, "starts_at": "2027-09-20T09:00"})
    assert "A name is one line" in response.content.decode()
    with pytest.raises(SetupError, match="one line"):
        championship_update(championship=championship, by=None, name=name,
                            starts_at=championship.starts_at, ends_on=None, venue="",
                            published=True)
    championship.refresh_from_db()
    assert championship.name == "Test wjpc-2025"


@pytest.mark.parametrize("name", ["Line one\nLine two", "Tab\tname", "C1\x9aname"])
def test_a_name_of_two_lines_is_refused_in_the_championship_file(championship, name):
    document = championship_export(championship)
    for path in (("championship",), ("events", 0), ("events", 0, "rounds", 0)):
        hostile = copy.deepcopy(document)
        target = hostile
        for key in path:
            target = target[key]
        target["name"] = name
        with pytest.raises(InterchangeError, match="one line"):
            parse_championship_file(hostile)


def test_registration_answers_even_for_a_name_stored_with_a_line_break(
        wjpc, submit, clock):  # noqa: F811
    """A name stored before names were bounded: the email's subject is made one line."""
    Championship.objects.filter(pk=wjpc.pk).update(name="WJPC\n2027")
    response = register(submit, wjpc, "individual", person())
    assert response.status_code == 200
    assert Entry.objects.count() == 1
    assert "\n" not in mail.outbox[0].subject
    assert "WJPC 2027" in mail.outbox[0].subject


def test_every_number_of_every_form_has_a_bound():
    """No integer or decimal field of a form is unbounded (a hidden id included)."""
    unbounded = []
    for module in pkgutil.walk_packages(puzzlecomp.__path__, "puzzlecomp."):
        if not module.name.endswith("forms"):
            continue
        for form in vars(importlib.import_module(module.name)).values():
            if isinstance(form, type) and issubclass(form, forms.BaseForm):
                unbounded += [f"{form.__name__}.{name}" for name, field in
                              form.base_fields.items()
                              if isinstance(field, forms.IntegerField | forms.DecimalField)
                              and field.max_value is None]
    assert unbounded == []


ENTRIES = ("first_name,last_name,email,nationality,residence,birth_date,years_resident,"
           "consent_publish\nAna,Nová,ana@example.org,CZ,CZ,1990-04-02,{years},yes\n")


@pytest.mark.parametrize(("years", "problem"), [
    ("99999999999999999999", "field years_resident: '99999999999999999999' is more than 150"),
    ("²", "field years_resident: '²' is not a whole number"),
])
def test_the_entries_spreadsheet_refuses_a_number_past_its_bound(championship, client_as,
                                                                  years, problem):
    client = client_as(championship, Role.ORGANISER)
    event = championship.events.get(code="individual")
    upload = SimpleUploadedFile("e.csv", ENTRIES.format(years=years).encode())
    response = client.post(reverse("control:data:import", args=[championship.slug]),
                           {"event": event.pk, "file": upload})
    assert response.status_code == 200
    assert problem in html.unescape(response.content.decode())
    assert not Entry.objects.exists()


@pytest.mark.parametrize("text", ["²", "\U00010a40", "99999999999999999999999"])
def test_a_number_that_is_no_ascii_number_or_too_large_is_a_problem_not_a_traceback(text):
    with pytest.raises(InputError) as refused:
        read_entries(f"entry,seed_rank\nE1,{text}\n", source="entries.csv")
    assert [p.field for p in refused.value.problems] == ["seed_rank"]


def test_searches_and_the_floor_plan_take_digits_of_other_scripts(championship, client_as):
    """'𐩀' is a digit to str.isdigit, but int() refuses it."""
    client = client_as(championship, Role.ORGANISER)
    Entry.objects.create(event=championship.events.get(code="individual"), number=1,
                         name="Jana Nová", status="confirmed")
    listing = reverse("control:registrations:event", args=[championship.slug, "individual"])
    assert client.get(listing, {"q": "\U00010a40"}).status_code == 200
    response = client.post(reverse("control:setup:floor_plan", args=[championship.slug]),
                           {"rows": "6,\U00010a40", "guest_tables": "0"})
    assert response.status_code == 200
    assert "whole numbers separated by commas" in response.content.decode()
