"""Claims of "is this you?": a registrant's word that they are a known person is recorded and
waits for proof before it merges the two records (docs/people.md). An organiser's "same person"
link of an entrant to a person of the archive alone is a claim too, and waits for the entrant's
own confirmation by a link mailed to them (issue 22).

A claim takes effect when the registrant has confirmed their entry by its emailed link and,
where the known person has an email of their own, when that address confirms too or an
organiser approves with a reason. Every claim and approval is a PersonChange; the merge it
becomes is undone like any merge (services/people.py).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from puzzlecomp.championships.actions import CLAIM_APPROVED, PERSON_CLAIMED
from puzzlecomp.championships.models import (
    EntryMember,
    EntryStatus,
    Person,
    PersonChange,
    PersonClaim,
    new_token,
)
from puzzlecomp.championships.selectors.people import archive_only
from puzzlecomp.championships.services.people import PeopleRefused, person_merge
from puzzlecomp.championships.services.work import unit_of_work

SUBJECT = _("Did you register for %(championship)s?")
LINK_SUBJECT = _("%(championship)s: are these earlier results yours?")


def _championship(claim: PersonClaim) -> Any:
    return claim.member.entry.event.championship


def _change(claim: PersonClaim, kind: Any, reason: str, user: Any,
            by: str) -> PersonChange:
    return PersonChange.objects.create(
        kind=kind, person=claim.person, other=claim.member.person,
        entry_members=[claim.member_id], reason=reason[:300],
        snapshot={"claim": claim.pk, "by": by},
        by=user if getattr(user, "is_authenticated", False) else None)


def claim_record(*, member: EntryMember, person: Person) -> PersonClaim:
    """Record that the registrant of `member` said they are `person`; nothing else changes."""
    entry = member.entry
    with unit_of_work(PERSON_CLAIMED, championship=entry.event.championship,
                      number=entry.number, person=person.pk) as work:
        claim = PersonClaim.objects.create(member=member, person=person)
        _change(claim, PersonChange.Kind.CLAIM, "Is this you? answered yes at registration",
                None, "registrant")
        work.record(claim=claim.pk, member=member.pk)
    return claim


def claim_propose(*, member: EntryMember, person: Person, reason: str,
                  user: Any) -> PersonClaim:
    """An organiser says the entrant of `member` is `person` of the archive: recorded as a
    claim that waits for the entrant's own confirmation (mailed to them); nothing else changes.
    A waiting link of the same two people is returned as it is."""
    if not reason.strip():
        raise PeopleRefused("people.reason_missing", "A link needs a reason.")
    entry = member.entry
    waiting = PersonClaim.objects.filter(member=member, person=person,
                                         state=PersonClaim.State.WAITING).first()
    if waiting is not None:
        return waiting
    with unit_of_work(PERSON_CLAIMED, championship=entry.event.championship, user=user,
                      number=entry.number, person=person.pk) as work:
        claim = PersonClaim.objects.create(member=member, person=person, proposed_by=user,
                                           registrant_token=new_token())
        _change(claim, PersonChange.Kind.CLAIM, f"An organiser linked them: {reason.strip()}",
                user, "organiser")
        work.record(claim=claim.pk, member=member.pk)
        _ask_entrant(claim)
    return claim


def claim_registrant_confirm(*, claim: PersonClaim) -> PersonClaim:
    """The registrant confirmed their entry by its emailed link: the claim's first proof."""
    return _approve(claim, "registrant", "The registrant confirmed their email", None)


def claim_owner_confirm(*, claim: PersonClaim) -> PersonClaim:
    """The known person's own email address confirmed the claim (the link mailed to it)."""
    return _approve(claim, "owner", "The known person's email confirmed", None)


def claim_approve(*, claim: PersonClaim, reason: str, user: Any) -> PersonClaim:
    """An organiser vouches for the claim, with a reason, in place of the known person's
    email; for an organiser's own link only staff may (the entrant still confirms)."""
    if not reason.strip():
        raise PeopleRefused("people.reason_missing", "An approval needs a reason.")
    if claim.proposed_by_id is not None and not getattr(user, "is_staff", False):
        raise PeopleRefused("claims.staff_approves",
                            "An organiser's own link is approved by staff only.")
    return _approve(claim, "organiser", reason.strip(), user)


