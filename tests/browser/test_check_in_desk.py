"""The check-in desk on a tablet: an organiser finds entrants by name and by their QR code's
link, checks them in with one tap, and after the ruleset's 10 minutes gives a no-show's table to
the waiting list (wjpc-2025.txt). Screenshots at 768 px go to test-output/screenshots."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from puzzlecomp.championships.models import CheckIn, EntryStatus, Membership, Role, Round, Seat
from puzzlecomp.championships.services.groups import groups_assign
from puzzlecomp.championships.services.seating import seating_assign
from tests.browser.conftest import screenshot
from tests.support import published_championship
from tests.web.test_groups import add_entries, first_round

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def desk(page, django_user_model):
    """A seated first round, an organiser signed in on a tablet-sized page, the desk open."""
    championship = published_championship("WJPC Desk Test")
    rnd = first_round(championship)
    add_entries(rnd.event, {"ES": 12, "CZ": 8, "NO": 6})
    rnd.event.entries.filter(number=4).update(name="Jana Nováková")
    groups_assign(round=rnd, seed=3)
    seating_assign(round=rnd)
    user = django_user_model.objects.create_user("desk", password="pw-12345678")
    Membership.objects.create(user=user, championship=championship, role=Role.ORGANISER)
    page.set_viewport_size({"width": 768, "height": 1024})
    page.goto("/accounts/login/")
    page.fill("#id_username", "desk")
    page.fill("#id_password", "pw-12345678")
    page.click("main button[type=submit]")
    page.wait_for_url("**/control/")
    page.goto(reverse("control:check_in:desk", args=[championship.slug, rnd.pk]))
    return rnd


def test_the_desk_finds_checks_in_and_replaces_on_a_tablet(page, desk):
    page.fill("#desk-q", "novák")
    page.keyboard.press("Enter")
    page.wait_for_selector("#entry-4")
    assert page.locator("li.desk-line").count() == 1
    screenshot(page, "check-in-search-768")
    page.click("#entry-4 button[value=late]")
    page.wait_for_selector(".messages li.success")
    assert "Jana Nováková: Late." in page.inner_text(".messages")
    assert page.input_value("#desk-q") == ""
    assert CheckIn.objects.get(round=desk, entry__number=4).status == "late"

    token = desk.event.entries.get(number=9).token
    page.fill("#desk-q", f"http://testserver/c/{desk.event.championship.slug}/disputes/{token}/")
    page.keyboard.press("Enter")
    page.wait_for_selector("#entry-9")
    assert page.locator("li.desk-line").count() == 1
    page.click("#entry-9 button[value=present]")
    page.wait_for_selector("#entry-4 .badge.status-late")

    waiting = add_entries(desk.event, {"FI": 1}, status=EntryStatus.WAITING)[0]
    Round.objects.filter(pk=desk.pk).update(
        starts_at=timezone.now() - dt.timedelta(minutes=11))
    missing = Seat.objects.filter(round=desk).exclude(entry__number__in=[4, 9]).order_by(
        "group", "table", "seat").first().entry
    page.goto(page.url.split("?")[0] + f"?show=offered&q={missing.number}")
    screenshot(page, "check-in-offered-768")
    page.click(f"#entry-{missing.number} a.replace")
    page.select_option("#id_replacement", str(waiting.number))
    page.click("main button[type=submit]")
    page.wait_for_selector(".messages li.success")
    assert Seat.objects.get(round=desk, entry=waiting).table == Seat.objects.get(
        round=desk, entry=missing).table
    assert CheckIn.objects.get(round=desk, entry=missing).status == "replaced"
