"""The demo championships: a WJPC-2025-style edition that looks alive at first sight, and a
Czech relay whose teams were drawn from its pool.

The WJPC edition stands on the shipped archive (samples/wjpc-results.csv): the earlier editions
(2019-2024) are loaded as archived championships, and its entrants are the archive's 2025
entrants (the same people), so its seeding, debutants and person pages come from real
histories; invented debutants top the events up to the counts asked for.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Sequence
from decimal import Decimal

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
from puzzlecomp.championships.selectors.payments import championship_entries, entry_reference
from puzzlecomp.championships.selectors.registration import championship_period
from puzzlecomp.championships.selectors.rounds import event_rounds_to_come
from puzzlecomp.championships.services.archive import (
    archive_import,
    invented_name,
    published_country,
)
from puzzlecomp.championships.services.payments import (
    AccountDetails,
    payment_account_set,
    statement_import,
)
from puzzlecomp.championships.services.relay import relay_teams_draw
from puzzlecomp.championships.services.setup import championship_create
from puzzlecomp.championships.services.standings import event_standings_publish
from puzzlecomp.championships.time_zones import championship_zone
from puzzlecomp.formats.archive_sizes import edition_sizes_file
from puzzlecomp.formats.bank.statements import StatementLine
from puzzlecomp.formats.history_csv import PublishedResult, read_history
from puzzlecomp.rules.fees import Money, fee_due
from puzzlecomp.rules.loading import load_ruleset
from puzzlecomp.samples import SAMPLE_EDITIONS, SAMPLE_RESULTS

DEMO_SLUG = "demo-wjpc-2025"
# The demo edition's year in the archive: the editions before it are archived championships.
DEMO_YEAR = 2025
ARCHIVE_PREFIX = "wjpc"
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
              seed: int = 2025, archive: bool = True) -> str:
    """Create the demo championship once; says what it did.

    `archive`: load the sample archive's earlier editions and take the entrants from its
    demo year (False: invented entrants only, for tests that need no history).
    """
    if Championship.objects.filter(slug=DEMO_SLUG).exists():
        return f"demo championship already loaded: /control/{DEMO_SLUG}/"
    with transaction.atomic():
        known = _archive_loaded() if archive else {}
        owner = _demo_owner()
        championship = championship_create(
            ruleset_id="wjpc-2025", name="WJPC 2025 (demo)", slug=DEMO_SLUG,
            # Before the first rounds the demo starts: the individual groups start in turn,
            # the first about ten hours ago.
            starts_at=timezone.now() - dt.timedelta(hours=11), venue="Valladolid", owner=owner,
            country="ES",
        )
        championship.published = True
        championship.save(update_fields=["published"])
        rng = random.Random(seed)
        for event, count, size in (("individual", individuals, 1), ("pairs", pairs, 2),
                                   ("teams", teams, 4)):
            _entries(championship.events.get(code=event), count, size, rng,
                     known=known.get(event, []))
        _demo_payments(championship, owner, rng)
        demo_plan_and_record(championship, seed=seed)
        for event in championship.events.all():
            # The demo shows standings mid-event, as an organiser may do knowingly.
            event_standings_publish(event=event, published=True, user=owner,
                                    knowingly=len(event_rounds_to_come(event.pk)))
        _relay_demo(owner, rng)
    return (f"demo championship loaded: /control/{DEMO_SLUG}/ "
            f"(sign in as {DEMO_USER} / {DEMO_PASSWORD}); live results: /c/{DEMO_SLUG}/results/; "
            f"relay teams drawn: /control/{RELAY_DEMO_SLUG}/")


def _demo_payments(championship: Championship, owner: object, rng: random.Random) -> None:
    """The organiser's account, and a bank statement that pays nine entries in ten: most with
    their reference, some by name and amount only, a few with part of the fee; with a payment
    nobody can place and the bank's own fee going out."""
    payment_account_set(championship=championship, by=owner, details=AccountDetails(
        holder="Asociación Española de Puzzles", iban="ES9121000418450200051332",
        bic="CAIXESBBXXX"))
    day = (championship.starts_at - dt.timedelta(days=50)).date()
    lines: list[StatementLine] = []
    for entry in championship_entries(championship):
        chance = rng.random()
        if entry.fee_amount is None or chance >= 0.9:
            continue
        amount = entry.fee_amount if chance < 0.85 else (entry.fee_amount / 2).quantize(
            Decimal("0.01"))
        by_name = chance < 0.05
        lines.append(StatementLine(
            line=len(lines) + 1, transaction=f"DEMO-{len(lines) + 1:05d}", booked_on=day,
            amount=amount, currency=entry.fee_currency,
            reference="" if by_name else entry_reference(entry), payer=entry.name,
            message=f"WJPC {entry.name}" if by_name else ""))
    for amount, payer in ((Decimal("60.00"), "Unknown Payer"), (Decimal("-3.50"), "Bank fee")):
        lines.append(StatementLine(line=len(lines) + 1, transaction=f"DEMO-{len(lines) + 1:05d}",
                                   booked_on=day, amount=amount, currency="EUR", payer=payer))
    statement_import(championship=championship, lines=lines, source="demo-statement.xml",
                     by=owner)