def _approve(claim: PersonClaim, by: str, reason: str, user: Any) -> PersonClaim:
    with unit_of_work(CLAIM_APPROVED, championship=_championship(claim), user=user,
                      person=claim.person_id, by=by, claim=claim.pk):
        claim = PersonClaim.objects.select_for_update().select_related(
            "person", "member__person", "member__entry__event__championship").get(pk=claim.pk)
        if claim.state != PersonClaim.State.WAITING:
            raise PeopleRefused("claims.decided", "This claim is decided already.")
        now = timezone.now()
        if by == "registrant":
            claim.registrant_confirmed_at = now
        elif by == "owner":
            claim.owner_confirmed_at = now
        else:
            claim.approved_by, claim.approval_reason = user, reason[:300]
        _change(claim, PersonChange.Kind.APPROVAL, reason, user, by)
        claim.save()
        if _proven(claim):
            claim.merge = person_merge(keep=claim.person, other=claim.member.person,
                                       reason=f"Claim confirmed: {reason}"[:300], user=user,
                                       private=claim.proposed_by_id is None)
            claim.state = PersonClaim.State.DONE
            claim.save(update_fields=["merge", "state"])
        elif by == "registrant":
            _ask_owner(claim)
    return claim


def _proven(claim: PersonClaim) -> bool:
    """The registrant confirmed, their entry still stands, the known person is still the
    archive's alone (no running championship's organiser has them), and the known person has
    no other email of their own or it (or an organiser) confirmed."""
    own = claim.person.email.strip().lower()
    if claim.member.entry.status == EntryStatus.CANCELLED or not archive_only([claim.person_id]):
        return False
    return claim.registrant_confirmed_at is not None and (
        not own or own == claim.member.person.email.strip().lower()
        or claim.owner_confirmed_at is not None or claim.approved_by_id is not None)


def claim_link(claim: PersonClaim) -> str:
    """The absolute address mailed to the known person to confirm the claim."""
    path = reverse("public:registration:claim", kwargs={
        "slug": _championship(claim).slug, "token": claim.owner_token})
    return settings.SITE_URL.rstrip("/") + path


def claim_entrant_link(claim: PersonClaim) -> str:
    """The absolute address mailed to the entrant an organiser linked to a known person."""
    path = reverse("public:registration:link", kwargs={
        "slug": _championship(claim).slug, "token": claim.registrant_token})
    return settings.SITE_URL.rstrip("/") + path


def _ask_entrant(claim: PersonClaim) -> None:
    """Mail the entrant the organiser linked, once the change is committed (no address: the
    link waits, and the organiser sees it waiting)."""
    entry = claim.member.entry
    address = claim.member.person.email or entry.contact_email
    if not address:
        return
    language = translation.get_language()
    championship, link = _championship(claim), claim_entrant_link(claim)
    # The archived person's public page: the results the entrant is asked about.
    person, person_url = str(claim.person), settings.SITE_URL.rstrip("/") + reverse(
        "public:people:person", args=[claim.person_id])

    def send() -> None:
        with translation.override(language):
            body = render_to_string("emails/claim_link.txt", {
                "championship": championship, "event": entry.event, "link": link,
                "person": person, "person_url": person_url})
            send_mail(str(LINK_SUBJECT % {"championship": championship.name}), body, None,
                      [address])

    transaction.on_commit(send)


def _ask_owner(claim: PersonClaim) -> None:
    """Mail the known person's own address, once the change is committed."""
    language = translation.get_language()
    address, championship = claim.person.email, _championship(claim)
    link = claim_link(claim)

    def send() -> None:
        with translation.override(language):
            body = render_to_string("emails/claim_confirm.txt", {
                "championship": championship, "event": claim.member.entry.event,
                "link": link, "by_organiser": claim.proposed_by_id is not None})
            send_mail(str(SUBJECT % {"championship": championship.name}), body, None,
                      [address])

    transaction.on_commit(send)
