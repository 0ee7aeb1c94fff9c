"""Issue 22 (left open at stop 32): an organiser's "same person" link of an entrant to a person
of the archive alone is a claim that waits for the entrant's own confirmation by email. Before,
the link merged at once: the archived record took the entrant's email and birth date and the
entrant's results, on the organiser's word (docs/people.md, Claims; docs/security.md)."""

from __future__ import annotations

import datetime as dt
import re
from urllib.parse import urlsplit

import pytest
from django.core import mail
from django.urls import reverse

from puzzlecomp.championships.models import EntryMember, Person, PersonChange, PersonClaim, Role
from puzzlecomp.championships.services.claims import claim_approve
from puzzlecomp.championships.services.people import PeopleRefused
from tests.web.test_archive import imported
from tests.web.test_facts import enter


@pytest.fixture
def archived(db) -> Person:
    imported()
    return Person.objects.get(archive_id="Pslow")


@pytest.fixture
def entrant(championship, archived) -> EntryMember:
    """An entrant of the organiser's championship named like the archived person."""
    return enter(championship, "individual", Person.objects.create(
        first_name=archived.first_name, last_name=archived.last_name, nationality="CZ",
        email="entrant@example.org", birth_date=dt.date(1991, 3, 4)))


@pytest.fixture(autouse=True)
def _mails_after_commit(django_capture_on_commit_callbacks, monkeypatch):
    """Every write's emails go out as after a real commit."""
    from django.db import transaction

    def at_once(func, using=None, robust=False):
        func()

    monkeypatch.setattr(transaction, "on_commit", at_once)


def link(client, championship, member: EntryMember, known: Person, back: str = ""):
    return client.post(
        reverse("control:registrations:same_person",
                args=[championship.slug, member.entry.event.code, member.entry.number]),
        {"member": member.pk, "person": known.pk, "reason": "Looks like her", "back": back})


def _linked_mail() -> str:
    [asked] = [m for m in mail.outbox if m.to == ["entrant@example.org"]]
    return urlsplit(re.search(r"https?://\S+/link/\S+/", asked.body)[0]).path


def test_an_organisers_link_to_an_archived_person_changes_nothing_until_the_entrant_confirms(
        championship, client_as, client, archived, entrant):
    history = EntryMember.objects.filter(person=archived).count()
    organiser = client_as(championship, Role.ORGANISER)
    response = link(organiser, championship, entrant, archived, back="known_people")
    page = organiser.get(response.url).content.decode()
    assert "waiting for the entrant" in page.lower()
    entrant.refresh_from_db()
    archived.refresh_from_db()
    # The entrant keeps their own record; the archive record takes nothing of theirs.
    assert entrant.person != archived
    assert (archived.email, archived.birth_date) == ("", None)
    assert EntryMember.objects.filter(person=archived).count() == history
    claim = PersonClaim.objects.get()
    assert (claim.state, claim.person, claim.member) == ("waiting", archived, entrant)
    assert [c.kind for c in PersonChange.objects.all()] == ["claim"]
    # The entrant's own confirmation, by the link mailed to them, makes it one person.
    path = _linked_mail()
    shown = client.get(path).content.decode()
    assert "Are these earlier results yours?" in shown
    client.post(path)
    entrant.refresh_from_db()
    claim.refresh_from_db()
    assert (claim.state, entrant.person) == ("done", archived)
    assert [c.kind for c in PersonChange.objects.order_by("pk")] == ["claim", "approval",
                                                                      "merge"]


def test_an_organiser_cannot_approve_their_own_link_in_place_of_the_known_persons_email(
        championship, client_as, client, archived, entrant):
    archived.email = "the-real-one@example.org"
    archived.save()
    organiser = client_as(championship, Role.ORGANISER)
    link(organiser, championship, entrant, archived)
    client.post(_linked_mail())
    claim = PersonClaim.objects.get()
    assert claim.state == "waiting"
    assert claim.registrant_confirmed_at is not None
    from django.contrib.auth import get_user_model
    mine = get_user_model().objects.get(pk=organiser.session["_auth_user_id"])
    with pytest.raises(PeopleRefused) as refused:
        claim_approve(claim=claim, reason="Trust me", user=mine)
    assert refused.value.code == "claims.staff_approves"
    staff = get_user_model().objects.create_user(username="operator", password="pw-12345678",
                                                 is_staff=True)
    claim_approve(claim=claim, reason="Passport seen by the federation", user=staff)
    claim.refresh_from_db()
    entrant.refresh_from_db()
    assert (claim.state, entrant.person) == ("done", archived)
    archived.refresh_from_db()
    assert archived.email == "the-real-one@example.org"


