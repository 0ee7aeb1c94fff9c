"""The demo championships: a WJPC-2025-style edition that looks alive at first sight, and a
Czech relay whose teams were drawn from its pool."""

from __future__ import annotations

import datetime as dt
import random

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from puzzlecomp.championships.demo_rounds import demo_plan_and_record
from puzzlecomp.championships.models import (
    Championship,
    Entry,
    EntryMember,
    EntryStatus,
    Event,
    Person,
)
from puzzlecomp.championships.services.relay import relay_teams_draw
from puzzlecomp.championships.services.setup import championship_create

DEMO_SLUG = "demo-wjpc-2025"
RELAY_DEMO_SLUG = "demo-czech-relay-2027"
DEMO_USER = "organiser"
DEMO_PASSWORD = "puzzlecomp-demo"
# ISO codes of 64 countries; django-countries knows each one's IOC code.
COUNTRIES = (
    "ES CZ US GB FR DE IT PL NO NL BE PT CH AT SE FI DK IE CA MX AR BR CL CO AU NZ JP KR CN "
    "TW IN TR GR HU SK SI HR RS RO BG UA LT LV EE IS IL ZA EG MA PE UY VE EC CR PA GT DO PR "
    "PH TH MY SG"
).split()
FIRST_NAMES = ("Ana Ben Carla Dan Eva Filip Gina Hugo Iris Jan Karin Lukas Marta Nils Olga "
               "Petr Rosa Sven Tereza Umar Vera Will Xenia Yuki Zoe").split()
LAST_NAMES = ("Novak Garcia Smith Berg Rossi Dubois Kowalski Hansen Silva Meyer Horvat Tanaka "
              "Kim Lopez Moreau Olsen Costa Weber Nagy Popescu").split()


def demo_load(*, individuals: int = 1200, pairs: int = 400, teams: int = 100,
              seed: int = 2025) -> str:
    """Create the demo championship once; says what it did."""
    if Championship.objects.filter(slug=DEMO_SLUG).exists():
        return f"demo championship already loaded: /control/{DEMO_SLUG}/"
    with transaction.atomic():
        owner = _demo_owner()
        championship = championship_create(
            ruleset_id="wjpc-2025", name="WJPC 2025 (demo)", slug=DEMO_SLUG,
            starts_at=timezone.now() + dt.timedelta(days=30), venue="Valladolid", owner=owner,
        )
        championship.published = True
        championship.save(update_fields=["published"])
        rng = random.Random(seed)
        for event, count, size in (("individual", individuals, 1), ("pairs", pairs, 2),
                                   ("teams", teams, 4)):
            _entries(championship.events.get(code=event), count, size, rng)
        demo_plan_and_record(championship, seed=seed)
        _relay_demo(owner, rng)
    return (f"demo championship loaded: /control/{DEMO_SLUG}/ "
            f"(sign in as {DEMO_USER} / {DEMO_PASSWORD}); live results: /c/{DEMO_SLUG}/results/; "
            f"relay teams drawn: /control/{RELAY_DEMO_SLUG}/")


def _relay_demo(owner: object, rng: random.Random, pool: int = 22) -> None:
    """A Czech relay two months ahead: one-person registrations drawn into teams of four, two
    people left in the pool for a later draw."""
    championship = championship_create(
        ruleset_id="czech-blind-relay", name="Czech blind and relay 2027 (demo)",
        slug=RELAY_DEMO_SLUG, starts_at=timezone.now() + dt.timedelta(days=60), venue="Brno",
        owner=owner)
    event = championship.events.get(code="relay")
    _entries(event, pool, 1, rng)
    relay_teams_draw(event=event, by=owner, seed=2027)


def _demo_owner():  # type: ignore[no-untyped-def]
    user, created = get_user_model().objects.get_or_create(username=DEMO_USER)
    if created:
        user.set_password(DEMO_PASSWORD)
        user.save()
    return user


def _entries(event: Event, count: int, size: int, rng: random.Random) -> None:
    people = Person.objects.bulk_create(_person(rng) for _ in range(count * size))
    entries = Entry.objects.bulk_create(
        Entry(event=event, number=n + 1, status=EntryStatus.CONFIRMED,
              confirmed_at=timezone.now(), seed_rank=n + 1 if rng.random() < 0.3 else None)
        for n in range(count)
    )
    members: list[EntryMember] = []
    for n, entry in enumerate(entries):
        team = people[n * size:(n + 1) * size]
        # Most pairs and teams share one nationality; the rest compete as mixed entries.
        if size > 1 and rng.random() < 0.85:
            for person in team[1:]:
                person.nationality = team[0].nationality
                person.residence = team[0].residence
        members.extend(EntryMember(entry=entry, person=p, position=i) for i, p in enumerate(team))
        entry.name = _entry_name(team, event.kind, n)
        codes = sorted({p.nationality.ioc_code or p.nationality.alpha3 for p in team})
        entry.country = "/".join(codes)
        entry.mixed = len(codes) > 1
    Person.objects.bulk_update(people, ["nationality", "residence"])
    Entry.objects.bulk_update(entries, ["name", "country", "mixed"])
    EntryMember.objects.bulk_create(members)


def _person(rng: random.Random) -> Person:
    country = rng.choice(COUNTRIES[: rng.choice((8, 20, 64))])
    return Person(
        first_name=rng.choice(FIRST_NAMES), last_name=rng.choice(LAST_NAMES),
        nationality=country, residence=country,
        birth_date=dt.date(rng.randint(1950, 2009), rng.randint(1, 12), rng.randint(1, 28)),
        consent_publish=True, consent_photos=rng.random() < 0.8,
        earlier_events=["individual"] if rng.random() < 0.4 else [],
    )


def _entry_name(team: list[Person], kind: str, n: int) -> str:
    if kind == "individual":
        return str(team[0])
    if kind == "pair":
        return " & ".join(p.last_name for p in team)
    return f"Team {team[0].last_name} {n + 1}"
