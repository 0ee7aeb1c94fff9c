"""One identity per person across championships: matching, merging and splitting."""

from __future__ import annotations

import datetime as dt

import pytest

from puzzlecomp.championships.models import (
    AuditEntry,
    EntryMember,
    Person,
    PersonChange,
    PersonClaim,
)
from puzzlecomp.championships.selectors.people import merges_to_undo, person_candidates
from puzzlecomp.championships.services import claims
from puzzlecomp.championships.services.archive import invented_name
from puzzlecomp.championships.services.people import (
    PeopleRefused,
    person_merge,
    person_merge_undo,
    person_split,
)
from tests.web.test_archive import imported
from tests.web.test_facts import enter


def registered(first: str, last: str, *, consent: bool = True) -> Person:
    return Person.objects.create(first_name=first, last_name=last, nationality="CZ",
                                 email="me@example.org", birth_date=dt.date(1990, 5, 1),
                                 consent_publish=consent)


@pytest.mark.django_db
def test_a_new_entrant_is_matched_to_the_archived_person_of_the_same_name_and_country():
    imported()
    first, last = invented_name("Pslow")
    found = person_candidates(first_name=first.upper(), last_name=last.lower(),
                              birth_year=1990, country="CZ")
    assert [c.person.archive_id for c in found] == ["Pslow"]
    assert found[0].championships == ("WJPC 2024", "WJPC 2023")
    assert person_candidates(first_name=first, last_name=last, birth_year=1990,
                             country="SK") == []


@pytest.mark.django_db
def test_merging_moves_the_entries_keeps_the_archive_id_and_each_championships_consent(
        championship):
    """Issue 22, finding 1: consent after a merge is what each championship's registrant gave
    for that championship."""
    imported()
    archived = Person.objects.get(archive_id="Pfast")
    new = registered(archived.first_name, archived.last_name, consent=False)
    member = enter(championship, "individual", new)
    change = person_merge(keep=archived, other=new, reason="Same person, new email", user=None)
    member.refresh_from_db()
    archived.refresh_from_db()
    assert member.person == archived
    assert (archived.archive_id, archived.email) == ("Pfast", "me@example.org")
    assert member.consent_publish is False
    assert all(m.consent_publish for m in archived.entries.exclude(pk=member.pk))
    assert not Person.objects.filter(pk=new.pk).exists()
    assert (change.kind, change.snapshot["email"], change.entry_members) == (
        "merge", "me@example.org", [member.pk])
    assert member.debutant is False  # the archive's 2023 individual result now counts
    assert AuditEntry.objects.filter(championship=championship,
                                     action="puzzlecomp.person.merged").exists()


@pytest.mark.django_db
def test_two_members_of_one_entry_are_two_people():
    imported()
    with pytest.raises(PeopleRefused) as refused:
        person_merge(keep=Person.objects.get(archive_id="Pslow"),
                     other=Person.objects.get(archive_id="Pfast"), reason="typo", user=None)
    assert refused.value.code == "people.same_entry"


@pytest.mark.django_db
def test_a_merge_needs_a_reason(championship):
    a, b = registered("Ana", "Dvořák"), registered("Ana", "Dvorak")
    with pytest.raises(PeopleRefused):
        person_merge(keep=a, other=b, reason="", user=None)


@pytest.mark.django_db
def test_splitting_gives_some_entries_to_a_new_record_of_the_same_name():
    """shared/data/README.md: two people with the same name share one id."""
    imported()
    shared = Person.objects.get(archive_id="Pslow")
    pair = EntryMember.objects.get(person=shared, entry__event__code="pairs")
    change = person_split(person=shared, members=[pair], reason="The pair was her namesake",
                          user=None)
    pair.refresh_from_db()
    assert pair.person == change.other
    assert pair.person.last_name == shared.last_name
    assert EntryMember.objects.filter(person=shared).count() == 2
    assert AuditEntry.objects.filter(action="puzzlecomp.person.split").count() == 1
    with pytest.raises(PeopleRefused):
        person_split(person=shared, members=list(EntryMember.objects.filter(person=shared)),
                     reason="all of them", user=None)
    assert PersonChange.objects.count() == 1


@pytest.mark.django_db
def test_the_organiser_is_asked_whether_a_new_entrant_is_a_known_person_and_merges(
        championship, client_as):
    from django.urls import reverse

    from puzzlecomp.championships.models import Role

    imported()
    archived = Person.objects.get(archive_id="Pfast")
    new = registered(archived.first_name, archived.last_name)
    new.nationality = "ES"
    new.save()
    member = enter(championship, "individual", new)
    organiser = client_as(championship, Role.ORGANISER)
    args = [championship.slug, "individual", 1]
    html = organiser.get(reverse("control:registrations:history", args=args)).content.decode()
    assert f"Is {new} someone known already?" in html
    assert "WJPC 2023" in html
    merge = reverse("control:registrations:same_person", args=args)
    organiser.post(merge, {"member": member.pk, "person": archived.pk, "reason": ""})
    assert Person.objects.filter(pk=new.pk).exists()
    organiser.post(merge, {"member": member.pk, "person": archived.pk,
                           "reason": "She told us at check-in"})
    # Issue 22: a person of the archive alone is linked once the entrant confirms.
    member.refresh_from_db()
    assert member.person == new
    html = organiser.get(reverse("control:registrations:history", args=args)).content.decode()
    assert "confirmation by email." in html
    claims.claim_registrant_confirm(claim=PersonClaim.objects.get(member=member))
    member.refresh_from_db()
    assert member.person == archived


