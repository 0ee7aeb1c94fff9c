"""First-round groups: assigned by the engine, moved by hand for a reason, published by email."""

from __future__ import annotations

from collections import Counter

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from puzzlecomp.championships.models import (
    AuditEntry,
    Entry,
    EntryMember,
    EntryStatus,
    Event,
    GroupMove,
    Person,
    Role,
    Round,
)
from puzzlecomp.championships.selectors.planning import groups_balance_get

# ISO code -> entries; uneven on purpose (24 Spaniards cannot split 4/4/4/4/4/4 exactly).
COUNTRIES = {"ES": 25, "CZ": 14, "NO": 11, "US": 6, "JP": 4}


def add_entries(event: Event, countries: dict[str, int], *, size: int = 1,
                status: str = EntryStatus.CONFIRMED, email: str = "") -> list[Entry]:
    """Entries of `size` members of one nationality each, numbered after the existing ones."""
    number = (event.entries.order_by("-number").values_list("number", flat=True).first() or 0)
    made = []
    for code, count in countries.items():
        for _ in range(count):
            number += 1
            entry = Entry.objects.create(
                event=event, number=number, name=f"Dvořák {number}", status=status,
                contact_email=email and f"{number}@{email}", seed_rank=number if number <= 6
                else None, confirmed_at=timezone.now())
            for position in range(size):
                person = Person.objects.create(first_name="Ana", last_name=f"Øye {number}",
                                               nationality=code)
                EntryMember.objects.create(entry=entry, person=person, position=position)
            entry.country = person.nationality.ioc_code
            entry.save(update_fields=["country"])
            made.append(entry)
    return made


def first_round(championship, event_code: str = "individual") -> Round:
    return Round.objects.get(event__championship=championship, event__code=event_code,
                             code="first")


def url(name: str, rnd: Round) -> str:
    return reverse(f"control:planning:{name}", args=[rnd.event.championship.slug, rnd.pk])


@pytest.fixture
def organiser(championship, client_as):
    return client_as(championship, Role.ORGANISER)


@pytest.fixture
def individual(championship) -> Round:
    rnd = first_round(championship)
    add_entries(rnd.event, COUNTRIES, email="example.org")
    return rnd


def test_groups_spread_every_country_evenly_and_keep_sizes_within_one(organiser, individual):
    """wjpc-2025.txt "Group Assignment for First Round": participants of each country evenly
    across all groups; similar numbers of countries; groups that merge later proportionate;
    group size = participants / groups."""
    response = organiser.post(url("groups_assign", individual), {"seed": "7"})
    assert response.status_code == 302
    groups = dict(Entry.objects.filter(event=individual.event).values_list("number", "group"))
    assert set(groups.values()) == set("ABCDEF")
    sizes = Counter(groups.values()).values()
    assert max(sizes) - min(sizes) <= 1
    for code in ("ESP", "CZE", "NOR"):
        per_group = Counter(e.group for e in Entry.objects.filter(event=individual.event,
                                                                  country=code))
        counts = [per_group[g] for g in "ABCDEF"]
        assert max(counts) - min(counts) <= 1, (code, counts)
    balance = groups_balance_get(individual)
    assert balance is not None
    assert balance.max_country_spread <= 1
    assert balance.max_countries_difference <= 1
    assert balance.max_country_block_spread <= 1
    audit = AuditEntry.objects.get(action="puzzlecomp.groups.assigned")
    assert audit.data["seed"] == 7
    page = organiser.get(url("groups", individual)).content.decode()
    assert 'id="balance"' in page
    assert "seed 7" in page


def test_the_same_seed_gives_the_same_groups(organiser, individual):
    organiser.post(url("groups_assign", individual), {"seed": "11"})
    first = dict(Entry.objects.values_list("number", "group"))
    organiser.post(url("groups_assign", individual), {"seed": "11", "confirmed": "1"})
    assert dict(Entry.objects.values_list("number", "group")) == first


def test_a_hand_move_records_who_moved_the_entry_and_why(championship, organiser, individual):
    """wjpc-2025.txt: only the Organization may change group assignments, for justified reasons."""
    organiser.post(url("groups_assign", individual), {"seed": "1"})
    entry = Entry.objects.get(event=individual.event, number=3)
    target = "A" if entry.group != "A" else "B"
    response = organiser.post(url("group_move", individual), {
        "entry": 3, "to_group": target, "reason": "Travels with her wheelchair-using father"})
    assert response.status_code == 302
    move = GroupMove.objects.get(entry=entry)
    assert (move.from_group, move.to_group) == (entry.group, target)
    assert move.moved_by.username.startswith("organiser")
    assert move.reason == "Travels with her wheelchair-using father"
    entry.refresh_from_db()
    assert entry.group == target
    page = organiser.get(url("groups", individual)).content.decode()
    assert "wheelchair-using father" in page


def test_a_hand_move_without_a_reason_is_refused(organiser, individual):
    organiser.post(url("groups_assign", individual), {"seed": "1"})
    before = Entry.objects.get(event=individual.event, number=3).group
    response = organiser.post(url("group_move", individual),
                              {"entry": 3, "to_group": "F" if before != "F" else "E",
                               "reason": "   "}, follow=True)
    assert "Reason" in response.content.decode()
    assert not GroupMove.objects.exists()
    assert Entry.objects.get(event=individual.event, number=3).group == before


def test_a_move_to_an_unknown_group_names_the_group(organiser, individual):
    organiser.post(url("groups_assign", individual), {"seed": "1"})
    response = organiser.post(url("group_move", individual),
                              {"entry": 3, "to_group": "Z", "reason": "typo"}, follow=True)
    assert "The round has no group “Z”." in response.content.decode()
    assert not GroupMove.objects.exists()


def test_publishing_emails_every_entrant_their_group(organiser, individual,
                                                    django_capture_on_commit_callbacks):
    """wjpc-2025.txt: the Organization notifies each participant of their group by email."""
    organiser.post(url("groups_assign", individual), {"seed": "3"})
    # An entry without a contact address is written to at its member's own address.
    quiet = Entry.objects.get(event=individual.event, number=1)
    Entry.objects.filter(pk=quiet.pk).update(contact_email="")
    Person.objects.filter(entries__entry=quiet).update(email="member@example.org")
    with django_capture_on_commit_callbacks(execute=True):
        response = organiser.post(url("groups_publish", individual))
    assert response.status_code == 302
    individual.refresh_from_db()
    assert individual.groups_published
    assert len(mail.outbox) == sum(COUNTRIES.values())
    by_address = {m.to[0]: m for m in mail.outbox}
    entry = Entry.objects.get(event=individual.event, number=5)
    message = by_address["5@example.org"]
    assert message.subject.endswith(f"is {entry.group}")
    assert f"group {entry.group}" in message.body
    assert "member@example.org" in by_address
    # Published groups are not reshuffled wholesale any more.
    organiser.post(url("groups_assign", individual), {"seed": "4"})
    assert Entry.objects.get(pk=entry.pk).group == entry.group


def test_judges_see_the_groups_but_only_organisers_change_them(championship, client_as,
                                                               individual):
    judge = client_as(championship, Role.JUDGE)
    assert judge.get(url("groups", individual)).status_code == 200
    assert judge.post(url("groups_assign", individual), {"seed": "1"}).status_code == 403
    assert client_as(championship, None).post(url("groups_assign", individual)).status_code == 302
    assert not Entry.objects.exclude(group="").exists()
