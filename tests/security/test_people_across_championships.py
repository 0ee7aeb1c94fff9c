"""Issue 22, findings 1 to 3: a person belongs to the championships that hold them. A merge
takes only the candidates offered and people of the organiser's own championships; a
championship file never reaches a stored person; "is this you?" is a claim that waits for proof
(docs/people.md, docs/security.md: ASVS 8.2.2, 2.3.1, 15.3.1)."""

from __future__ import annotations

import datetime as dt
import re
from urllib.parse import urlsplit

import pytest
from django.core import mail
from django.urls import reverse

from puzzlecomp.championships.models import (
    Entry,
    EntryMember,
    Person,
    PersonChange,
    PersonClaim,
    Role,
)
from puzzlecomp.championships.services.claims import claim_approve
from puzzlecomp.championships.services.interchange import championship_export, championship_import
from puzzlecomp.championships.services.people import (
    PeopleRefused,
    person_merge,
    person_merge_undo,
)
from puzzlecomp.formats.interchange import InterchangeError
from tests.web.test_archive import imported
from tests.web.test_facts import enter
from tests.web.test_registration_public import person, register


def private(first: str, last: str, email: str, nationality: str = "CZ") -> Person:
    return Person.objects.create(first_name=first, last_name=last, nationality=nationality,
                                 email=email, birth_date=dt.date(1991, 3, 4))


def same_person(client, championship, member: EntryMember, known: Person, back: str = ""):
    return client.post(
        reverse("control:registrations:same_person",
                args=[championship.slug, member.entry.event.code, member.entry.number]),
        {"member": member.pk, "person": known.pk, "reason": "Told us at check-in", "back": back})


# Finding 1: "same person" merged any person id.

@pytest.mark.django_db
def test_an_organiser_cannot_merge_a_person_of_another_championship_by_posting_their_id(
        championship, make_championship, client_as):
    other = make_championship(name="Championship B")
    victim = private("Vera", "Victim", "vera@example.org")
    enter(other, "individual", victim)
    mine = enter(championship, "individual", private("Mal", "Lory", "mal@example.org"))
    organiser = client_as(championship, Role.ORGANISER)
    response = same_person(organiser, championship, mine, victim)
    mine.refresh_from_db()
    assert mine.person.first_name == "Mal"
    assert Person.objects.filter(pk=victim.pk, email="vera@example.org").exists()
    assert not PersonChange.objects.exists()
    assert "was not offered" in organiser.get(response.url).content.decode()


@pytest.mark.django_db
def test_a_namesake_offered_from_a_championship_the_organiser_does_not_run_is_refused(
        championship, make_championship, client_as):
    other = make_championship(name="Championship B")
    victim = private("Vera", "Novak", "vera@example.org")
    enter(other, "individual", victim)
    mine = enter(championship, "individual", private("Vera", "Novák", "v2@example.org"))
    organiser = client_as(championship, Role.ORGANISER)
    # Review of issue 22, finding 7: a namesake the organiser could never merge is not offered
    # (neither on Known people nor on the entry's History page), and posting them is refused.
    known = organiser.get(reverse("control:registrations:known_people",
                                  args=[championship.slug, "individual"])).content.decode()
    history = organiser.get(reverse("control:registrations:history", args=[
        championship.slug, "individual", mine.entry.number])).content.decode()
    assert f'value="{victim.pk}"' not in known
    assert f'value="{victim.pk}"' not in history
    response = same_person(organiser, championship, mine, victim)
    mine.refresh_from_db()
    assert mine.person != victim
    assert "was not offered" in organiser.get(response.url).content.decode()
    # Staff may merge anything, with a reason.
    with pytest.raises(PeopleRefused):
        person_merge(keep=victim, other=mine.person, reason="x", user=_user(organiser))
    admin = _staff()
    person_merge(keep=victim, other=mine.person, reason="Same passport", user=admin)
    mine.refresh_from_db()
    assert mine.person == victim