@pytest.mark.django_db
def test_imported_entrants_who_may_be_known_people_are_listed_for_the_organiser_to_merge(
        championship, client_as):
    from django.urls import reverse

    from puzzlecomp.championships.models import Role

    imported()
    archived = Person.objects.get(archive_id="Pslow")
    namesake = Person.objects.create(first_name=archived.first_name,
                                     last_name=archived.last_name, nationality="CZ")
    other_namesake = Person.objects.create(first_name=archived.first_name,
                                           last_name=archived.last_name, nationality="SK")
    member = enter(championship, "individual", namesake)
    enter(championship, "individual", other_namesake)
    organiser = client_as(championship, Role.ORGANISER)
    page = reverse("control:registrations:known_people", args=[championship.slug, "individual"])
    html = organiser.get(page).content.decode()
    assert html.count("Same person") == 1
    assert "Entry 1:" in html
    response = organiser.post(
        reverse("control:registrations:same_person", args=[championship.slug, "individual", 1]),
        {"member": member.pk, "person": archived.pk, "reason": "Imported from the club list",
         "back": "known_people"})
    assert response.url == page
    member.refresh_from_db()
    assert member.person == namesake
    html = organiser.get(page).content.decode()
    assert "Linked: waiting for the entrant" in html
    assert html.count("Same person") == 0
    claims.claim_registrant_confirm(claim=PersonClaim.objects.get(member=member))
    member.refresh_from_db()
    assert member.person == archived
    assert "No entrant has the name of another known person." in (
        organiser.get(page).content.decode())


@pytest.mark.django_db
def test_the_organiser_gives_an_entrant_wrongly_joined_to_a_namesake_a_record_of_their_own(
        championship, client_as):
    from django.urls import reverse

    from puzzlecomp.championships.models import Role

    imported()
    archived = Person.objects.get(archive_id="Pfast")
    member = enter(championship, "individual", archived)
    organiser = client_as(championship, Role.ORGANISER)
    args = [championship.slug, "individual", 1]
    assert "someone else than in other championships?" in organiser.get(
        reverse("control:registrations:history", args=args)).content.decode()
    organiser.post(reverse("control:registrations:not_same_person", args=args),
                   {"member": member.pk, "reason": "Different birth year, told at check-in"})
    member.refresh_from_db()
    assert member.person != archived
    assert member.debutant is True
    assert PersonChange.objects.get().kind == "split"


@pytest.mark.django_db
def test_undoing_a_wrong_merge_brings_the_merged_record_back_with_its_entries_and_details(
        championship):
    """Issue 15: organisers merge and split people, with the audit trail. A merge made by
    mistake is undone whole: the merged record's details and archive id come back."""
    imported()
    archived = Person.objects.get(archive_id="Pfast")
    new = registered(archived.first_name, archived.last_name, consent=False)
    member = enter(championship, "individual", new)
    change = person_merge(keep=archived, other=new, reason="Looked alike", user=None)
    undo = person_merge_undo(change=change, reason="Different birth years after all",
                             user=None)
    member.refresh_from_db()
    restored = member.person
    assert restored == undo.other
    assert restored != archived
    assert (restored.email, restored.birth_date, restored.consent_publish) == (
        "me@example.org", dt.date(1990, 5, 1), False)
    assert EntryMember.objects.filter(person=archived).count() == 2
    assert member.debutant is True  # the archive's results are no longer theirs
    assert AuditEntry.objects.filter(action="puzzlecomp.person.split",
                                     data__undoes=change.pk).exists()
    assert merges_to_undo([archived.pk]) == []
    with pytest.raises(PeopleRefused) as refused:
        person_merge_undo(change=change, reason="again", user=None)
    assert refused.value.code == "people.merge_undone"
    with pytest.raises(PeopleRefused) as refused:
        person_merge_undo(change=undo, reason="a split", user=None)
    assert refused.value.code == "people.not_a_merge"


@pytest.mark.django_db
def test_the_organiser_undoes_a_merge_from_the_entrys_history_page(championship, client_as):
    from django.urls import reverse
    from django.utils.formats import date_format

    from puzzlecomp.championships.models import Role

    imported()
    archived = Person.objects.get(archive_id="Pfast")
    new = registered(archived.first_name, archived.last_name)
    member = enter(championship, "individual", new)
    change = person_merge(keep=archived, other=new, reason="Looked alike", user=None)
    organiser = client_as(championship, Role.ORGANISER)
    args = [championship.slug, "individual", 1]
    html = organiser.get(reverse("control:registrations:history", args=args)).content.decode()
    assert f'id="merge-{change.pk}"' in html
    assert f"born {date_format(dt.date(1990, 5, 1), 'DATE_FORMAT')}" in html
    undo = reverse("control:registrations:merge_undo", args=args)
    organiser.post(undo, {"change": change.pk, "reason": ""})
    member.refresh_from_db()
    assert member.person == archived
    organiser.post(undo, {"change": change.pk, "reason": "Two people"})
    member.refresh_from_db()
    assert member.person != archived
    html = organiser.get(reverse("control:registrations:history", args=args)).content.decode()
    assert f'id="merge-{change.pk}"' not in html
