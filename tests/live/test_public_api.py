"""The public JSON API reads under /api/v1/: published championships only, the same snapshot
as the live pages, and nothing private about an entrant."""

from __future__ import annotations

import datetime as dt
import time
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from puzzlecomp.championships.models import Championship, Entry, Round
from puzzlecomp.championships.services.setup import championship_create
from tests.live.entries import enter, finish, live_seq

API = "/api/v1"


def base(rnd: Round) -> str:
    return f"{API}/championships/{rnd.event.championship.slug}"


def test_only_published_championships_are_listed(client, live_round):
    championship_create(ruleset_id="wjpc-2025", name="Still Private",
                        starts_at=timezone.now() + dt.timedelta(days=9))
    listed = client.get(f"{API}/championships").json()
    assert [c["slug"] for c in listed] == [live_round.event.championship.slug]
    assert listed[0]["ruleset"] == "wjpc-2025"
    assert listed[0]["live_seq"] == live_seq(live_round.event.championship)


def test_a_championship_lists_its_events_and_rounds_with_state_start_and_limit(client,
                                                                               live_round):
    """wjpc-2025.txt: the individual first round lasts 90 minutes."""
    data = client.get(base(live_round)).json()
    individual = next(e for e in data["events"] if e["code"] == "individual")
    first = individual["rounds"][0]
    assert (first["id"], first["code"], first["state"]) == (live_round.pk, "first", "running")
    assert first["time_limit_seconds"] == 90 * 60
    assert first["groups"] == ["A", "B", "C", "D", "E", "F"]
    stored = Round.objects.get(pk=live_round.pk).starts_at
    assert abs(dt.datetime.fromisoformat(first["starts_at"]) - stored) < dt.timedelta(
        milliseconds=1)


def test_the_ranking_is_the_live_snapshot_with_etag_and_304(client, live_app, live_round):
    live = live_app.get(f"/live/{live_round.event.championship.slug}/rounds/"
                        f"{live_round.pk}/snapshot")
    response = client.get(f"{base(live_round)}/rounds/{live_round.pk}/ranking")
    assert response.status_code == 200
    assert response["ETag"] == live.headers["etag"]
    assert response.content == live.body
    unchanged = client.get(f"{base(live_round)}/rounds/{live_round.pk}/ranking",
                           headers={"If-None-Match": response["ETag"]})
    assert (unchanged.status_code, unchanged.content) == (304, b"")
    finish(live_round, enter(live_round, 5, "Eva Rossi", "IT"), 2000)
    changed = client.get(f"{base(live_round)}/rounds/{live_round.pk}/ranking",
                         headers={"If-None-Match": response["ETag"]})
    assert changed.status_code == 200
    assert changed.json()["lines"][0]["entry"] == 5


def test_a_rounds_clock_comes_with_the_servers_time(client, live_round):
    clock = client.get(f"{base(live_round)}/rounds/{live_round.pk}/clock").json()
    assert clock["state"] == "running"
    assert clock["limit_seconds"] == 5400
    started = dt.datetime.fromisoformat(clock["started_at"])
    ends = dt.datetime.fromisoformat(clock["ends_at"])
    assert ends - started == dt.timedelta(seconds=5400)
    assert abs(dt.datetime.fromisoformat(clock["server_now"]) - timezone.now()) < dt.timedelta(
        seconds=5)


def test_a_rounds_clock_times_carry_the_championships_offset(client, live_round):
    """Issue 24, item 4: the API gives times in ISO 8601 with the championship's offset, the
    clocks' too (the snapshot's and the clock's), not UTC only."""
    championship = live_round.event.championship
    championship.time_zone = "Europe/Madrid"
    championship.save(update_fields=["time_zone"])
    zone = ZoneInfo("Europe/Madrid")
    clock = client.get(f"{base(live_round)}/rounds/{live_round.pk}/clock").json()
    snapshot = client.get(f"{base(live_round)}/rounds/{live_round.pk}/ranking").json()
    for times in (clock, snapshot["clock"]):
        for name in ("started_at", "ends_at", "server_now"):
            shown = dt.datetime.fromisoformat(times[name])
            assert shown.utcoffset() == shown.astimezone(zone).utcoffset(), name
            assert not times[name].endswith("+00:00"), name
    started = dt.datetime.fromisoformat(clock["started_at"])
    assert abs(started - live_round.starts_at) < dt.timedelta(milliseconds=1)  # the same instant