def _user(client):
    from django.contrib.auth import get_user_model
    return get_user_model().objects.get(pk=client.session["_auth_user_id"])


def _staff():
    from django.contrib.auth import get_user_model
    return get_user_model().objects.create_user(username="operator", password="pw-12345678",
                                                is_staff=True)


@pytest.mark.django_db
def test_a_merge_never_deletes_an_archived_person_nor_moves_the_archive(championship,
                                                                        client_as):
    imported()
    archived = Person.objects.get(archive_id="Pslow")
    history = set(EntryMember.objects.filter(person=archived).values_list("pk", flat=True))
    member = enter(championship, "individual", archived)
    namesake = Person.objects.create(first_name=archived.first_name,
                                     last_name=archived.last_name, nationality="CZ",
                                     email="attacker@example.org")
    organiser = client_as(championship, Role.ORGANISER)
    same_person(organiser, championship, member, namesake)
    assert Person.objects.filter(pk=archived.pk, archive_id="Pslow").exists()
    assert history <= set(EntryMember.objects.filter(person=archived).values_list("pk",
                                                                                   flat=True))
    with pytest.raises(PeopleRefused) as refused:
        person_merge(keep=namesake, other=archived, reason="Same person", user=None)
    assert refused.value.code == "people.archive_kept"


# Finding 2: a championship file linked its people by archive id.

def _file_naming(championship, archive_id: str) -> dict:
    enter(championship, "individual", private("Fake", "Person", "fake@example.org"))
    data = championship_export(championship)
    data["people"][0]["archive_id"] = archive_id
    return data


@pytest.mark.django_db
def test_a_championship_file_with_a_victims_archive_id_makes_a_new_person(
        championship, user_in_role):
    imported()
    victim = Person.objects.get(archive_id="Pfast")
    victim.email = "pfast@example.org"
    victim.save()
    before = set(EntryMember.objects.filter(person=victim).values_list("pk", flat=True))
    data = _file_naming(championship, "Pfast")
    copy = championship_import(data, slug="forged", user=user_in_role(championship,
                                                                      Role.ORGANISER))
    member = EntryMember.objects.get(entry__event__championship=copy)
    assert member.person != victim
    assert member.person.archive_id is None
    assert member.person.email == "fake@example.org"
    assert set(EntryMember.objects.filter(person=victim).values_list("pk", flat=True)) == before


@pytest.mark.django_db
def test_only_the_operator_imports_an_archived_championship(championship, user_in_role):
    imported()
    from puzzlecomp.championships.models import Championship

    data = championship_export(Championship.objects.get(slug="wjpc-2024"))
    with pytest.raises(InterchangeError) as refused:
        championship_import(data, slug="forged-archive",
                            user=user_in_role(championship, Role.ORGANISER))
    assert "only the operator imports an archived championship" in str(refused.value.problems[0])
    assert championship_import(data, slug="copied-archive", user=_staff()).archived


# Finding 3: "is this you?" changed an archived person on the registrant's word.

@pytest.fixture
def archived(db) -> Person:
    imported()
    return Person.objects.get(archive_id="Pslow")


def claiming(archived: Person, **fields: str) -> dict[str, str]:
    return person(archived.first_name, archived.last_name, nationality="CZ",
                  known=str(archived.pk), **fields)


def confirm_link(client, submit, message) -> None:
    link = re.search(r"https?://\S+/confirm/\S+/", message.body)[0]
    submit(urlsplit(link).path)


