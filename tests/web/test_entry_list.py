"""The organiser's entry list: escaped, with its links; searched, filtered and paged at
1,200 entries; the ruleset's age categories, accompanying adults and the official ranking."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal

from puzzlecomp.championships.models import Entry, EntryMember, EntryStatus, Person, Role


def test_the_entry_list_escapes_names_and_links_each_entry(championship, client_as):
    event = championship.events.get(code="individual")
    Entry.objects.create(event=event, number=7, name="<script>x</script>", country="CZE",
                         status=EntryStatus.CONFIRMED, contact_email="a@example.org")
    page = client_as(championship, Role.ORGANISER).get(
        f"/control/{championship.slug}/registrations/individual/").content.decode()
    assert "<script>x</script>" not in page
    assert "&lt;script&gt;x&lt;/script&gt;" in page
    assert f"/control/{championship.slug}/registrations/individual/7/payment/" in page


def _czech_entries(make_championship, client_as):
    """A Czech championship with 130 individuals: residents and foreigners, young and old."""
    championship = make_championship("czech-championship")
    event = championship.events.get(code="individual")
    event.capacity = None
    event.save()
    for number in range(1, 131):
        entry = Entry.objects.create(
            event=event, number=number, name=f"Entrant {number:03}",
            status=EntryStatus.WAITING if number % 10 == 0 else EntryStatus.CONFIRMED,
            contact_email=f"e{number}@example.org", fee_amount=Decimal(300),
            fee_currency="CZK")
        country = "DE" if number % 4 == 0 else "CZ"
        person = Person.objects.create(first_name="Eva", last_name=f"Svobodová {number}",
                                       nationality=country, residence=country,
                                       birth_date=dt.date(2012 if number % 5 == 0 else 1980, 3,
                                                          1))
        EntryMember.objects.create(entry=entry, person=person,
                                   accompanied_by_adult=number % 5 == 0)
    return championship, client_as(championship, Role.ORGANISER)


def _listed(page: str) -> list[int]:
    return [int(n) for n in re.findall(r'<tr><td class="num">(\d+)</td>', page)]


def test_the_entry_list_of_130_pages_by_100_and_counts_in_words(make_championship, client_as):
    championship, organiser = _czech_entries(make_championship, client_as)
    address = f"/control/{championship.slug}/registrations/individual/"
    first = organiser.get(address).content.decode()
    assert _listed(first) == list(range(1, 101))
    assert "130 entries" in first
    assert "Page 1 of 2" in first
    assert _listed(organiser.get(address, {"page": 2}).content.decode()) == list(range(101, 131))
    one = organiser.get(address, {"q": "Svobodová 7"}).content.decode()
    assert "1 of 130 entry" not in one
    assert _listed(one) == [7, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79]


def test_the_entry_list_filters_by_status_accompanied_and_official_ranking(
        make_championship, client_as):
    """czech-championship.txt: only residents compete for the title; under 16 only with an
    accompanying adult. The list shows both, and filters on them."""
    championship, organiser = _czech_entries(make_championship, client_as)
    address = f"/control/{championship.slug}/registrations/individual/"
    waiting = organiser.get(address, {"status": "waiting"}).content.decode()
    assert _listed(waiting) == list(range(10, 131, 10))
    accompanied = organiser.get(address, {"accompanied": "yes"}).content.decode()
    assert _listed(accompanied) == list(range(5, 131, 5))
    foreign = organiser.get(address, {"foreign": "yes", "accompanied": "yes"}).content.decode()
    assert _listed(foreign) == list(range(20, 131, 20))
    assert "Outside the official ranking" in foreign
    # Foreign, with the link to correct the facts that decide it.
    assert "<td>foreign<br><a href=\"/control/" in foreign
    assert "/facts/\">Person facts</a></td>" in foreign
    assert "300.00 CZK" in foreign
    number = organiser.get(address, {"q": "42"}).content.decode()
    assert _listed(number) == [42]
    assert "1 of 130 entries" in number


def test_the_entry_list_names_each_entrys_age_category_from_the_ruleset(championship,
                                                                         client_as):
    """wjpc-2025.txt: Junior 18 (born 2007 or later), Senior A (1965-1979), Senior B (1964 or
    earlier)."""
    event = championship.events.get(code="individual")
    for number, born in ((1, 2008), (2, 1970), (3, 1960), (4, 1990)):
        entry = Entry.objects.create(event=event, number=number, name=f"E{number}",
                                     status=EntryStatus.CONFIRMED)
        person = Person.objects.create(first_name="A", last_name=f"B{number}",
                                       nationality="ES", birth_date=dt.date(born, 5, 5))
        EntryMember.objects.create(entry=entry, person=person)
    organiser = client_as(championship, Role.ORGANISER)
    address = f"/control/{championship.slug}/registrations/individual/"
    page = organiser.get(address).content.decode()
    assert "<td>Junior 18</td>" in page
    assert "<td>Senior A</td>" in page
    assert "<td>Senior B</td>" in page
    assert _listed(organiser.get(address, {"category": "Senior A"}).content.decode()) == [2]
    assert "Official ranking" not in page