def test_time_is_the_servers_clock(client, db):
    before = time.time() * 1000
    now = client.get(f"{API}/time").json()["now"]
    assert before - 1 <= now <= time.time() * 1000 + 1


def test_an_entrant_shows_group_tables_results_and_ranks(client, live_round):
    data = client.get(f"{base(live_round)}/entries/individual/1").json()
    assert (data["number"], data["name"], data["flag"], data["group"]) == (
        1, "Ana Novak", "CZE", "A")
    assert data["members"] == [{"name": "Ana Novak", "nationality": "CZE"}]
    [first] = data["rounds"]
    assert (first["round_id"], first["table"], first["group"]) == (live_round.pk, 1, "A")
    assert (first["result"]["rank"], first["result"]["time_seconds"]) == (2, 3000)


def test_an_entrant_without_a_result_yet_shows_the_table(client, live_round):
    data = client.get(f"{base(live_round)}/entries/individual/3").json()
    assert data["rounds"][0]["table"] == 3
    assert data["rounds"][0]["result"] is None


def test_no_private_data_of_an_entrant_leaks(client, live_round):
    """Birth dates, email addresses and the private link token are never public; a member who
    did not consent to publication has neither name nor nationality shown."""
    entry = Entry.objects.get(event=live_round.event, number=3)
    body = client.get(f"{base(live_round)}/entries/individual/3").content.decode()
    for private in ("private.example", "1987", entry.token, "birth", "email", "token"):
        assert private not in body
    data = client.get(f"{base(live_round)}/entries/individual/3").json()
    assert data["members"] == [{"name": "", "nationality": ""}]
    ranking = client.get(f"{base(live_round)}/rounds/{live_round.pk}/ranking").content.decode()
    assert "private.example" not in ranking
    assert "1987" not in ranking


@pytest.mark.parametrize("path", [
    "", "/rounds/{round}/ranking", "/rounds/{round}/clock", "/entries/individual/1"])
def test_an_unpublished_championship_is_not_found_anywhere(client, live_round, path):
    Championship.objects.filter(pk=live_round.event.championship_id).update(published=False)
    response = client.get(base(live_round) + path.format(round=live_round.pk))
    assert response.status_code == 404
    assert client.get(f"{API}/championships").json() == []


def test_unknown_rounds_and_entries_are_not_found(client, live_round):
    assert client.get(f"{base(live_round)}/rounds/999999/ranking").status_code == 404
    assert client.get(f"{base(live_round)}/entries/individual/999").status_code == 404
    assert client.get(f"{base(live_round)}/entries/pairs/1").status_code == 404


def test_the_openapi_document_describes_every_public_read(client, db):
    document = client.get(f"{API}/openapi.json").json()
    paths = document["paths"]
    for path in ("/time", "/championships", "/championships/{slug}",
                 "/championships/{slug}/rounds/{round_id}/ranking",
                 "/championships/{slug}/rounds/{round_id}/clock",
                 "/championships/{slug}/entries/{event_code}/{number}"):
        assert "get" in paths[f"{API}{path}"], path
    ranking = paths[f"{API}/championships/{{slug}}/rounds/{{round_id}}/ranking"]["get"]
    assert ranking["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/SnapshotOut"}
    line = document["components"]["schemas"]["LineOut"]["properties"]
    assert {"rank", "official_rank", "final_seconds", "pieces_per_minute", "qualified"} <= set(
        line)
