"""One identity per person: merging two records of one person and splitting one record in two,
each with the reason and an audit trail (PersonChange, and the audit log of every championship
whose entries it touches)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.forms.models import model_to_dict

from puzzlecomp.championships.actions import PERSON_MERGED, PERSON_SPLIT, Action
from puzzlecomp.championships.models import (
    Championship,
    EntryMember,
    Membership,
    Person,
    PersonChange,
    PersonClaim,
    Role,
)
from puzzlecomp.championships.services.facts import member_facts_derive
from puzzlecomp.championships.services.work import unit_of_work

# Filled from the merged record where the kept one has nothing.
FILLED_FIELDS = ("email", "birth_date", "residence", "region", "years_resident")
# Never filled into a person of the archive alone from an organiser-entered entrant (an
# organiser's link): the organiser typed them, so they prove nothing about the archived person.
PRIVATE_FIELDS = ("email", "birth_date", "residence", "region", "years_resident")


def _stored(value: Any) -> Any:
    """A field's value as JSON keeps it (dates as ISO text, countries as their code)."""
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return value if value is None or isinstance(value, (int, str)) else str(value)


class PeopleRefused(Exception):
    """A merge or split that cannot be done, with a machine code."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        super().__init__(message)


def _reason(reason: str) -> str:
    if not reason.strip():
        raise PeopleRefused("people.reason_missing", "A merge or a split needs a reason.")
    return reason.strip()[:300]


def _may_change(user: Any, people: Sequence[Person]) -> None:
    """Refuse unless the user may manage every championship these people have entries in.

    Staff and the operator (no user: the command line) may change anyone. The archive's
    championships are read-only history that no merge changes (its records are kept and its
    entries stay), so they do not count.
    """
    if user is None or getattr(user, "is_staff", False):
        return
    theirs = set(Championship.objects.filter(
        events__entries__members__person__in=people, archived=False)
        .values_list("pk", flat=True))
    managed = set(Membership.objects.filter(
        user=user if getattr(user, "is_authenticated", False) else None,
        championship__in=theirs, role__lte=Role.ORGANISER).values_list("championship", flat=True))
    if theirs - managed:
        raise PeopleRefused("people.not_yours",
                            "This person competed in a championship you do not organise.")


def _archived(person: Person) -> bool:
    """True when the person has a history in the archive (an archive id or an archived
    entry): that record is never merged away."""
    return bool(person.archive_id) or EntryMember.objects.filter(
        person=person, entry__event__championship__archived=True).exists()


def _audit(members: Sequence[EntryMember], action: Action, user: Any, **data: Any) -> None:
    """Audit and announce the change in every championship it touches; their facts from history
    may move."""
    for championship in Championship.objects.filter(
            events__entries__members__in=members).distinct():
        with unit_of_work(action, championship=championship, user=user, **data):
            if not championship.archived:
                member_facts_derive(championship=championship)


@transaction.atomic
def person_merge(*, keep: Person, other: Person, reason: str, user: Any,
                 private: bool = True) -> PersonChange:
    """Make `other` the same person as `keep`: its entries move over and it is removed.

    With `private` false (an organiser's link confirmed) a person of the archive alone takes
    none of `other`'s private facts (email, birth date, residence): they stay with the entry's
    record as typed and go back with it when the merge is undone. What a merge fills in on a
    person of the archive alone is noted, and an undo puts the record back exactly.

    Consent is not touched: each entry member keeps the consent its registrant gave for that
    championship (docs/people.md, Consent). Refused when both records are in one entry, when
    `other` has a history in the archive (an archived record is kept, its entries stay), and
    when `user` does not organise every championship either record competed in (staff may).
    """
    why = _reason(reason)
    if keep.pk == other.pk:
        raise PeopleRefused("people.same_person", "A person cannot be merged with themselves.")
    members = list(EntryMember.objects.filter(person=other))
    if EntryMember.objects.filter(person=keep, entry__in=[m.entry_id for m in members]).exists():
        raise PeopleRefused("people.same_entry",
                            "Both records are members of one entry: they are two people.")
    if _archived(other):
        raise PeopleRefused("people.archive_kept",
                            "An archived person's record is kept: merge the other record into "
                            "it.")
    _may_change(user, [keep, other])
    snapshot = model_to_dict(other, exclude=["id"])
    snapshot["nationality"] = str(other.nationality)
    snapshot["residence"] = str(other.residence)
    snapshot["birth_date"] = other.birth_date.isoformat() if other.birth_date else None
    from puzzlecomp.championships.selectors.people import archive_only

    kept_archived = keep.pk in archive_only([keep.pk])
    snapshot["kept_archive_only"] = kept_archived
    snapshot["kept_before"] = {field: _stored(getattr(keep, field)) for field in FILLED_FIELDS}
    for field in FILLED_FIELDS:
        if kept_archived and not private and field in PRIVATE_FIELDS:
            continue
        if not getattr(keep, field) and getattr(other, field):
            setattr(keep, field, getattr(other, field))
    keep.earlier_events = sorted({*keep.earlier_events, *other.earlier_events})
    archive_id = keep.archive_id or other.archive_id
    EntryMember.objects.filter(person=other).update(person=keep)
    other.delete()
    keep.archive_id = archive_id
    keep.save()
    change = PersonChange.objects.create(
        kind=PersonChange.Kind.MERGE, person=keep, snapshot=snapshot,
        entry_members=[m.pk for m in members], reason=why,
        by=user if getattr(user, "is_authenticated", False) else None)
    _audit(EntryMember.objects.filter(pk__in=[m.pk for m in members]),
           PERSON_MERGED, user, person=keep.pk, merged=snapshot, reason=why)
    return change


@transaction.atomic
def person_split(*, person: Person, members: Sequence[EntryMember], reason: str,
                 user: Any) -> PersonChange:
    """Give some of a person's entries to a new record of the same name: two people shared one.

    The new record starts with the name and nationality only; the archive id stays.
    """
    why = _reason(reason)
    _may_change(user, [person])
    moving = [m for m in members if m.person_id == person.pk]
    if not moving or len(moving) != len(members):
        raise PeopleRefused("people.not_their_entries",
                            "Choose some, not all, of this person's entries.")
    if len(moving) == EntryMember.objects.filter(person=person).count():
        raise PeopleRefused("people.not_their_entries",
                            "Choose some, not all, of this person's entries.")
    other = Person.objects.create(first_name=person.first_name, last_name=person.last_name,
                                  nationality=person.nationality)
    EntryMember.objects.filter(pk__in=[m.pk for m in moving]).update(person=other)
    change = PersonChange.objects.create(
        kind=PersonChange.Kind.SPLIT, person=person, other=other,
        entry_members=[m.pk for m in moving], reason=why,
        by=user if getattr(user, "is_authenticated", False) else None)
    _audit(moving, PERSON_SPLIT, user, person=person.pk, new_person=other.pk,
           entry_members=[m.pk for m in moving], reason=why)
    return change


@transaction.atomic
def person_merge_undo(*, change: PersonChange, reason: str, user: Any) -> PersonChange:
    """Undo a wrong merge: the merged record comes back as it was (its name, birth date, email,
    nationality, consent and archive id, from the merge's snapshot) with the entries it brought,
    where they are still with the kept person.

    The archive id goes back only if the kept record has it from the merge. A kept record that
    was the archive's alone gets back what the merge filled in (email, birth date, residence)
    as it was before; on any other, what the merge filled in stays (merges made before the
    merge noted it cannot tell). Refused for a split, and for a merge undone already.
    """
    why = _reason(reason)
    if change.kind != PersonChange.Kind.MERGE:
        raise PeopleRefused("people.not_a_merge", "Only a merge can be undone.")
    if PersonChange.objects.filter(kind=PersonChange.Kind.SPLIT, person=change.person,
                                   snapshot__undoes=change.pk).exists():
        raise PeopleRefused("people.merge_undone", "This merge is undone already.")
    keep = Person.objects.select_for_update().get(pk=change.person_id)
    _may_change(user, [keep])
    fields = {name: value for name, value in change.snapshot.items()
              if name in {f.name for f in Person._meta.concrete_fields} and name != "id"}
    if fields.get("archive_id") and fields["archive_id"] == keep.archive_id:
        keep.archive_id = None
        keep.save(update_fields=["archive_id"])
    elif fields.get("archive_id"):
        fields["archive_id"] = None  # the kept record had its own: the merged one stays without
    if change.snapshot.get("kept_archive_only"):
        before = change.snapshot.get("kept_before", {})
        for field in FILLED_FIELDS:
            if field in before:
                setattr(keep, field, Person._meta.get_field(field).to_python(before[field]))
        keep.save(update_fields=[field for field in FILLED_FIELDS if field in before])
    restored = Person.objects.create(**fields)
    members = list(EntryMember.objects.filter(pk__in=change.entry_members, person=keep))
    EntryMember.objects.filter(pk__in=[m.pk for m in members]).update(person=restored)
    PersonClaim.objects.filter(merge=change).update(state=PersonClaim.State.UNDONE)
    undo = PersonChange.objects.create(
        kind=PersonChange.Kind.SPLIT, person=keep, other=restored,
        snapshot={"undoes": change.pk}, entry_members=[m.pk for m in members], reason=why,
        by=user if getattr(user, "is_authenticated", False) else None)
    _audit(members or EntryMember.objects.filter(person=keep), PERSON_SPLIT, user,
           person=keep.pk, new_person=restored.pk, entry_members=[m.pk for m in members],
           undoes=change.pk, reason=why)
    return undo