def _relay_demo(owner: object, rng: random.Random, pool: int = 22) -> None:
    """A Czech relay two months ahead: one-person registrations drawn into teams of four, two
    people left in the pool for a later draw."""
    championship = championship_create(
        ruleset_id="czech-blind-relay", name="Czech blind and relay 2027 (demo)",
        slug=RELAY_DEMO_SLUG, starts_at=timezone.now() + dt.timedelta(days=60), venue="Brno",
        owner=owner, country="CZ")
    event = championship.events.get(code="relay")
    _entries(event, pool, 1, rng)
    relay_teams_draw(event=event, by=owner, seed=2027)


def _archive_loaded() -> dict[str, list[PublishedResult]]:
    """Archive the sample's editions before the demo year (once); the demo year's entrants of
    each event (a row of each), in the file's order (entrants without people left out)."""
    rows = read_history(SAMPLE_RESULTS.read_text(encoding="utf-8"), source=SAMPLE_RESULTS.name)
    earlier = [row for row in rows if row.year < DEMO_YEAR]
    if not Championship.objects.filter(
            slug__in={f"{ARCHIVE_PREFIX}-{row.year}" for row in earlier}).exists():
        archive_import(rows=earlier, source=SAMPLE_RESULTS.name, ruleset_id="wjpc-2025",
                       slug_prefix=ARCHIVE_PREFIX, title=ARCHIVE_PREFIX.upper(),
                       editions=edition_sizes_file(SAMPLE_EDITIONS))
    entrants: dict[str, dict[str, PublishedResult]] = {}
    for row in rows:
        if row.year == DEMO_YEAR and row.people:
            entrants.setdefault(row.event, {}).setdefault(row.entrant, row)
    return {event: list(found.values()) for event, found in entrants.items()}


def _known_people(entrants: Sequence[PublishedResult]) -> list[list[Person]]:
    """The people of each of these archived entrants, created (with invented names, as the
    archive does) where the archive has not met them yet. No birth date is made up for them:
    their results are real and public, so an invented date would put them in an age record."""
    ids = [person for row in entrants for person in row.people]
    country_of = {person: published_country(row.country)
                  for row in entrants for person in row.people}
    found = {p.archive_id: p for p in Person.objects.filter(archive_id__in=ids)}
    new = []
    for archive_id in dict.fromkeys(ids):
        if archive_id not in found:
            first, last = invented_name(archive_id)
            country = country_of[archive_id]
            new.append(Person(archive_id=archive_id, first_name=first, last_name=last,
                              nationality=country, residence=country, consent_publish=True))
    Person.objects.bulk_create(new)
    found.update({p.archive_id: p for p in Person.objects.filter(
        archive_id__in=[p.archive_id for p in new])})
    return [[found[archive_id] for archive_id in row.people] for row in entrants]