def test_an_anonymous_claim_changes_nothing_until_the_registrant_confirms_by_email(
        wjpc, client, submit, clock, archived):
    register(submit, wjpc, "individual", claiming(archived))
    member = Entry.objects.get(event__championship=wjpc).members.get()
    archived.refresh_from_db()
    assert member.person != archived
    assert (archived.email, archived.birth_date, archived.consent_photos) == ("", None, False)
    claim = PersonClaim.objects.get()
    assert (claim.person, claim.member, claim.state) == (archived, member, "waiting")
    assert PersonChange.objects.get().kind == "claim"
    confirm_link(client, submit, mail.outbox[-1])
    member.refresh_from_db()
    claim.refresh_from_db()
    assert (member.person, claim.state) == (archived, "done")
    assert [c.kind for c in PersonChange.objects.order_by("pk")] == ["claim", "approval",
                                                                      "merge"]
    person_merge_undo(change=claim.merge, reason="Not her after all", user=None)
    member.refresh_from_db()
    claim.refresh_from_db()
    assert (member.person != archived, claim.state) == (True, "undone")
    assert PersonChange.objects.order_by("pk").last().kind == "split"


def test_a_claim_on_a_person_with_an_email_waits_for_that_address_or_an_organiser(
        wjpc, client, submit, clock, archived, user_in_role):
    register(submit, wjpc, "individual", claiming(archived))
    archived.email = "the-real-one@example.org"  # their own, given meanwhile
    archived.save()
    confirm_link(client, submit, mail.outbox[-1])
    claim = PersonClaim.objects.get()
    assert claim.state == "waiting"
    [asked] = [m for m in mail.outbox if m.to == ["the-real-one@example.org"]]
    path = urlsplit(re.search(r"https?://\S+/claim/\S+/", asked.body)[0]).path
    page = client.get(path).content.decode()
    assert "Is this registrant you?" in page
    assert archived.first_name not in page
    submit(path)
    claim.refresh_from_db()
    assert (claim.state, claim.member.person) == ("done", archived)


def test_an_organiser_approves_a_claim_with_a_reason(wjpc, client, submit, clock, archived,
                                                    user_in_role):
    register(submit, wjpc, "individual", claiming(archived))
    archived.email = "the-real-one@example.org"
    archived.save()
    confirm_link(client, submit, mail.outbox[-1])
    claim = PersonClaim.objects.get()
    organiser = user_in_role(wjpc, Role.ORGANISER)
    with pytest.raises(PeopleRefused):
        claim_approve(claim=claim, reason=" ", user=organiser)
    claim_approve(claim=claim, reason="Showed her passport at check-in", user=organiser)
    claim.refresh_from_db()
    assert claim.state == "done"
    assert PersonChange.objects.filter(kind="approval", snapshot__by="organiser",
                                       reason="Showed her passport at check-in").exists()


def test_the_question_tells_no_birth_year_nor_an_unpublished_championship(
        wjpc, submit, clock, archived, make_championship):
    archived.birth_date = dt.date(1961, 6, 1)
    archived.save()
    secret = make_championship(name="Secret Open 2027")
    asked = [
        "Is this you?" in register(submit, wjpc, "individual", person(
            archived.first_name, archived.last_name, nationality="CZ", born=born)
        ).content.decode()
        for born in ("1961-06-01", "1990-04-01")]
    assert asked == [True, True]
    # Once a running (here unpublished) championship holds them, they are its organiser's:
    # not offered at all, so neither that championship nor their birth year is told.
    enter(secret, "individual", archived)
    html = register(submit, wjpc, "individual", person(
        archived.first_name, archived.last_name, nationality="CZ")).content.decode()
    assert "Is this you?" not in html
    assert "Secret Open 2027" not in html
    assert "1961" not in html


def test_the_question_offers_only_people_of_the_archive_alone(wjpc, submit, clock,
                                                              make_championship):
    """Review of issue 22: a namesake of another running championship (no email, consent
    given) was offered, and the registrant's own email link merged them, their private birth
    date then in the attacker's export."""
    other = make_championship(name="Other Open 2027")
    namesake = Person.objects.create(first_name="Jan", last_name="Costa", nationality="PT",
                                     birth_date=dt.date(2007, 5, 9), consent_publish=True)
    enter(other, "individual", namesake)
    html = register(submit, wjpc, "individual", person("Jan", "Costa", nationality="PT"))
    assert "Is this you?" not in html.content.decode()


