"""Registration asks "is this you?" when a person of the entrant's name is in the archive."""

from __future__ import annotations

import pytest
from django.core import mail

from puzzlecomp.championships.models import Entry, Person
from puzzlecomp.championships.services.archive import invented_name
from tests.web.test_archive import imported
from tests.web.test_registration_public import (  # noqa: F401 (fixtures)
    confirm_by_email,
    person,
    published,
    register,
    wjpc,
)


@pytest.fixture
def archived(db) -> Person:
    imported()
    return Person.objects.get(archive_id="Pslow")


def known_as(archived: Person, **fields: str) -> dict[str, str]:
    return person(archived.first_name, archived.last_name.upper(), nationality="CZ", **fields)


def test_an_entrant_named_like_an_archived_person_is_asked_and_nothing_is_registered_yet(
        wjpc, submit, clock, archived):  # noqa: F811 (the fixture)
    html = register(submit, wjpc, "individual", known_as(archived)).content.decode()
    assert "Is this you?" in html
    assert f"Yes, I am {archived} of WJPC 2024, WJPC 2023" in html
    assert not Entry.objects.filter(event__championship=wjpc).exists()


def test_answering_yes_claims_the_archived_person_once_the_email_confirms(
        wjpc, client, submit, clock, archived):  # noqa: F811 (the fixture)
    """Issue 22: the answer is a claim; it takes effect when the registrant confirms by email
    (the archived person has no email of their own)."""
    response = register(submit, wjpc, "individual", known_as(archived, known=str(archived.pk)))
    assert "Check your email" in response.content.decode()
    member = Entry.objects.get(event__championship=wjpc).members.get()
    assert member.person != archived
    confirm_by_email(client, submit, mail.outbox[-1])
    member.refresh_from_db()
    assert member.person == archived
    archived.refresh_from_db()
    assert (archived.email, archived.birth_date.year) == (f"{archived.first_name.lower()}"
                                                          "@example.org", 1990)


def test_answering_no_registers_a_new_person(wjpc, submit, clock, archived):  # noqa: F811
    register(submit, wjpc, "individual", known_as(archived, known="none"))
    assert Entry.objects.get(event__championship=wjpc).members.get().person != archived
    assert Person.objects.filter(archive_id="Pslow").get().email == ""


def test_a_claim_of_someone_not_offered_is_refused_and_asked_again(
        wjpc, submit, clock, archived):  # noqa: F811
    """Review of issue 22, finding 8: an id that was not offered does not skip "Is this you?":
    nothing is registered, and the question is asked again with the reason."""
    other = Person.objects.get(archive_id="Pfast")
    html = register(submit, wjpc, "individual",
                    known_as(archived, known=str(other.pk))).content.decode()
    assert not Entry.objects.filter(event__championship=wjpc).exists()
    assert "Is this you?" in html
    assert "Choose one of the people offered" in html


def test_another_country_is_not_asked_about(wjpc, submit, clock, archived):  # noqa: F811
    first, last = invented_name("Pslow")
    html = register(submit, wjpc, "individual",
                    person(first, last, nationality="ES")).content.decode()
    assert "Is this you?" not in html
    assert Entry.objects.filter(event__championship=wjpc).exists()


def test_a_closed_registration_window_asks_nobody_is_this_you(
        wjpc, submit, clock, archived):  # noqa: F811 (the fixture)
    """Issue 22 (left open at stop 32): with the window closed the form refuses the entry and
    never asks "Is this you?" (nor names the archive's people)."""
    clock("2027-09-25T12:00")  # the championship started on 20 September
    html = register(submit, wjpc, "individual", known_as(archived)).content.decode()
    assert "Is this you?" not in html
    assert str(archived) not in html
    assert "closed" in html
    assert not Entry.objects.filter(event__championship=wjpc).exists()