def _one_entry_each(rows: Sequence[PublishedResult]) -> list[PublishedResult]:
    """The rows whose people are in no earlier row: one entry per person and event
    (wjpc-2025.txt, Registration). The source gives namesakes one id (up to 16 teams of one
    2025 round share a person); the later entrants are left out of the demo."""
    seen: set[str] = set()
    kept = []
    for row in rows:
        if seen.isdisjoint(row.people):
            kept.append(row)
            seen.update(row.people)
    return kept


def _demo_owner():  # type: ignore[no-untyped-def]
    user, created = get_user_model().objects.get_or_create(username=DEMO_USER)
    if created:
        user.set_password(DEMO_PASSWORD)
        user.save()
    return user


def _entries(event: Event, count: int, size: int, rng: random.Random,
             known: Sequence[PublishedResult] = ()) -> None:
    """`count` entries: the `known` entrants of the archive first (those with as many people
    as the event allows), then invented ones of `size` people."""
    starts = event.championship.starts_at
    ruleset = load_ruleset(event.championship.ruleset_id)
    spec = next(e for e in ruleset.events if e.id == event.code)
    archived = _one_entry_each([row for row in known
                                if spec.members_min <= len(row.people) <= spec.members_max])[:count]
    teams = _known_people(archived) if archived else []
    invented = Person.objects.bulk_create(_person(rng)
                                          for _ in range((count - len(archived)) * size))
    teams += [invented[n:n + size] for n in range(0, len(invented), size)]

    # Registered within the rulebook's window (most early on), each at the price of its day:
    # the early price up to 31 May, the full one after (wjpc-2025.txt).
    period = championship_period(event.championship, ruleset)
    zone = championship_zone(event.championship)
    opens = period.opens or period.closes - dt.timedelta(days=120)
    days = random.Random(f"{event.code}-registered")  # the rest of the demo stays as it was
    registered = [opens + (period.closes - opens) * days.random() ** 2 for _ in teams]

    def fee_of(people: int, on: dt.datetime) -> Money | None:
        return fee_due(spec, currency=ruleset.currency, people=people,
                       registered_on=timezone.localdate(on, zone),
                       competition_start=timezone.localdate(starts, zone))

    entries = Entry.objects.bulk_create(
        Entry(event=event, number=n + 1, status=EntryStatus.CONFIRMED,
              confirmed_at=registered[n] + dt.timedelta(minutes=5),
              seed_rank=n + 1 if rng.random() < 0.3 else None,
              fee_amount=fee.amount if fee else None, fee_currency=fee.currency if fee else "",
              paid_amount=Decimal(0))  # paid by the demo's bank statement (_demo_payments)
        for n, team in enumerate(teams) for fee in [fee_of(len(team), registered[n])]
    )
    for entry, when in zip(entries, registered, strict=True):
        entry.registered_at = when  # not the moment the demo was loaded
    members: list[EntryMember] = []
    for n, (entry, team) in enumerate(zip(entries, teams, strict=True)):
        # Most invented pairs and teams share one nationality; the rest compete as mixed
        # entries. The archive's people keep theirs.
        if size > 1 and n >= len(archived) and rng.random() < 0.85:
            for person in team[1:]:
                person.nationality = team[0].nationality
                person.residence = team[0].residence
        members.extend(EntryMember(entry=entry, person=p, position=i,
                                   consent_publish=p.consent_publish,
                                   consent_photos=p.consent_photos)
                       for i, p in enumerate(team))
        entry.name = _entry_name(team, event.kind, n)
        codes = sorted({p.nationality.ioc_code or p.nationality.alpha3 for p in team} - {""})
        entry.country = "/".join(codes)
        entry.mixed = len(codes) > 1
    Person.objects.bulk_update(invented, ["nationality", "residence"])
    Entry.objects.bulk_update(entries, ["name", "country", "mixed", "registered_at"])
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
