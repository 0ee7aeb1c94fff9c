"""Facts derived from history for the engine, and the organiser's overrides (services/facts.py)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from puzzlecomp.championships.engine import engine_entry
from puzzlecomp.championships.models import (
    AuditEntry,
    Entry,
    EntryMember,
    EntryStatus,
    Person,
    Round,
    RoundState,
)
from puzzlecomp.championships.services.facts import (
    FactOverrideRefused,
    member_fact_override,
    member_facts_derive,
)
from puzzlecomp.championships.services.rounds import round_state_set
from tests.web.test_archive import imported


def enter(championship, event_code: str, *people: Person) -> EntryMember:
    event = championship.events.get(code=event_code)
    number = event.entries.count() + 1
    entry = Entry.objects.create(event=event, number=number, name=f"Entry {number}",
                                 status=EntryStatus.CONFIRMED, confirmed_at=timezone.now())
    # What each registrant gave for this championship: their person's consent.
    members = [EntryMember.objects.create(entry=entry, person=p, position=i,
                                          consent_publish=p.consent_publish,
                                          consent_photos=p.consent_photos)
               for i, p in enumerate(people)]
    return members[0]


def newcomer(name: str = "New") -> Person:
    return Person.objects.create(first_name=name, last_name="Person", nationality="ES")


@pytest.mark.django_db
def test_an_archived_person_is_no_debutant_in_an_event_they_competed_in(championship):
    """wjpc-2025.txt, Individual Debutant: not previously in this category in any edition."""
    imported()
    veteran = Person.objects.get(archive_id="Pfast")
    solo = enter(championship, "individual", veteran)
    pair = enter(championship, "pairs", veteran, newcomer())
    team = enter(championship, "teams", veteran, *(newcomer(str(i)) for i in range(3)))
    member_facts_derive(championship=championship)
    for member in (solo, pair, team):
        member.refresh_from_db()
    assert (solo.debutant, pair.debutant, team.debutant) == (False, False, True)
    assert engine_entry(solo.entry).members[0].debutant is False


@pytest.mark.django_db
def test_earlier_events_typed_in_for_a_person_still_count(championship):
    typed = newcomer()
    typed.earlier_events = ["individual"]
    typed.save()
    member = enter(championship, "individual", typed)
    member_facts_derive(championship=championship)
    member.refresh_from_db()
    assert member.debutant is False


@pytest.mark.django_db
def test_starting_a_round_settles_the_facts(championship):
    member = enter(championship, "individual", newcomer())
    round_state_set(round=Round.objects.get(event=member.entry.event, code="first"),
                    state=RoundState.RUNNING, starts_at=timezone.now())
    member.refresh_from_db()
    assert member.debutant is True


@pytest.mark.django_db
def test_australia_only_the_first_state_competition_of_the_year_counts(make_championship):
    """australia-state-national.txt, Trophies: a territory resident takes a trophy at the first
    state competition they compete in for the calendar year."""
    march = make_championship("australia-state", name="NSW 2027",
                              starts_at=dt.datetime(2027, 3, 14, tzinfo=dt.UTC))
    june = make_championship("australia-state", name="VIC 2027",
                             starts_at=dt.datetime(2027, 6, 6, tzinfo=dt.UTC))
    territorian = Person.objects.create(first_name="Tess", last_name="Darwin", nationality="AU",
                                        residence="AU", region="NT")
    first, second = (enter(c, "individual", territorian) for c in (march, june))
    for championship in (march, june):
        member_facts_derive(championship=championship)
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.first_state_competition_of_year,
            second.first_state_competition_of_year) == (True, False)
    assert engine_entry(second.entry).members[0].first_state_competition_of_year is False


@pytest.mark.django_db
def test_an_override_needs_a_reason_is_audited_and_survives_derivation(championship,
                                                                        django_user_model):
    imported()
    member = enter(championship, "individual", Person.objects.get(archive_id="Pfast"))
    member_facts_derive(championship=championship)
    organiser = django_user_model.objects.create_user(username="org", password="pw-12345678")
    with pytest.raises(FactOverrideRefused):
        member_fact_override(member=member, fact="debutant", value=True, reason=" ",
                             user=organiser)
    member_fact_override(member=member, fact="debutant", value=True,
                         reason="Two people share this name in the archive", user=organiser)
    member_facts_derive(championship=championship)
    member.refresh_from_db()
    assert member.debutant is True
    audit = AuditEntry.objects.get(action="puzzlecomp.fact.overridden")
    assert (audit.user, audit.data["before"], audit.data["value"]) == (organiser, False, True)
    assert audit.data["reason"] == "Two people share this name in the archive"


@pytest.mark.django_db
def test_the_organiser_sees_the_derived_facts_and_overrides_one_with_a_reason(championship,
                                                                              client_as):
    from django.urls import reverse

    from puzzlecomp.championships.models import FactOverride, Role

    imported()
    member = enter(championship, "individual", Person.objects.get(archive_id="Pfast"))
    page = reverse("control:registrations:history", args=[championship.slug, "individual", 1])
    organiser = client_as(championship, Role.ORGANISER)
    html = organiser.get(page).content.decode()
    assert str(member.person) in html
    assert "<td>Debutant</td>\n<td>no</td>" in html
    refused = organiser.post(page, {"member": member.pk, "fact": "debutant", "value": "yes",
                                    "reason": ""})
    assert refused.status_code == 200
    assert not FactOverride.objects.exists()
    done = organiser.post(page, {"member": member.pk, "fact": "debutant", "value": "yes",
                                 "reason": "Another person of the same name"})
    assert done.status_code == 302
    member.refresh_from_db()
    assert member.debutant is True
    assert "yes: Another person of the same name" in organiser.get(page).content.decode()
