"""Each championship in its own time zone (issue 24, 4): set at setup (from the host country
by default), every page, PDF, email and API answer in it, the championship file carrying it,
and a rulebook's registration window closing at its local midnight."""

from __future__ import annotations

import datetime as dt
import json
import zoneinfo

import pytest
from django.test import Client

from puzzlecomp.championships.models import (
    AuditEntry,
    Championship,
    GroupStart,
    Role,
    Round,
    RoundState,
)
from puzzlecomp.championships.selectors.registration import event_period
from puzzlecomp.championships.selectors.rounds import dispute_window_ends
from puzzlecomp.championships.services.entrant_mail import result_emails
from puzzlecomp.championships.services.interchange import championship_export, championship_import
from puzzlecomp.championships.services.rounds import round_state_set
from puzzlecomp.championships.services.setup import championship_create
from puzzlecomp.championships.time_zones import default_time_zone, zone_of_country
from puzzlecomp.formats import interchange
from puzzlecomp.formats.interchange import InterchangeError
from tests.web.test_public_results import enter, finish, round_of

# 09:00 UTC on 20 September 2025 is 11:00 in Madrid (summer time, +02:00).
START = dt.datetime(2025, 9, 20, 9, 0, tzinfo=dt.UTC)


@pytest.mark.parametrize(("country", "zone"), [
    ("ES", "Europe/Madrid"), ("NO", "Europe/Oslo"), ("CZ", "Europe/Prague"),
    ("AU", "Australia/Sydney"), ("US", "America/New_York"), ("DE", "Europe/Berlin")])
def test_the_host_country_gives_the_default_time_zone(country, zone):
    assert zone_of_country(country) == zone


def test_without_a_country_the_sites_time_zone_is_the_default(settings):
    settings.TIME_ZONE = "Europe/Lisbon"
    assert zone_of_country("") is None
    assert zone_of_country("XX") is None
    assert default_time_zone("") == "Europe/Lisbon"


@pytest.fixture
def madrid(db) -> Championship:
    championship = championship_create(ruleset_id="wjpc-2025", name="WJPC 2025",
                                       starts_at=START, venue="Valencia", country="ES")
    championship.published = True
    championship.save()
    return championship


def test_a_championship_created_in_spain_is_in_madrid_time(madrid):
    assert madrid.time_zone == "Europe/Madrid"


def test_the_demo_wjpc_is_in_madrid_time(db):
    from puzzlecomp.championships.demo import DEMO_SLUG, demo_load

    demo_load(individuals=60, pairs=20, teams=8)
    assert Championship.objects.get(slug=DEMO_SLUG).time_zone == "Europe/Madrid"


def test_wjpc_registration_closes_at_local_midnight_five_days_before(madrid):
    """wjpc-2025.txt, Registration: "closes 5 days before the start of the WJPC": the start
    day is 20 September in Valencia, so registration closes as 15 September begins there."""
    period = event_period(madrid.events.get(code="individual"))
    assert period.closes == dt.datetime(2025, 9, 14, 22, 0, tzinfo=dt.UTC)
    # It opens "on January 1 at 12:00 AM GMT": GMT, whatever the host's zone.
    assert period.opens == dt.datetime(2025, 1, 1, 0, 0, tzinfo=dt.UTC)


def test_the_api_gives_the_time_zone_and_local_times_with_their_offset(client, madrid):
    answer = client.get(f"/api/v1/championships/{madrid.slug}").json()
    assert answer["time_zone"] == "Europe/Madrid"
    assert answer["starts_at"] == "2025-09-20T11:00:00+02:00"
    listed = client.get("/api/v1/championships").json()
    assert [c["starts_at"] for c in listed if c["slug"] == madrid.slug] == [
        "2025-09-20T11:00:00+02:00"]


def test_the_organisers_pages_show_the_local_time(madrid, client_as):
    organiser = client_as(madrid, Role.ORGANISER)
    page = organiser.get(f"/control/{madrid.slug}/").content.decode()
    assert "11:00" in page
    assert "09:00" not in page
    form = organiser.get(f"/control/{madrid.slug}/setup/championship/").content.decode()
    assert 'value="2025-09-20T11:00"' in form
    assert '<option value="Europe/Madrid" selected>' in form


def test_the_list_of_my_championships_shows_each_start_in_its_own_zone(madrid, client_as,
                                                                     settings):
    """Issue 24 (review): /control/ listed a start entered as 09:00 Europe/Oslo as 08:00
    (the site's zone): the list shows each championship's start in its own zone."""
    settings.TIME_ZONE = "UTC"
    page = client_as(madrid, Role.ORGANISER).get("/control/").content.decode()
    row = page[page.index("WJPC 2025"):]
    row = row[:row.index("</tr>")]
    assert "11:00" in row
    assert "09:00" not in row


def test_the_organiser_changes_the_zone_and_the_start_is_read_in_it(madrid, client_as):
    organiser = client_as(madrid, Role.ORGANISER)
    response = organiser.post(f"/control/{madrid.slug}/setup/championship/", {
        "name": madrid.name, "starts_at": "2025-09-20T10:00", "venue": "Oslo",
        "time_zone": "Europe/Oslo", "published": "on"})
    assert response.status_code == 302
    madrid.refresh_from_db()
    assert madrid.time_zone == "Europe/Oslo"
    assert madrid.starts_at == dt.datetime(2025, 9, 20, 8, 0, tzinfo=dt.UTC)
    refused = organiser.post(f"/control/{madrid.slug}/setup/championship/", {
        "name": madrid.name, "starts_at": "2025-09-20T10:00", "time_zone": "Mars/Olympus"})
    assert refused.status_code == 200
    madrid.refresh_from_db()
    assert madrid.time_zone == "Europe/Oslo"


