"""The championship page tells the story: what is live now with its clocks, the latest finishes,
each event's leaders and podiums (the engine's ranking, as on the results pages), the
schedule, the countries taking part and a search across entrants. Rendered on the server, so
a browser without JavaScript reads all of it."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.urls import reverse

from puzzlecomp.championships.engine import round_ranking, round_rules
from puzzlecomp.championships.models import (
    Championship,
    EntryMember,
    GroupStart,
    Role,
    Round,
    RoundState,
)
from puzzlecomp.championships.services.rounds import round_state_set
from puzzlecomp.live.snapshot import snapshot_cache_clear
from puzzlecomp.public.live.display import duration
from puzzlecomp.rules.results import Status
from tests.standings_support import standings_publish_mid_event
from tests.support import published_championship, round_of
from tests.web.test_public_results import enter, finish, record

NOW = dt.datetime(2027, 7, 1, 12, 0, tzinfo=dt.UTC)


@pytest.fixture(autouse=True)
def _fresh_snapshots():
    # The frozen clock gives every test's championship the same creation time and ids are
    # reused: a ranking snapshot built by an earlier test would look current.
    snapshot_cache_clear()


@pytest.fixture
def today(db, clock) -> Championship:
    """A WJPC championship held today (the site's clock is frozen at NOW)."""
    return published_championship("Walk 2027", starts_at=NOW - dt.timedelta(hours=3),
                                  venue="Brno")


@pytest.fixture
def live(today) -> Round:
    """The individual first round running for ten minutes: finishes in groups A and B, an
    unfinished result, and an entrant whose name is not published."""
    rnd = round_of(today, "individual", "first")
    round_state_set(round=rnd, state=RoundState.RUNNING, starts_at=NOW - dt.timedelta(minutes=10))
    ana = enter(rnd, 1, "Ana Nováková", "CZ", table=1)
    ben = enter(rnd, 2, "Ben Berg", "NO", table=2)
    carla = enter(rnd, 3, "Carla Garcia", "ES", table=3)
    dan = enter(rnd, 4, "Dan Smith", "CZ", table=4)
    hidden = enter(rnd, 5, "Hana Hidden", "CZ", table=5)
    EntryMember.objects.filter(entry=hidden).update(consent_publish=False)
    filip = enter(rnd, 6, "Filip Meyer", "DE", group="B", table=1)
    finish(rnd, ana, 300)
    finish(rnd, ben, 290)
    finish(rnd, carla, 310)
    finish(rnd, hidden, 280)
    record(rnd, dan, Status.DNF)
    finish(rnd, filip, 320)
    return rnd


def get(client, name: str, *args, **query) -> str:
    address = reverse(f"public:{name}", args=args)
    response = client.get(address, query)
    assert response.status_code == 200, address
    return response.content.decode()


def section(html: str, marker: str) -> str:
    """The element that carries `marker` (an attribute), up to the next one of its kind."""
    start = html.index(marker)
    tag = html.rfind("<", 0, start)
    name = re.match(r"<(\w+)", html[tag:]).group(1)
    end = html.find(f"</{name}>", start)
    return html[tag:end]


def names(html: str) -> list[str]:
    return re.findall(r'<a class="name" href="[^"]*">([^<]*)</a>', html)


def numbers(html: str) -> list[int]:
    """The entry numbers the names link to (their entrant pages)."""
    return [int(n) for n in re.findall(r'<a class="name" href="[^"]*/(\d+)/">', html)]


def test_a_live_round_has_its_clock_on_the_page_without_javascript(client, live):
    html = get(client, "championship", live.event.championship.slug)
    part = section(html, f'data-live-round="{live.pk}"')
    limit = round_rules(live).time_limit_seconds
    assert "Running" in part
    assert "Time left" in part
    assert duration(limit - 600) in part
    assert reverse("public:live:round", args=[live.event.championship.slug, live.pk]) in part
    # The clock's values for championship.js, which keeps it running.
    assert f'"limit_seconds": {limit}' in part
    assert "reload it for the latest results" in html


def test_groups_that_start_apart_each_have_their_clock(client, live):
    GroupStart.objects.create(round=live, group="A", started_at=NOW - dt.timedelta(minutes=10),
                              state=RoundState.RUNNING)
    for group in live.groups[1:]:
        GroupStart.objects.create(round=live, group=group)
    part = section(get(client, "championship", live.event.championship.slug),
                   f'data-live-round="{live.pk}"')
    clocks = re.findall(r'<p class="clock-group">([^<]*)</p>\s*<p class="round-clock"'
                        r'[^>]*>\s*<span class="state state-(\w+)"', part)
    # Group B waits while A is at the tables (round_life.group_clock_at: "waiting").
    assert clocks[:2] == [("Group A", "running"), ("Group B", "waiting")]
    assert len(clocks) == len(live.groups)


def test_the_leaders_of_a_live_round_are_the_first_three_of_each_group_of_its_ranking(
        client, live):
    part = section(get(client, "championship", live.event.championship.slug),
                   f'data-live-round="{live.pk}"')
    leaders = part[:part.index("Latest finishes")]
    ranking = round_ranking(live).lines
    by_group = {group: [int(line.entry.id) for line in ranking
                        if line.entry.group == group and line.rank is not None][:3]
                for group in ("A", "B")}
    assert numbers(leaders) == by_group["A"] + by_group["B"] == [5, 2, 1, 6]
    assert names(leaders) == ["Name not published", "Ben Berg", "Ana Nováková", "Filip Meyer"]
    assert re.search(r"Group A.*Group B", leaders, re.S)


def test_the_latest_finishes_come_latest_first(client, live):
    part = section(get(client, "championship", live.event.championship.slug),
                   f'data-live-round="{live.pk}"')
    latest = part[part.index("Latest finishes"):]
    assert names(latest) == ["Filip Meyer", "Carla Garcia", "Ana Nováková", "Ben Berg",
                             "Name not published"]


def test_a_name_not_consented_to_is_on_no_part_of_the_page(client, live):
    slug = live.event.championship.slug
    pages = [get(client, "championship", slug), get(client, "live_now", slug),
             get(client, "entrants", slug, q="5"), get(client, "entrants", slug, country="CZE")]
    for html in pages:
        assert "Hidden" not in html
        assert "Name not published" in html
    assert names(get(client, "entrants", slug, q="hana")) == []


def test_the_live_part_alone_is_what_the_script_puts_in_place(client, live):
    part = get(client, "live_now", live.event.championship.slug)
    assert "<html" not in part
    assert f'data-live-round="{live.pk}"' in part
    assert "data-clock-box" in part


def test_the_leaders_of_a_finished_round_stay_until_the_podium_is_known(client, live):
    round_state_set(round=live, state=RoundState.PUBLISHED)
    html = get(client, "championship", live.event.championship.slug)
    assert f'data-live-round="{live.pk}"' not in html
    leaders = section(html, 'data-leaders="individual"')
    assert "Published" in leaders
    assert names(leaders)[:1] == ["Name not published"]
    assert 'data-podium="individual"' not in html
    assert "No round is running right now." in html


@pytest.fixture
def final(live) -> Round:
    """The individual final published: Ben first, Carla second, Ana third."""
    round_state_set(round=live, state=RoundState.FINAL)
    rnd = round_of(live.event.championship, "individual", "final")
    round_state_set(round=rnd, state=RoundState.COUNTING, starts_at=NOW - dt.timedelta(hours=1))
    for number, seconds in ((2, 1000), (3, 1100), (1, 1200), (6, 1300)):
        finish(rnd, rnd.event.entries.get(number=number), seconds)
    round_state_set(round=rnd, state=RoundState.PUBLISHED)
    return rnd


def test_the_podium_is_the_final_rounds_first_three_once_published(client, final):
    html = get(client, "championship", final.event.championship.slug)
    podium = section(html, 'data-podium="individual"')
    assert names(podium) == ["Ben Berg", "Carla Garcia", "Ana Nováková"]
    assert "Places of the final round." in podium
    assert 'data-leaders="individual"' not in html


def test_the_podium_comes_from_the_standings_once_they_are_published(client, final):
    standings_publish_mid_event(final.event)
    html = get(client, "championship", final.event.championship.slug)
    podium = section(html, 'data-podium="individual"')
    assert names(podium) == ["Ben Berg", "Carla Garcia", "Ana Nováková"]
    assert reverse("public:standings:event",
                   args=[final.event.championship.slug, "individual"]) in podium


def test_the_schedule_lists_each_group_start(client, live):
    GroupStart.objects.create(round=live, group="A", started_at=NOW - dt.timedelta(minutes=10),
                              state=RoundState.RUNNING)
    GroupStart.objects.create(round=live, group="B", planned_at=NOW + dt.timedelta(hours=3))
    html = get(client, "championship", live.event.championship.slug)
    schedule = section(html, 'class="card schedule-brief"')
    assert re.search(r'data-schedule-group="A">Group A:\s*started', schedule)
    assert re.search(r'data-schedule-group="B">Group B:\s*1 July 2027, 15:00', schedule)
    assert "Second round" in schedule


def test_the_countries_taking_part_link_to_their_entrants(client, live):
    slug = live.event.championship.slug
    countries = section(get(client, "championship", slug), 'class="country-list"')
    found = re.findall(r'\?country=(\w+)">(?:<span[^>]*>[^<]*</span> )?([^<]+)</a>\s*'
                       r'<span class="count">(\d+)</span>', countries)
    assert found == [("CZE", "Czechia", "3"), ("GER", "Germany", "1"), ("NOR", "Norway", "1"),
                     ("ESP", "Spain", "1")]
    czech = get(client, "entrants", slug, country="CZE")
    assert names(czech) == ["Ana Nováková", "Dan Smith", "Name not published"]
    assert reverse("public:live:entrant", args=[slug, "individual", 1]) in czech


@pytest.mark.parametrize(("query", "found"), [
    ("novakova", ["Ana Nováková"]), ("NOVÁK", ["Ana Nováková"]), ("#2", ["Ben Berg"]),
    ("6", ["Filip Meyer"]), ("ber", ["Ben Berg"]),
    ("a", ["Ana Nováková", "Carla Garcia", "Dan Smith"]),
    ("zzz", []),
])
def test_the_search_finds_entrants_by_name_or_number(client, live, query, found):
    html = get(client, "entrants", live.event.championship.slug, q=query)
    assert names(html) == found
    assert f"{len(found)} entrant" in html


def test_the_search_form_works_without_javascript(client, live):
    html = get(client, "championship", live.event.championship.slug)
    form = section(html, 'class="search-form"')
    assert 'method="get"' in form
    assert f'action="{reverse("public:entrants", args=[live.event.championship.slug])}"' in form
    assert 'name="q"' in form


def test_a_championship_page_counts_the_entrants_of_each_event(client, live):
    events = section(get(client, "championship", live.event.championship.slug),
                     'class="event-list"')
    assert re.search(r"Individual</strong> <span class=\"muted\">6 entrants", events)
    assert re.search(r"Pairs</strong> <span class=\"muted\">0 entrants", events)


def test_staff_see_the_streamers_page_and_the_public_does_not(client, client_as, live):
    championship = live.event.championship
    stream = reverse("public:stream", args=[championship.slug])
    assert stream not in get(client, "championship", championship.slug)
    judge = client_as(championship, Role.JUDGE)
    assert stream in judge.get(reverse("public:championship", args=[championship.slug])
                               ).content.decode()
    assert stream in judge.get(reverse("control:live:index", args=[championship.slug])
                               ).content.decode()


def test_an_upcoming_championship_has_no_live_part_and_tells_its_schedule(client, championship):
    html = get(client, "championship", championship.slug)
    assert "data-championship-live" not in html
    assert "championship.js" not in html
    assert "First round" in html


def test_an_unpublished_championship_has_no_public_pages(client, make_championship):
    hidden = make_championship("wjpc-2025")
    for name in ("championship", "live_now", "entrants", "stream"):
        assert client.get(reverse(f"public:{name}", args=[hidden.slug])).status_code == 404


def test_the_page_is_in_the_visitors_language(client, live):
    client.cookies["django_language"] = "cs"
    html = get(client, "championship", live.event.championship.slug)
    assert "Živě" in html or "Právě" in html
    assert "Hledat" in html
    assert "Jméno nezveřejněno" in html or "nezveřejn" in html
