"""Birth dates and contact details never reach a public page or the public API, even once a
round's results are published and every entrant has a page of their own; nor does the name of
a person who did not consent to its publication."""

from __future__ import annotations

import datetime as dt
import itertools
import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from puzzlecomp.championships.engine import ioc_of_code
from puzzlecomp.championships.models import (
    Championship,
    EntryMember,
    Membership,
    Person,
    Role,
    Round,
    RoundState,
)
from puzzlecomp.championships.selectors.rankings import ranking_events
from puzzlecomp.championships.services.results import result_record
from puzzlecomp.championships.services.rounds import round_state_set
from puzzlecomp.live.snapshot import round_snapshot
from puzzlecomp.public.live.screens import OVERLAYS
from puzzlecomp.rules.results import Status
from tests.judging.support import seat_round
from tests.security.test_role_matrix import routes
from tests.standings_support import standings_publish_mid_event

# Pages reached only through an entrant's private link show that entrant their own data.
PRIVATE_LINKS = {"public:disputes:entrant", "public:disputes:emails", "public:registration:confirm",
                 "public:registration:claim", "public:registration:link",
                 "public:payout_account", "public:disputes:withdraw"}


def private_values(person: int) -> tuple[dt.date, str, str]:
    """A distinctive birth date, email and phone-like number per person (the models keep no
    phone field, so the number rides in the email's local part)."""
    born = dt.date(1931 + person, 1 + person % 12, 3 + person % 25)
    phone = f"+420 777 9{person:02d} 31{person % 10}"
    digits = re.sub(r"\D", "", phone)
    return born, f"secret.{digits}@hidden-{person}.example", phone


def spellings(born: dt.date, email: str, phone: str) -> list[str]:
    """Every way a page might write the private values."""
    return [email, email.split("@")[0], phone, re.sub(r"\D", "", phone),
            born.isoformat(), born.strftime("%d.%m.%Y"), born.strftime("%d/%m/%Y"),
            born.strftime("%m/%d/%Y"), born.strftime("%B %-d, %Y"), born.strftime("%-d %B %Y"),
            born.strftime("%b. %-d, %Y"), born.strftime("%-d. %-m. %Y")]


def withheld_name(index: int) -> tuple[str, str]:
    """A distinctive name for a person who did not consent to its publication."""
    return f"Unpublished{index}", f"Quietsurname{index}"


@pytest.fixture
def published(championship) -> tuple[Championship, Round, list[str]]:
    """WJPC's first individual round with people behind every entry, published; every third
    person did not consent to the publication of their name (the entry is named after them,
    as registration names an individual's entry)."""
    rnd = seat_round(championship, "individual", "first", tables=3)
    secrets: list[str] = []
    for index, seat in enumerate(rnd.seats.select_related("entry").order_by("table", "seat")):
        born, email, phone = private_values(index)
        consent = index % 3 != 0
        first, last = (f"Private{index}", "Person") if consent else withheld_name(index)
        person = Person.objects.create(first_name=first, last_name=last,
                                       nationality="CZ", email=email, birth_date=born,
                                       consent_publish=consent)
        EntryMember.objects.create(entry=seat.entry, person=person, represents="CZ",
                                   consent_publish=consent)
        seat.entry.contact_email = email
        seat.entry.name = f"{first} {last}"
        seat.entry.save()
        if not consent:
            secrets += [first, last]
        result_record(round=rnd, entry=seat.entry, status=Status.FINISHED,
                      time_seconds=1800 + index * 7)
        secrets += spellings(born, email, phone)
    round_state_set(round=rnd, state=RoundState.PUBLISHED,
                    starts_at=timezone.now() - dt.timedelta(hours=2))
    standings_publish_mid_event(rnd.event)
    return championship, rnd, secrets


