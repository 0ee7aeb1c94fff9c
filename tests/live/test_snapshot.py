"""Round snapshots over /live/: cached bytes with an ETag, 304 when unchanged, built once per
notice number however many spectators ask at once."""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import gzip
import json
import random

import pytest
from django.utils import timezone

from puzzlecomp.championships.engine import (
    engine_entry,
    engine_result,
    flag_of,
    round_ranking,
    round_rules,
    ruleset_of,
    with_members,
)
from puzzlecomp.championships.models import (
    Championship,
    Entry,
    EntryMember,
    EntryStatus,
    Person,
    Puzzle,
    Result,
    Round,
    Seat,
)
from puzzlecomp.championships.selectors.publishing import public_name
from puzzlecomp.championships.services.qualifiers import round_qualification_certainty
from puzzlecomp.championships.services.seating import seats_swap
from puzzlecomp.championships.services.setup import championship_create
from puzzlecomp.live import snapshot as snapshot_module
from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.ranking import rank_round
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


def test_a_seat_swap_reaches_the_cached_snapshot(live_app, live_round):
    """Stale pages found in issue 11: the snapshot is cached by notice number, so a seating
    change must number a notice or spectators keep the old tables."""
    ana, ben = Entry.objects.filter(event=live_round.event, number__in=(1, 2)).order_by("number")
    old = live_app.get(snapshot_path(live_round))
    assert {line["entry"]: line["table"] for line in old.json()["lines"]} == {1: 1, 2: 2}
    seats_swap(round=live_round, entry_a=ana, entry_b=ben, user=None)
    new = live_app.get(snapshot_path(live_round), if_none_match=old.headers["etag"])
    assert new.status == 200
    assert {line["entry"]: line["table"] for line in new.json()["lines"]} == {1: 2, 2: 1}


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
    assert set(data) == {"version", "championship", "seq", "event", "round", "clock",
                         "group_clocks", "seated", "lines"}
    assert set(data["clock"]) == {"state", "shows", "started_at", "limit_seconds", "ends_at",
                                  "ended_at", "server_now"}
    assert set(data["lines"][0]) == {
        "entry", "name", "flag", "group", "table", "rank", "official_rank", "eligible",
        "status", "time_seconds", "final_seconds", "penalty_seconds", "missing", "pieces",
        "pieces_per_minute", "checked", "qualified", "certainty", "version", "record"}
    assert json.dumps(data).count("private.example") == 0


# The snapshot is built from plain values (one read of results and entries, one of members and
# persons). These tests compare it with the straightforward build from model instances, as it
# was first written: the engine must see exactly the same entries, results and order.

COUNTRIES = ["CZ", "SK", "NO", "DE", "SE", "US", ""]


def _old_ranking(rnd: Round) -> list:
    first = not rnd.event.rounds.filter(position__lt=rnd.position).exists()
    seat_group = dict(Seat.objects.filter(round=rnd).values_list("entry_id", "group"))
    rows = (Result.objects.filter(round=rnd).order_by("pk").select_related("entry__event")
            .prefetch_related(with_members("entry__members")))
    pairs = []
    for row in rows:
        entry = engine_entry(row.entry)
        if not first:
            entry = dataclasses.replace(entry, group=seat_group.get(row.entry_id, ""))
        pairs.append((entry, engine_result(row)))
    return rank_round(pairs, round_rules(rnd), settings=rnd.event.championship.settings)


def _old_lines(rnd: Round) -> list[dict]:
    ranking = _old_ranking(rnd)
    rules = round_rules(rnd)
    spec = ruleset_of(rnd).event(rnd.event.code)
    rows = {row["entry__number"]: row for row in Result.objects.filter(round=rnd).values(
        "entry__number", "time_seconds", "missing", "checked", "version")}
    tables = dict(Seat.objects.filter(round=rnd, no_show=False)
                  .values_list("entry__number", "table"))
    marks = snapshot_module.qualification_marks(rnd, ranking)
    # How certain each mark is comes from the one read path (not what this test compares).
    try:
        certainty = round_qualification_certainty(rnd, round_ranking(rnd))
    except RulesError:
        certainty = {}
    codes: dict[int, list[str]] = {}
    fallback: dict[int, str] = {}
    for number, represents, nationality, country in (
            EntryMember.objects.filter(entry__results__round=rnd)
            .values_list("entry__number", "represents", "person__nationality", "entry__country")):
        codes.setdefault(number, []).append(represents or nationality)
        fallback[number] = country
    flags = {n: flag_of(spec, c, country=fallback[n])[0] for n, c in codes.items()}
    withheld: dict[int, list[tuple[str, str]]] = {}
    for member in EntryMember.objects.filter(entry__event=rnd.event).select_related("person",
                                                                                    "entry"):
        if not member.consent_publish:
            withheld.setdefault(member.entry.number, []).append(
                (member.person.first_name, member.person.last_name))
    # No archive here: no line breaks a record.
    return [
        {**snapshot_module._line(line, rows[int(line.entry.id)], tables, marks, certainty,
                                 flags.get(int(line.entry.id)) or line.entry.country,
                                 rules.total_pieces, rules.time_limit_seconds,
                                 public_name(line.entry.name,
                                             withheld.get(int(line.entry.id), []))),
         "record": None}
        for line in ranking
    ]


