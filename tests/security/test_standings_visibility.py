"""Standings and awards are public only once the organiser publishes them, and only for a
published championship: before that, anonymous visitors get no page and the API answers 404."""

from __future__ import annotations

import pytest
from django.test import Client

from puzzlecomp.championships.models import Role
from puzzlecomp.championships.services.results import result_record
from puzzlecomp.championships.services.standings import event_standings_publish
from puzzlecomp.rules.results import Status
from tests.standings_support import standings_publish_mid_event
from tests.web.test_groups import add_entries, first_round


@pytest.fixture
def ranked(championship):
    """A first individual round with two results: entry 1 won."""
    rnd = first_round(championship)
    entries = add_entries(rnd.event, {"CZ": 2})
    for entry, time in zip(entries, (1800, 1900), strict=True):
        entry.group = "A"
        entry.save(update_fields=["group"])
        result_record(round=rnd, entry=entry, status=Status.FINISHED, time_seconds=time)
    return rnd.event


def reads(slug: str) -> list[str]:
    api = f"/api/v1/championships/{slug}/events/individual"
    return [f"/c/{slug}/standings/individual/", f"{api}/standings", f"{api}/awards"]


def test_unpublished_standings_are_nowhere_to_be_seen(ranked, client_as):
    slug = ranked.championship.slug
    for client in (Client(), client_as(ranked.championship, Role.ORGANISER)):
        assert [client.get(url).status_code for url in reads(slug)] == [404, 404, 404]
        page = client.get(f"/c/{slug}/standings/").content.decode()
        assert "The standings are not published yet." in page
        assert "Dvořák" not in page
        assert f"/c/{slug}/standings/" not in client.get(f"/c/{slug}/").content.decode()


def test_published_standings_are_public_until_withdrawn(ranked):
    slug = ranked.championship.slug
    anonymous = Client()
    standings_publish_mid_event(ranked)
    assert [anonymous.get(url).status_code for url in reads(slug)] == [200, 200, 200]
    assert "Dvořák 1" in anonymous.get(f"/c/{slug}/standings/").content.decode()
    assert f"/c/{slug}/standings/" in anonymous.get(f"/c/{slug}/").content.decode()
    event_standings_publish(event=ranked, published=False)
    assert [anonymous.get(url).status_code for url in reads(slug)] == [404, 404, 404]


def test_standings_of_an_unpublished_championship_stay_private(ranked):
    championship = ranked.championship
    standings_publish_mid_event(ranked)
    championship.published = False
    championship.save(update_fields=["published"])
    anonymous = Client()
    assert [anonymous.get(url).status_code for url in reads(championship.slug)] == [404] * 3
    assert anonymous.get(f"/c/{championship.slug}/standings/").status_code == 404


def test_only_organisers_publish(ranked, client_as):
    url = f"/control/{ranked.championship.slug}/standings/individual/publish/"
    for role in (Role.HEAD_JUDGE, Role.JUDGE, Role.COMPETITOR):
        assert client_as(ranked.championship, role).post(url, {"published": "yes"}).status_code \
            == 403
    ranked.refresh_from_db()
    assert ranked.standings_published_at is None
