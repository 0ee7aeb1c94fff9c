"""Temporary: screenshots of the w13b screens in en and cs at 1280, 768 and 390 px."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone

from puzzlecomp.championships.models import (
    CheckIn,
    Entry,
    EntryMember,
    EntryStatus,
    Membership,
    Person,
    Role,
    Round,
)
from puzzlecomp.championships.services.groups import groups_assign
from puzzlecomp.championships.services.seating import seating_assign
from tests.support import published_championship

pytestmark = pytest.mark.django_db(transaction=True)
SHOTS = Path("/work/helpers/shots/w13b")
FIRST = ["Jana", "Petr", "Eva", "Tomáš", "Lucie", "Jiří", "Kateřina", "Martin", "Anna", "Ondřej",
         "Ingrid", "Lars", "María", "Pablo", "Sophie"]
LAST = ["Nováková", "Dvořák", "Svobodová", "Černý", "Procházková", "Kučera", "Veselá",
        "Horák", "Marková", "Pokorný", "Hansen", "Johansen", "García", "López", "Schmidt"]
COUNTRY = ["CZ"] * 10 + ["NO", "NO", "ES", "ES", "DE"]


def people_entries(event, count: int, *, born_young_every: int = 7) -> None:
    for n in range(1, count + 1):
        i = (n - 1) % 15
        first, last = FIRST[i], f"{LAST[i]}" if n <= 15 else f"{LAST[i]}"
        if n > 15:
            first = FIRST[(n * 7) % 15]
        status = EntryStatus.WAITING if n % 23 == 0 else EntryStatus.CONFIRMED
        entry = Entry.objects.create(
            event=event, number=n, name=f"{first} {last}", country="",
            status=status, contact_email=f"{first.lower()}{n}@example.org",
            fee_amount=Decimal(300 if n % 3 else 400), fee_currency="CZK",
            paid_amount=Decimal(300) if n % 4 else Decimal(0), confirmed_at=timezone.now())
        young = n % born_young_every == 0
        person = Person.objects.create(
            first_name=first, last_name=last, nationality=COUNTRY[i], residence=COUNTRY[i],
            birth_date=dt.date(2012 if young else 1975 + n % 30, 5, 1),
            email=f"{first.lower()}{n}@example.org")
        EntryMember.objects.create(entry=entry, person=person, accompanied_by_adult=young)
        entry.country = person.nationality.ioc_code
        entry.save(update_fields=["country"])


def sign_in(page, championship, django_user_model) -> None:
    user = django_user_model.objects.create_user("olga", password="pw-12345678")
    Membership.objects.create(user=user, championship=championship, role=Role.ORGANISER)
    page.goto("/accounts/login/")
    page.fill("#id_username", "olga")
    page.fill("#id_password", "pw-12345678")
    page.click("main button[type=submit]")
    page.wait_for_url("**/control/")


def shoot(page, name: str, address: str, widths=(1280, 390), languages=("en", "cs"),
          before=None) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for language in languages:
        page.context.add_cookies([{"name": "django_language", "value": language,
                                   "url": page.url.split("/", 3)[0] + "//" + page.url.split("/")[2]}])
        for width in widths:
            page.set_viewport_size({"width": width, "height": 900})
            page.goto(address)
            if before:
                before(page)
            page.screenshot(path=str(SHOTS / f"{name}-{language}-{width}.png"), full_page=True)


def test_shots(page, django_user_model):
    czech = published_championship("Mistrovství ČR 2027", ruleset_id="czech-championship",
                                   starts_at=timezone.now() + dt.timedelta(days=40),
                                   venue="Praha, Kongresové centrum")
    individual = czech.events.get(code="individual")
    people_entries(individual, 130)
    pairs = czech.events.get(code="pairs")
    pairs.fee_amount, pairs.fee_early_amount = Decimal(600), Decimal(500)
    pairs.fee_early_until = timezone.localdate() + dt.timedelta(days=10)
    pairs.save()
    individual.fee_amount = Decimal(350)
    individual.save()
    czech.refund_days_before = 14
    czech.floor_rows = [10] * 8
    czech.registration_closes_at = czech.starts_at - dt.timedelta(days=7)
    czech.save()
    sign_in(page, czech, django_user_model)
    slug = czech.slug

    shoot(page, "registration-index", reverse("public:registration:index", args=[slug]))
    shoot(page, "entry-list", reverse("control:registrations:event", args=[slug, "individual"]))
    shoot(page, "entry-list-filtered",
          reverse("control:registrations:event", args=[slug, "individual"])
          + "?q=nov&accompanied=&foreign=&status=confirmed")
    shoot(page, "setup-index", reverse("control:setup:index", args=[slug]))
    shoot(page, "setup-registration-terms", reverse("control:setup:registration", args=[slug]))
    shoot(page, "setup-event-fee", reverse("control:setup:event", args=[slug, "pairs"]))
    shoot(page, "payment", reverse("control:registrations:payment", args=[slug, "individual", 4]))

    entry = Entry.objects.get(event=individual, number=15)
    shoot(page, "registration-confirm-foreign",
          reverse("public:registration:confirm", args=[slug, entry.token]))
    shoot(page, "entrant-page-qr", reverse("public:disputes:entrant", args=[slug, entry.token]),
          before=lambda p: p.click("details.entrant-code summary"))

    rnd = Round.objects.get(event=individual, code="qualification")
    Entry.objects.filter(event=individual, status=EntryStatus.CONFIRMED).update(group="")
    groups_assign(round=rnd, seed=1)
    seating_assign(round=rnd)
    Round.objects.filter(pk=rnd.pk).update(starts_at=timezone.now() - dt.timedelta(minutes=12))
    for number, status in ((1, "present"), (2, "late"), (3, "present"), (5, "no_show"),
                           (8, "present")):
        CheckIn.objects.create(round=rnd, entry=Entry.objects.get(event=individual,
                                                                  number=number),
                               status=status, at=timezone.now(), by=None)
    desk = reverse("control:check_in:desk", args=[slug, rnd.pk])
    shoot(page, "check-in-desk", desk, widths=(1280, 768, 390))
    shoot(page, "check-in-desk-search", desk + "?q=novak", widths=(1280, 768, 390))
    shoot(page, "check-in-index", reverse("control:check_in:index", args=[slug]))
    shoot(page, "check-in-replace",
          reverse("control:check_in:replace", args=[slug, rnd.pk, 5]), widths=(1280, 768, 390))
