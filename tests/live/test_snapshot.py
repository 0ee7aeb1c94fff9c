"""Round snapshots over /live/: cached bytes with an ETag, 304 when unchanged, built once per
notice number however many spectators ask at once."""

from __future__ import annotations

import asyncio
import gzip
import json

from puzzlecomp.championships.models import Championship, Round
from puzzlecomp.live import snapshot as snapshot_module
from tests.live.entries import enter, finish, live_seq


def snapshot_path(rnd: Round) -> str:
    return f"/live/{rnd.event.championship.slug}/rounds/{rnd.pk}/snapshot"


def test_a_snapshot_is_the_rounds_ranking_with_an_etag_of_its_notice_number(live_app,
                                                                            live_round):
    response = live_app.get(snapshot_path(live_round))
    seq = live_seq(live_round.event.championship)
    assert response.status == 200
    assert response.headers["content-type"] == "application/json"
    assert response.headers["etag"] == f'"r{live_round.pk}-s{seq}"'
    assert response.headers["cache-control"] == "no-cache"
    data = response.json()
    assert (data["version"], data["seq"], data["round"]["id"]) == (1, seq, live_round.pk)
    assert [line["entry"] for line in data["lines"]] == [2, 1]


def test_an_unchanged_snapshot_answers_304_without_a_body(live_app, live_round):
    etag = live_app.get(snapshot_path(live_round)).headers["etag"]
    again = live_app.get(snapshot_path(live_round), if_none_match=etag)
    assert (again.status, again.body, again.headers["etag"]) == (304, b"", etag)
    # A proxy may weaken the tag; it still matches.
    assert live_app.get(snapshot_path(live_round), if_none_match=f"W/{etag}").status == 304


def test_a_new_result_changes_the_etag_and_the_lines(live_app, live_round):
    old = live_app.get(snapshot_path(live_round))
    finish(live_round, enter(live_round, 5, "Eva Rossi", "IT", table=5), 2000)
    new = live_app.get(snapshot_path(live_round), if_none_match=old.headers["etag"])
    assert new.status == 200
    assert new.headers["etag"] != old.headers["etag"]
    assert new.json()["lines"][0]["entry"] == 5


def test_the_snapshot_is_gzipped_for_browsers_that_accept_it(live_app, live_round):
    plain = live_app.get(snapshot_path(live_round))
    zipped = live_app.get(snapshot_path(live_round), accept_encoding="gzip, deflate, br")
    assert zipped.headers["content-encoding"] == "gzip"
    assert zipped.headers["vary"] == "accept-encoding"
    assert gzip.decompress(zipped.body) == plain.body


def test_a_thousand_spectators_asking_for_a_new_number_build_the_snapshot_once(
        live_app, live_round, monkeypatch):
    built: list[int] = []
    build = snapshot_module.round_snapshot

    def counted(rnd, *, seq=None):
        built.append(seq)
        return build(rnd, seq=seq)

    monkeypatch.setattr(snapshot_module, "round_snapshot", counted)
    finish(live_round, enter(live_round, 5, "Eva Rossi", "IT", table=5), 2000)

    async def spectators():
        return await asyncio.gather(*(live_app.request(snapshot_path(live_round))
                                      for _ in range(1000)))

    responses = live_app.run(spectators(), timeout=30)
    assert {r.status for r in responses} == {200}
    assert len({r.body for r in responses}) == 1
    assert built == [live_seq(live_round.event.championship)]


def test_a_spectator_told_of_a_new_number_never_gets_an_older_snapshot(live_app, live_round):
    """The notice is sent after the commit, so a read started after it sees the new number,
    even when a read of the number was already under way."""
    first = live_app.get(snapshot_path(live_round))
    finish(live_round, enter(live_round, 5, "Eva Rossi", "IT", table=5), 2000)
    later = live_app.get(snapshot_path(live_round))
    assert later.json()["seq"] == first.json()["seq"] + 1


def test_rounds_of_other_championships_and_unpublished_ones_are_not_found(live_app, live_round):
    slug = live_round.event.championship.slug
    assert live_app.get(f"/live/{slug}/rounds/999999/snapshot").status == 404
    assert live_app.get(f"/live/nope/rounds/{live_round.pk}/snapshot").status == 404
    Championship.objects.filter(slug=slug).update(published=False)
    assert live_app.get(snapshot_path(live_round)).status == 404


def test_the_snapshot_carries_the_documented_fields(live_app, live_round):
    """docs/live.md lists these keys; pages and the API read them."""
    data = live_app.get(snapshot_path(live_round)).json()
    assert set(data) == {"version", "championship", "seq", "event", "round", "clock", "seated",
                         "lines"}
    assert set(data["clock"]) == {"state", "started_at", "limit_seconds", "ends_at",
                                  "server_now"}
    assert set(data["lines"][0]) == {
        "entry", "name", "flag", "group", "table", "rank", "official_rank", "eligible",
        "status", "time_seconds", "final_seconds", "penalty_seconds", "missing", "pieces",
        "pieces_per_minute", "checked", "qualified", "version"}
    assert json.dumps(data).count("private.example") == 0