def _crowded_round(rnd: Round, *, seed: int, later: bool) -> None:
    """Entries of 0-3 members of mixed nationalities, residences, ages and earlier events,
    with every kind of result; in a later round, seated in groups other than their own."""
    rng = random.Random(seed)
    limit = round_rules(rnd).time_limit_seconds
    groups = list(rnd.groups) or ["A", "B"]
    code = rnd.event.code
    for number in range(1, 121):
        # Some entries are named after their first member, as registration names them.
        entry = Entry.objects.create(
            event=rnd.event, number=number,
            name=f"P {number}-0" if number % 3 == 0 else f"Entry {number}",
            country=rng.choice(["CZE", "NOR", ""]), group=rng.choice(groups),
            status=EntryStatus.CONFIRMED)
        for position in range(rng.choice([0, 1, 1, 2, 2, 3]) if number > 3 else number - 1):
            person = Person.objects.create(
                first_name="P", last_name=f"{number}-{position}",
                nationality=rng.choice(COUNTRIES[:-1]), residence=rng.choice(COUNTRIES),
                years_resident=rng.choice([None, 2, 7]),
                birth_date=rng.choice([None, dt.date(1970 + number % 40, 5, 1)]),
                earlier_events=rng.choice([[], [code], ["other"], [code, "other"]]),
                consent_publish=rng.random() < 0.5)
            EntryMember.objects.create(entry=entry, person=person, position=position,
                                       represents=rng.choice(["", "", "NO", "CZ"]),
                                       consent_publish=person.consent_publish)
        if later and rng.random() < 0.9:
            Seat.objects.create(round=rnd, entry=entry, group=rng.choice(groups),
                                table=number, no_show=rng.random() < 0.05)
        kind = rng.choice(["finished"] * 5 + ["unfinished", "unfinished", "dnf", "dsq", "dns",
                                             None])
        if kind == "finished":
            missing = rng.choice([0, 0, 0, 1, 3])
            Result.objects.create(round=rnd, entry=entry, status=kind,
                                  time_seconds=rng.randrange(600, limit), missing=missing,
                                  missing_contiguous=2 if missing == 3 else 0,
                                  checked=rng.random() < 0.8,
                                  version=rng.randrange(1, 4))
        elif kind == "unfinished":
            Result.objects.create(round=rnd, entry=entry, status=kind,
                                  pieces=rng.randrange(1, 400))
        elif kind is not None:
            Result.objects.create(round=rnd, entry=entry, status=kind)


@pytest.mark.parametrize(("ruleset_id", "event_code", "later"), [
    ("wjpc-2025", "pairs", False),               # two members each, mixed flags
    ("wjpc-2025", "individual", True),           # groups from the seats
    ("czech-championship", "individual", False),  # official ranking: residence in Czechia
    ("czech-championship", "individual", True),
    ("norway-nm-2025", "individual", False),     # official: nationality or years resident
])
def test_the_snapshot_from_plain_values_equals_one_built_from_model_instances(
        db, ruleset_id, event_code, later):
    championship = championship_create(ruleset_id=ruleset_id, name=f"Same {ruleset_id}",
                                       starts_at=timezone.now() + dt.timedelta(days=3))
    rounds = list(Round.objects.filter(event__championship=championship,
                                       event__code=event_code).order_by("position"))
    rnd = rounds[1 if later else 0]
    if ruleset_id == "norway-nm-2025":  # the organiser gives what the rulebook leaves open
        rnd.time_limit_minutes = 120
        rnd.save()
        Puzzle.objects.create(round=rnd, pieces=1000)
    _crowded_round(rnd, seed=len(ruleset_id) + later, later=later)

    new = snapshot_module.round_snapshot(rnd)

    assert round_ranking(rnd).lines == _old_ranking(rnd)
    assert new["lines"] == _old_lines(rnd)
    assert len(new["lines"]) > 90
    assert {line["official_rank"] is None for line in new["lines"]} == (
        {True} if ruleset_id == "wjpc-2025" else {True, False})
