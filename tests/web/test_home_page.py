"""The site's home page lists the published championships live now, upcoming and past; the
archive's championships are past."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.urls import reverse

from puzzlecomp.championships.models import Championship, RoundState
from puzzlecomp.championships.services.rounds import round_state_set
from tests.support import published_championship, round_of

NOW = dt.datetime(2027, 7, 1, 12, 0, tzinfo=dt.UTC)


def listed(html: str, heading: str) -> list[str]:
    """The championship names under a heading of the home page, in order."""
    part = html.split(f">{heading}</h2>", 1)[1].split("</section>", 1)[0]
    return re.findall(r'<li><a href="/c/[\w-]+/">([^<]+)</a>', part)


@pytest.fixture
def calendar(db, clock) -> dict[str, Championship]:
    made = {
        "next year": published_championship("Next year", starts_at=NOW + dt.timedelta(days=365)),
        "next month": published_championship("Next month", starts_at=NOW + dt.timedelta(days=30)),
        "today": published_championship("Today", starts_at=NOW - dt.timedelta(hours=2)),
        "last year": published_championship("Last year", starts_at=NOW - dt.timedelta(days=365)),
        "last month": published_championship("Last month", starts_at=NOW - dt.timedelta(days=30)),
        "archived": published_championship("From the archive",
                                           starts_at=NOW - dt.timedelta(days=800)),
        "hidden": published_championship("Not published", starts_at=NOW),
    }
    Championship.objects.filter(pk=made["archived"].pk).update(archived=True)
    Championship.objects.filter(pk=made["hidden"].pk).update(published=False)
    return made


def test_championships_are_listed_live_upcoming_and_past(client, calendar):
    html = client.get(reverse("public:home")).content.decode()
    assert listed(html, "Live now") == ["Today"]
    assert listed(html, "Upcoming") == ["Next month", "Next year"]
    assert listed(html, "Past") == ["Last month", "Last year", "From the archive"]
    assert "Not published" not in html
    assert html.index(">Live now<") < html.index(">Upcoming<") < html.index(">Past<")


def test_a_championship_of_several_days_is_live_until_its_last_day(client, calendar):
    Championship.objects.filter(pk=calendar["last month"].pk).update(
        ends_on=(NOW + dt.timedelta(days=1)).date())
    html = client.get(reverse("public:home")).content.decode()
    assert listed(html, "Live now") == ["Last month", "Today"]


def test_a_round_running_outside_the_championships_days_makes_it_live(client, calendar):
    rnd = round_of(calendar["next month"])
    round_state_set(round=rnd, state=RoundState.RUNNING, starts_at=NOW)
    html = client.get(reverse("public:home")).content.decode()
    assert listed(html, "Live now") == ["Today", "Next month"]
    assert listed(html, "Upcoming") == ["Next year"]


def test_an_archived_championship_is_past_even_with_a_round_left_running(client, calendar):
    rnd = round_of(calendar["archived"])
    round_state_set(round=rnd, state=RoundState.RUNNING, starts_at=NOW)
    html = client.get(reverse("public:home")).content.decode()
    assert "From the archive" in listed(html, "Past")


def test_an_empty_site_says_nothing_is_announced(client, db):
    html = client.get(reverse("public:home")).content.decode()
    assert "No championship is announced yet." in html
    assert ">Live now<" not in html