def test_confirming_the_entry_is_no_confirmation_of_an_organisers_link(
        championship, client_as, archived, entrant):
    """The entry's own confirmation email proves the address, not that the archive is theirs."""
    from puzzlecomp.championships.models import EntryStatus
    from puzzlecomp.championships.services.registration import entry_confirm

    entry = entrant.entry
    entry.status = EntryStatus.UNCONFIRMED
    entry.save()
    link(client_as(championship, Role.ORGANISER), championship, entrant, archived)
    entry_confirm(entry=entry)
    claim = PersonClaim.objects.get()
    assert (claim.state, claim.registrant_confirmed_at) == ("waiting", None)
    entrant.refresh_from_db()
    assert entrant.person != archived


def test_a_pending_link_lends_no_history_to_seeding(championship, client_as, archived,
                                                      entrant):
    """docs/people.md: seeding reads the archive's history only once the link is confirmed."""
    from puzzlecomp.championships.selectors.history import member_facts_derived

    link(client_as(championship, Role.ORGANISER), championship, entrant, archived)
    debutant = member_facts_derived(championship=championship)[entrant.pk][0]
    assert debutant is True


def test_a_confirmed_organisers_link_leaves_the_archived_record_without_the_entrants_private_facts(
        championship, client_as, client, archived, entrant):
    """Review of issue 22, finding 1: the organiser typed the entrant's mailbox, so its
    confirmation proves nothing about the archived person. The merge keeps the archive record's
    facts (no email, no birth date from the entrant), and undoing it gives the archived record
    back exactly as it was: still asked "Is this you?", no one's mailbox on it."""
    from puzzlecomp.championships.services.people import person_merge_undo

    before = (archived.email, archived.birth_date, archived.residence, archived.region,
              archived.years_resident, archived.first_name, archived.last_name,
              str(archived.nationality), archived.archive_id)
    link(client_as(championship, Role.ORGANISER), championship, entrant, archived)
    client.post(_linked_mail())
    claim = PersonClaim.objects.get()
    assert claim.state == "done"
    archived.refresh_from_db()
    assert (archived.email, archived.birth_date) == ("", None)
    person_merge_undo(change=claim.merge, reason="An attacker's mailbox", user=None)
    archived.refresh_from_db()
    assert (archived.email, archived.birth_date, archived.residence, archived.region,
            archived.years_resident, archived.first_name, archived.last_name,
            str(archived.nationality), archived.archive_id) == before
    entrant.refresh_from_db()
    assert entrant.person != archived
    assert (entrant.person.email, entrant.person.birth_date) == (
        "entrant@example.org", dt.date(1991, 3, 4))


def test_undoing_a_merge_into_an_archived_person_restores_what_the_merge_filled_in(
        championship, archived, entrant):
    """A merge that did fill the archived record (a registrant's own claim, staff) is undone
    back to the archived record as it was (docs/people.md, Undo a merge)."""
    from puzzlecomp.championships.services.people import person_merge, person_merge_undo

    change = person_merge(keep=archived, other=entrant.person, reason="Same", user=None)
    archived.refresh_from_db()
    assert archived.email == "entrant@example.org"
    person_merge_undo(change=change, reason="Not the same", user=None)
    archived.refresh_from_db()
    assert (archived.email, archived.birth_date) == ("", None)


def test_a_link_of_a_cancelled_entry_is_refused_and_the_history_says_so(
        championship, client_as, client, archived, entrant):
    """Review of issue 22, finding 4: confirming a link for a cancelled entry said "Thank you:
    the link now waits"; it is refused in words, and the History page says the entry is
    cancelled in both places (the candidate and the claim) without contradicting itself."""
    from puzzlecomp.championships.models import EntryStatus

    organiser = client_as(championship, Role.ORGANISER)
    link(organiser, championship, entrant, archived)
    entry = entrant.entry
    entry.status = EntryStatus.CANCELLED
    entry.save()
    path = _linked_mail()
    client.post(path)
    claim = PersonClaim.objects.get()
    assert (claim.state, claim.registrant_confirmed_at) == ("waiting", None)
    page = client.get(path).content.decode()
    assert "This entry is cancelled: the link can no longer be confirmed" in page
    assert "Thank you" not in page
    history = organiser.get(reverse("control:registrations:history", args=[
        championship.slug, entry.event.code, entry.number])).content.decode()
    assert "waiting for the entrant" not in history.lower()
    assert "the entry is cancelled: the link cannot take effect" in history


def test_the_emails_of_an_organisers_link_say_an_organiser_linked_and_name_the_archived_page(
        championship, client_as, client, archived, entrant):
    """Review of issue 22, finding 9: the entrant's email names and links the archived person's
    public page (docs/people.md); the known person's own address is told an organiser linked
    them, not that "someone registering" said so."""
    archived.email = "the-real-one@example.org"
    archived.save()
    link(client_as(championship, Role.ORGANISER), championship, entrant, archived)
    [asked] = [m for m in mail.outbox if m.to == ["entrant@example.org"]]
    assert str(archived) in asked.body
    assert reverse("public:people:person", args=[archived.pk]) in asked.body
    client.post(_linked_mail())
    [owner] = [m for m in mail.outbox if m.to == ["the-real-one@example.org"]]
    assert "An organiser of" in owner.body
    assert "Someone registering" not in owner.body