def public_urls(championship: Championship, rnd: Round) -> list[str]:
    """Every public page of the championship, once per entrant where a page is per entrant,
    and every person, country and ranking page of its people."""
    numbers = list(rnd.seats.values_list("entry__number", flat=True))
    members = EntryMember.objects.filter(entry__event__championship=championship)
    choices: dict[str, list[object]] = {
        "number": list(numbers), "kind": list(OVERLAYS),
        "person_id": list(members.values_list("person_id", flat=True)),
        "code": sorted({ioc_of_code(str(n)) or "" for n in
                        members.values_list("person__nationality", flat=True)} - {""}),
        "series": sorted({event.series for event in ranking_events()}) or ["wjpc"]}
    fixed = {"slug": championship.slug, "round_id": rnd.pk, "event_code": "individual"}
    urls = []
    for name, route, _view in routes():
        if not name.startswith("public:") or name in PRIVATE_LINKS:
            continue
        varying = [key for key in choices if f":{key}>" in route]
        for picked in itertools.product(*(choices[key] for key in varying)):
            values = {**fixed, **dict(zip(varying, picked, strict=True))}
            url = "/" + re.sub(r"<(?:\w+:)?(\w+)>",
                               lambda m, v=values: str(v[m.group(1)]), route)
            # A lower third names one entrant: each of them in turn.
            urls += ([f"{url}?entry={n}" for n in numbers]
                     if values.get("kind") == "lower-third" else [url])
    return urls


def api_urls(client: Client, championship: Championship, rnd: Round) -> list[str]:
    """Every public GET of the OpenAPI document (the device API needs a token)."""
    document = client.get("/api/v1/openapi.json").json()
    numbers = list(rnd.seats.values_list("entry__number", flat=True))
    urls = []
    for path, operations in document["paths"].items():
        if "get" not in operations or path.startswith("/api/v1/device/"):
            continue
        for number in (numbers if "{number}" in path else [0]):
            values = {"slug": championship.slug, "round_id": rnd.pk,
                      "event_code": "individual", "number": number}
            urls.append(re.sub(r"\{(\w+)\}", lambda m, v=values: str(v[m.group(1)]), path))
    return urls


def test_no_public_page_or_api_read_shows_a_birth_date_contact_detail_or_withheld_name(
        published):
    championship, rnd, secrets = published
    client = Client()
    pages = public_urls(championship, rnd) + api_urls(client, championship, rnd)
    assert len(pages) > 10
    missing: list[str] = []
    leaks = []
    for url in pages:
        response = client.get(url)
        assert response.status_code < 500, url
        if response.status_code != 200:
            missing.append(url)
        text = response.content.decode()
        leaks += [(url, s) for s in secrets if s in text]
    snapshot = json.dumps(round_snapshot(rnd), default=str)
    leaks += [("snapshot", s) for s in secrets if s in snapshot]
    assert leaks == []
    # A person who withheld their name has no page; countries and ranking lists appear once
    # results are final (none here); "sent" follows a registration.
    withheld = {f"/people/{pk}/" for pk in
                Person.objects.filter(consent_publish=False).values_list("pk", flat=True)}
    assert withheld
    assert [url for url in missing if url not in withheld and not url.startswith(
        ("/countries/", "/rankings/")) and not url.endswith("/register/sent/")] == []


def test_a_withheld_name_reads_name_not_published_and_consented_names_still_show(published):
    championship, rnd, _secrets = published
    client = Client()
    lines = {line["entry"]: line["name"] for line in round_snapshot(rnd)["lines"]}
    seats = list(rnd.seats.select_related("entry").order_by("table", "seat"))
    withheld, shown = seats[0].entry, seats[1].entry
    assert (lines[withheld.number], lines[shown.number]) == ("", "Private1 Person")
    page = client.get(f"/c/{championship.slug}/results/{rnd.pk}/").content.decode()
    assert "Name not published" in page
    assert "Private1 Person" in page
    entrant = client.get(f"/c/{championship.slug}/results/entries/individual/"
                         f"{withheld.number}/").content.decode()
    assert "Name not published" in entrant
    api = client.get(f"/api/v1/championships/{championship.slug}/entries/individual/"
                     f"{withheld.number}").json()
    assert api["name"] == ""


def test_the_check_would_see_a_leak(published):
    """The organisers' private export does show them: the spellings match what pages print."""
    championship, _rnd, secrets = published
    organiser = get_user_model().objects.create_user("organiser", password="pw-12345678")
    Membership.objects.create(user=organiser, championship=championship, role=Role.ORGANISER)
    client = Client()
    client.force_login(organiser)
    text = client.get(f"/control/{championship.slug}/data/people-private.csv").content.decode()
    assert any(s in text for s in secrets[:12])