def test_a_new_championship_takes_the_host_countrys_zone_and_reads_its_start_there(creator):
    client = Client()
    client.force_login(creator)
    response = client.post("/control/new/", {
        "ruleset_id": "norway-nm-2025", "name": "NM 2027", "starts_at": "2027-03-14T10:00",
        "venue": "Oslo", "country": "NO", "time_zone": ""})
    assert response.status_code == 302
    created = Championship.objects.get(name="NM 2027")
    assert created.time_zone == "Europe/Oslo"
    assert created.starts_at == dt.datetime(2027, 3, 14, 9, 0, tzinfo=dt.UTC)


def test_the_championship_file_carries_the_time_zone(madrid, settings):
    exported = championship_export(madrid)
    assert exported["version"] == interchange.VERSION
    assert exported["championship"]["time_zone"] == "Europe/Madrid"
    copy_of = championship_import(json.loads(json.dumps(exported)), slug="copy")
    assert copy_of.time_zone == "Europe/Madrid"
    # A file of version 3 knows no zone: the importing site's.
    settings.TIME_ZONE = "Europe/Prague"
    older = {**exported, "version": 3,
             "championship": {k: v for k, v in exported["championship"].items()
                              if k != "time_zone"}}
    assert championship_import(older, slug="older").time_zone == "Europe/Prague"
    with pytest.raises(InterchangeError) as refused:
        championship_import({**exported, "championship": {**exported["championship"],
                                                          "time_zone": "Mars/Olympus"}},
                            slug="mars")
    assert [p for p in refused.value.problems if "time_zone" in str(p)] != []
    assert not Championship.objects.filter(slug="mars").exists()


def test_a_result_email_gives_the_dispute_deadline_in_local_time(madrid):
    """Emails are sent after the commit, possibly outside any page: they name the
    championship's own time (the site's zone is UTC here)."""
    rnd = round_of(madrid, "individual", "first")
    round_state_set(round=rnd, state=RoundState.RUNNING,
                    starts_at=dt.datetime.now(dt.UTC) - dt.timedelta(minutes=10))
    finish(rnd, enter(rnd, 1, "Ana Novak", "CZ", table=1), 3000)
    round_state_set(round=rnd, state=RoundState.PUBLISHED)
    rnd.refresh_from_db()
    ends = dispute_window_ends(rnd)
    assert ends is not None
    local = ends.astimezone(zoneinfo.ZoneInfo("Europe/Madrid"))
    assert local.utcoffset() != dt.timedelta(0)
    (sent,) = result_emails(rnd)
    assert f"{local:%H:%M}" in sent.body
    assert f"{ends:%H:%M}" not in sent.body


def test_a_new_zone_keeps_the_planned_rounds_at_their_local_time(madrid, client_as):
    """Issue 24 review: the championship's start typed in the setup form is read in the new
    zone, so the rounds' and groups' planned starts keep their local clock time with it (a
    round planned for 10:00 stays at 10:00 where the championship is held); a start already
    given is a fact and stays; the audit lists what moved."""
    rounds = Round.objects.filter(event__championship=madrid).order_by("event__position",
                                                                        "position")
    planned, running = rounds[0], rounds[1]
    ten_in_madrid = dt.datetime(2025, 9, 20, 8, 0, tzinfo=dt.UTC)  # 10:00 CEST
    Round.objects.filter(pk=planned.pk).update(starts_at=ten_in_madrid)
    Round.objects.filter(pk=running.pk).update(starts_at=ten_in_madrid,
                                               state=RoundState.RUNNING)
    group = GroupStart.objects.create(round=planned, group="A",
                                      planned_at=ten_in_madrid + dt.timedelta(hours=2))
    organiser = client_as(madrid, Role.ORGANISER)
    response = organiser.post(f"/control/{madrid.slug}/setup/championship/", {
        "name": madrid.name, "starts_at": "2025-09-20T09:00", "venue": "London",
        "time_zone": "Europe/London", "published": "on"})
    assert response.status_code == 302
    ten_in_london = dt.datetime(2025, 9, 20, 9, 0, tzinfo=dt.UTC)  # 10:00 BST
    assert Round.objects.get(pk=planned.pk).starts_at == ten_in_london
    assert Round.objects.get(pk=running.pk).starts_at == ten_in_madrid
    assert GroupStart.objects.get(pk=group.pk).planned_at == ten_in_london + dt.timedelta(
        hours=2)
    audit = AuditEntry.objects.filter(action="puzzlecomp.championship.changed").latest("pk")
    assert audit.data["planned_starts_moved"] == [
        f"{planned.event.code}/{planned.code}", f"{planned.event.code}/{planned.code}/A"]
    # Saving again without a new zone moves nothing.
    organiser.post(f"/control/{madrid.slug}/setup/championship/", {
        "name": madrid.name, "starts_at": "2025-09-20T09:00", "venue": "London 2",
        "time_zone": "Europe/London", "published": "on"})
    assert Round.objects.get(pk=planned.pk).starts_at == ten_in_london
