"""An organiser runs a championship's preparation in a real browser: create it from a preset,
people register an individual, a pair and a team, a CSV import with an error and then a correct
one, groups assigned, tables seated, table cards downloaded. Each main page is kept as a
screenshot under test-output/screenshots."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest
from django.core import mail
from django.utils import timezone

from puzzlecomp.championships.models import Championship, Entry, EntryStatus
from tests.browser.conftest import screenshot

pytestmark = pytest.mark.django_db(transaction=True)
FIXTURES = Path(__file__).resolve().parents[1] / "web" / "fixtures"


def sign_in(page, django_user_model) -> None:
    """An organiser who may create championships (the permission, given in the admin)."""
    from django.contrib.auth.models import Permission

    olga = django_user_model.objects.create_user("olga", password="pw-12345678",
                                                 email="o@example.org")
    olga.user_permissions.add(Permission.objects.get(codename="add_championship"))
    page.goto("/accounts/login/")
    page.fill("#id_username", "olga")
    page.fill("#id_password", "pw-12345678")
    page.click("main button[type=submit]")
    page.wait_for_url("**/control/")


def create_championship(page) -> Championship:
    # WJPC registration opens on 1 January of the competition year and closes 5 days before
    # the start: a start 10 days ahead is open all year except in its last days.
    start = timezone.localtime() + dt.timedelta(days=10)
    ruleset = "wjpc-2025" if start.year == timezone.localtime().year else "czech-championship"
    page.click("text=Create a championship")
    page.select_option("#id_ruleset_id", ruleset)
    page.fill("#id_name", "WJPC Browser Test")
    page.fill("#id_starts_at", start.strftime("%Y-%m-%dT09:00"))
    page.fill("#id_venue", "Valladolid")
    screenshot(page, "championship-new")
    page.click("main button[type=submit]")
    page.wait_for_url(re.compile(r".*/control/[\w-]+/$"))
    screenshot(page, "dashboard")
    championship = Championship.objects.get(name="WJPC Browser Test")
    championship.published = True
    championship.save()
    return championship


def fill_person(page, index: int, first: str, last: str, country: str, born: str) -> None:
    prefix = f"#id_m{index}-"
    page.fill(prefix + "first_name", first)
    page.fill(prefix + "last_name", last)
    page.fill(prefix + "email", f"{first.lower()}@example.org")
    page.fill(prefix + "birth_date", born)
    page.select_option(prefix + "nationality", country)
    page.select_option(prefix + "residence", country)
    page.check(prefix + "consent_publish")


def register(page, championship: Championship, event: str, people: list[tuple]) -> None:
    page.goto(f"/c/{championship.slug}/register/{event}/")
    for index, person in enumerate(people):
        fill_person(page, index, *person)
    screenshot(page, f"register-{event}")
    page.click("main form button[type=submit]")
    try:
        page.wait_for_url("**/register/sent/")
    finally:
        screenshot(page, f"register-{event}-submitted")


def confirm_last_email(page) -> None:
    link = re.search(r"https?://\S+/confirm/\S+/", mail.outbox[-1].body).group(0)
    page.goto(link[link.index("/c/"):])
    page.click("text=Confirm my registration")


def test_an_organiser_prepares_a_championship_in_the_browser(page, django_user_model, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    sign_in(page, django_user_model)
    championship = create_championship(page)

    register(page, championship, "individual", [("Ana", "Novak", "CZ", "1990-04-02")])
    confirm_last_email(page)
    register(page, championship, "pairs", [("Ben", "Berg", "NO", "1985-01-01"),
                                           ("Bea", "Berg", "NO", "1987-02-02")])
    confirm_last_email(page)
    register(page, championship, "teams", [("Cid", "Costa", "ES", "1980-03-03"),
                                           ("Cora", "Costa", "ES", "1981-04-04"),
                                           ("Ciro", "Costa", "ES", "1982-05-05")])
    confirm_last_email(page)
    confirmed = Entry.objects.filter(event__championship=championship,
                                     status=EntryStatus.CONFIRMED)
    assert sorted(confirmed.values_list("event__code", flat=True)) == [
        "individual", "pairs", "teams"]
    page.goto(f"/control/{championship.slug}/registrations/")
    screenshot(page, "registrations")

    page.goto(f"/control/{championship.slug}/data/import/")
    page.select_option("#id_event", str(championship.events.get(code="teams").pk))
    page.set_input_files("#id_file", str(FIXTURES / "teams-with-errors.csv"))
    page.click("text=Check the file")
    problems = page.locator("#import-problems")
    assert "row 4" in problems.inner_text()
    screenshot(page, "import-with-errors")
    assert confirmed.filter(event__code="teams").count() == 1

    page.select_option("#id_event", str(championship.events.get(code="teams").pk))
    page.set_input_files("#id_file", str(FIXTURES / "teams.csv"))
    page.click("text=Check the file")
    page.click("text=Import these entries")
    screenshot(page, "import-done")
    assert confirmed.filter(event__code="teams").count() > 1

    first = championship.events.get(code="teams").rounds.order_by("position").first()
    page.goto(f"/control/{championship.slug}/planning/{first.pk}/groups/")
    page.click("text=Assign groups")
    page.wait_for_selector("text=Assign again")
    screenshot(page, "groups")
    group = first.event.entries.filter(status=EntryStatus.CONFIRMED).first()
    group.refresh_from_db()
    assert group.group in first.groups

    page.goto(f"/control/{championship.slug}/planning/{first.pk}/seating/?group={group.group}")
    page.click("text=Seat this group")
    page.wait_for_selector("svg")
    screenshot(page, "seating")
    with page.expect_download() as download_info:
        page.click("text=Table cards (PDF)")
    cards = Path(download_info.value.path()).read_bytes()
    assert cards.startswith(b"%PDF")
