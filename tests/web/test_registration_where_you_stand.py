"""What registration tells people: places, confirmed and waiting per event; the official
ranking a foreign entrant is outside of; emails that name the championship, its date and venue
and link to the entry's own page."""

from __future__ import annotations

from django.core import mail
from django.urls import reverse

from puzzlecomp.championships.models import EntryStatus
from tests.web.test_groups import add_entries
from tests.web.test_registration_public import (  # noqa: F401 (fixtures)
    person,
    published,
    register,
    submit,
    wjpc,
)


def test_the_registration_page_shows_places_confirmed_and_waiting_per_event(
        wjpc, client, clock):
    """wjpc-2025.txt: 1,200 individuals; we keep a waiting list beyond the quota."""
    event = wjpc.events.get(code="individual")
    add_entries(event, {"ES": 3})
    add_entries(event, {"FR": 2}, status=EntryStatus.WAITING)
    html = client.get(reverse("public:registration:index", args=[wjpc.slug])).content.decode()
    individual = html[html.index("<h3>Individual</h3>"):html.index("<h3>Pairs</h3>")]
    assert "<dt>Places</dt><dd>1200 entries</dd>" in individual.replace(",", "")
    assert "<dt>Confirmed</dt><dd>3</dd>" in individual
    assert "<dt>Waiting list</dt><dd>2</dd>" in individual


def test_one_place_left_is_said_in_the_singular(wjpc, client, clock):
    wjpc.events.filter(code="individual").update(capacity=1)
    html = client.get(reverse("public:registration:index", args=[wjpc.slug])).content.decode()
    assert "<dd>1 entry</dd>" in html
    assert "1 place free." in html
    assert "1 entries" not in html


def test_a_foreign_entrant_learns_at_registration_they_are_outside_the_official_ranking(
        published, submit, clock):
    """czech-championship.txt: only a registered address in the Czech Republic competes for
    the title of Czech champion (ruleset: official_ranking)."""
    czech = published("czech-championship")
    index = submit(reverse("public:registration:index", args=[czech.slug])).content.decode()
    assert "Registered address in the Czech Republic" in index
    page = register(submit, czech, "individual", person("Anna", "Schmidt", nationality="DE"))
    html = page.content.decode()
    assert 'id="outside-official"' in html
    assert "Registered address in the Czech Republic" in html
    assert "outside the official ranking" in mail.outbox[0].body


def test_a_czech_resident_is_not_told_they_are_outside(published, submit, clock):
    czech = published("czech-championship")
    page = register(submit, czech, "individual",
                    person("Jana", "Nováková", nationality="CZ", email="jana@example.cz"))
    assert 'id="outside-official"' not in page.content.decode()
    assert "outside the official ranking" not in mail.outbox[0].body


def test_emails_name_the_championship_its_date_and_venue_and_link_to_the_entrants_page(
        wjpc, submit, clock, settings):
    settings.SITE_URL = "https://wjpc.example.org"
    wjpc.venue = "Valladolid, Feria"
    wjpc.save()
    register(submit, wjpc, "individual", person())
    message = mail.outbox[0]
    assert wjpc.name in message.subject
    assert wjpc.name in message.body
    assert "Valladolid, Feria" in message.body
    assert "Sept. 20, 2027" in message.body
    token = wjpc.events.get(code="individual").entries.get().token
    assert f"https://wjpc.example.org/c/{wjpc.slug}/disputes/{token}/" in message.body