def test_a_cancelled_entry_proves_no_claim(wjpc, client, submit, clock, archived):
    """Review of issue 22: a claim took effect though its entry was refused at confirmation."""
    from puzzlecomp.championships.services.claims import claim_registrant_confirm

    register(submit, wjpc, "individual", claiming(archived))
    claim = PersonClaim.objects.get()
    Entry.objects.filter(pk=claim.member.entry_id).update(status="cancelled")
    claim_registrant_confirm(claim=claim)
    claim.refresh_from_db()
    assert claim.state == "waiting"
    assert claim.member.person != archived


@pytest.mark.django_db
def test_an_organisers_import_starts_unpublished(championship, user_in_role):
    """Review of issue 22: a file marked published with final rounds put a forged 1:00 world
    record on /records/ the moment an organiser uploaded it."""
    championship.published = True
    championship.save()
    data = championship_export(championship)
    copy = championship_import(data, slug="uploaded",
                               user=user_in_role(championship, Role.ORGANISER))
    assert not copy.published
    assert championship_import(data, slug="moved", user=None).published


@pytest.mark.django_db
def test_an_imported_result_counts_for_people_only_once_published_and_final(
        championship, user_in_role):
    """Person pages, ranking lists and records read one set of results
    (selectors/careers.COUNTED): an imported championship's are among them only when it is
    published and their round final."""
    from puzzlecomp.championships.models import Championship, Result, Round, RoundState
    from puzzlecomp.championships.selectors.careers import counted_results

    member = enter(championship, "individual", private("Fay", "Quick", "fay@example.org"))
    final = Round.objects.filter(event__code="individual",
                                 event__championship=championship).order_by("position").last()
    Result.objects.create(round=final, entry=member.entry, status="finished", time_seconds=60)
    Round.objects.filter(pk=final.pk).update(state=RoundState.FINAL)
    data = championship_export(championship)
    data["championship"]["published"] = False
    copy = championship_import(data, slug="imported", user=user_in_role(championship,
                                                                        Role.ORGANISER))
    person = EntryMember.objects.get(entry__event__championship=copy).person

    def counted() -> list[int]:
        return [r.id for r in counted_results().by_person.get(person.pk, [])]

    assert counted() == []
    Championship.objects.filter(pk=copy.pk).update(published=True)
    Round.objects.filter(event__championship=copy).update(state=RoundState.PUBLISHED)
    assert counted() == []
    Round.objects.filter(event__championship=copy).update(state=RoundState.FINAL)
    assert len(counted()) == 1


@pytest.mark.django_db
def test_an_organisers_candidates_do_not_depend_on_a_stored_birth_year(championship):
    """The candidates never read a stored private field: a differing birth year does not hide
    a namesake (were it matched, the list would tell the year)."""
    from puzzlecomp.championships.selectors.people import member_candidates

    known = private("Ida", "Rowe", "ida@example.org")
    mine = enter(championship, "individual", Person.objects.create(
        first_name="Ida", last_name="Rowe", nationality="CZ", birth_date=dt.date(1970, 1, 1)))
    assert [c.person for c in member_candidates(mine)] == [known]


@pytest.mark.django_db
@pytest.mark.parametrize("status", ["unconfirmed", "cancelled", "waiting"])
def test_a_registrant_without_a_confirmed_entry_or_a_result_has_no_public_page(
        championship, client, status):
    """Review of issue 22, finding 6: a person page is public only for someone with a public
    result or a confirmed entry of a published championship with consent; an unconfirmed,
    waiting or cancelled registration is on no entrants list, so it names no one."""
    championship.published = True
    championship.save()
    someone = private("Una", "Confirmed", "una@example.org")
    someone.consent_publish = True
    someone.save()
    member = enter(championship, "individual", someone)
    page = reverse("public:people:person", args=[someone.pk])
    assert client.get(page).status_code == 200
    Entry.objects.filter(pk=member.entry_id).update(status=status)
    assert client.get(page).status_code == 404
