"""Public pages across championships (docs/archive.md): a person's results, a country's, the
ranking lists, the records, and the badge on live results when a record falls."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.cache import cache
from django.urls import reverse

from puzzlecomp.championships.models import EntryMember, Person, RoundState
from puzzlecomp.championships.services.archive import archive_import, invented_name
from puzzlecomp.championships.services.results import ResultValues, result_submit
from puzzlecomp.championships.services.rounds import round_state_set
from puzzlecomp.live.snapshot import round_snapshot, snapshot_cache_clear
from puzzlecomp.rules.results import Status
from tests.support import round_of
from tests.web.test_public_results import enter, finish

HEADER = ("year,division,round,rank,entrant,country,completed,time_seconds,pieces,puzzle_pieces,"
          "time_limit_seconds,people\n")
# 2023 group A's times 3000, 4000 and 250 of 500 pieces in 90 minutes (10,800 s at that pace):
# median 4000. 2024 group B: 3500 and 100 pieces (27,000 s): median 15,250.
HISTORY = HEADER + """\
2023,solo,A,1,E1,Spain,True,3000.0,,500,5400,Pfast
2023,solo,A,2,E2,Czech Republic,True,4000.0,,500,5400,Pslow
2023,solo,A,3,E3,Czech Republic,False,,250.0,500,5400,Phidden
2023,solo,final,1,E1,Spain,True,3300.0,,500,4500,Pfast
2023,solo,final,2,E2,Czech Republic,True,3600.0,,500,4500,Pslow
2023,duo,A,1,D1,Mixed,False,,400.0,1000,4500,Pslow;Pfast
2024,solo,B,1,F1,Czech Republic,True,3500.0,,500,5400,Pslow
2024,solo,B,2,F2,The Netherlands,False,,100.0,500,5400,Plast
2024,solo,final,1,F1,Czech Republic,True,2900.0,,500,4500,Pslow
"""


@pytest.fixture
def archive(db) -> dict[str, Person]:
    from puzzlecomp.formats.history_csv import read_history

    archive_import(rows=read_history(HISTORY, source="history.csv"), source="history.csv",
                   ruleset_id="wjpc-2025", slug_prefix="wjpc", title="WJPC")
    EntryMember.objects.filter(person__archive_id="Phidden").update(consent_publish=False)
    snapshot_cache_clear()
    cache.clear()
    return {p.archive_id: p for p in Person.objects.exclude(archive_id=None)}


def name_of(archive_id: str) -> str:
    return " ".join(invented_name(archive_id))


def get(client, name: str, *args, language: str = "en", **query) -> str:
    client.cookies["django_language"] = language
    response = client.get(reverse(f"public:people:{name}", args=args), query)
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def test_a_person_page_lists_every_result_across_editions_with_bests_and_a_chart(
        client, archive):
    slow = archive["Pslow"]
    html = get(client, "person", slow.pk)
    assert name_of("Pslow") in html
    for text in ("WJPC 2023", "WJPC 2024", "First round", "Final", "Pairs", "Individual"):
        assert text in html
    # The 2024 final's 2,900 s is the personal best of 500 pieces; the pairs' 400 pieces show.
    assert "48:20 <abbr class=\"badge pb\"" in html
    assert "400 pieces" in html
    # The group B result: 1000 x 15,250 / 3,500 points.
    assert "4357.1" in html
    # The chart is an SVG with a title and a description in words (no script needed).
    assert '<svg xmlns="http://www.w3.org/2000/svg"' in html
    assert 'role="img"' in html
    assert "<desc id=\"career-desc\">Individual: 2023 1000.0 points, 2024 4357.1 points." in html
    # The pair's partner consented: the pair's name is public.
    assert invented_name("Pfast")[1] in html
    assert reverse("public:people:country", args=["CZE"]) in html


def test_a_person_page_reads_in_czech(client, archive):
    html = get(client, "person", archive["Pslow"].pk, language="cs")
    assert "Osobní rekordy" in html
    assert "Body v jednotlivých ročnících" in html
    # The ruleset's event and round names, as on every page (docs/rulesets.md).
    assert "Jednotlivci" in html
    assert "Finále" in html
    assert ">Individual<" not in html


def test_a_person_who_did_not_consent_has_no_page_and_no_name_anywhere(client, archive):
    hidden = archive["Phidden"]
    assert client.get(reverse("public:people:person", args=[hidden.pk])).status_code == 404
    assert client.get(reverse("public:people:person", args=[999_999])).status_code == 404
    hidden_name = name_of("Phidden")
    pages = [get(client, "country", "CZE"), get(client, "records"),
             get(client, "ranking", "wjpc", "individual"),
             get(client, "ranking", "wjpc", "individual", country="CZE")]
    for html in pages:
        assert hidden_name not in html
    # The ranking keeps their place, unnamed.
    assert "Name not published" in pages[2]


def test_a_country_page_lists_its_people_podiums_and_national_records(client, archive):
    html = get(client, "country", "CZE")
    assert "Czechia" in html
    assert name_of("Pslow") in html
    assert name_of("Pfast") not in html
    # 2024: gold in the final; 2023: silver.
    assert "WJPC 2024" in html
    assert "WJPC 2023" in html
    assert '<span class="medal medal-1">1.</span> Individual' in html
    assert '<span class="medal medal-2">2.</span> Individual' in html
    assert "48:20" in html
    assert "Stupně vítězů" in get(client, "country", "CZE", language="cs")


def test_unknown_or_empty_countries_have_no_page(client, archive):
    for code in ("XXX", "cze", "JPN"):
        assert client.get(reverse("public:people:country", args=[code])).status_code == 404


def test_a_ranking_list_orders_people_by_their_best_points_and_says_how(client, archive):
    html = get(client, "ranking", "wjpc", "individual")
    slow, fast = html.index(name_of("Pslow")), html.index(name_of("Pfast"))
    assert slow < fast
    assert "4357.1" in html
    assert "1333.3" in html
    assert "1000 \u00d7 the median time of that field" in html
    national = get(client, "ranking", "wjpc", "individual", country="ESP")
    assert name_of("Pfast") in national
    assert name_of("Pslow") not in national
    assert "Žebříčky" in get(client, "rankings", language="cs")
    assert "Body" in get(client, "ranking", "wjpc", "individual", language="cs")


def test_a_ranking_list_pages_keep_the_country_and_category_chosen(client, archive,
                                                                  monkeypatch):
    import functools

    from django.template.loader import render_to_string

    from puzzlecomp.championships.selectors import rankings

    monkeypatch.setattr("puzzlecomp.public.people.views.ranking_list_get",
                        functools.partial(rankings.ranking_list_get, per_page=1))
    first = get(client, "ranking", "wjpc", "individual")
    assert 'href="?page=2"' in first
    assert '<span aria-current="page">1</span>' in first
    second = get(client, "ranking", "wjpc", "individual", page="2")
    # The list's first line is on page 1 alone (the list's order is the other test's).
    assert name_of("Pslow") in first
    assert name_of("Pslow") not in second
    assert 'href="?page=1"' in second
    pager = render_to_string("public/_pager.html", {
        "pages": range(1, 3), "page": 1, "page_query": "&country=ESP&category=debutant"})
    assert 'href="?page=2&amp;country=ESP&amp;category=debutant"' in pager


def test_ranking_lists_that_do_not_exist_are_not_found(client, archive):
    for args, query in ((("wjpc", "teams"), {}), (("nope", "individual"), {}),
                        (("wjpc", "individual"), {"category": "nope"}),
                        (("wjpc", "individual"), {"country": "XXX"})):
        assert client.get(reverse("public:people:ranking", args=args), query).status_code == 404


def test_the_records_page_names_the_fastest_final_time_of_each_event_and_size(client, archive):
    html = get(client, "records")
    assert "48:20" in html
    assert name_of("Pslow") in html
    assert "500 pieces" in html
    assert "Rekordy" in get(client, "records", language="cs")


@pytest.fixture
def live_round(championship, archive):
    championship.published = True
    championship.save()
    rnd = round_of(championship, "individual", "first")
    round_state_set(round=rnd, state=RoundState.RUNNING,
                    starts_at=dt.datetime.now(dt.UTC) - dt.timedelta(minutes=50))
    return rnd


def test_a_checked_time_faster_than_the_record_carries_a_badge_in_the_snapshot_and_row(
        client, live_round):
    """World record 2,900 s (CZE); Spain's national record 3,000 s."""
    ana = enter(live_round, 1, "Ana Novak", "CZ", table=1)
    carla = enter(live_round, 2, "Carla Garcia", "ES", table=2)
    ben = enter(live_round, 3, "Ben Berg", "ES", table=3)
    dan = enter(live_round, 4, "Dan Smith", "US", table=4)
    finish(live_round, ana, 2800)
    finish(live_round, carla, 2950)
    finish(live_round, ben, 3100)
    result_submit(round=live_round, entry=dan, action="tap", values=ResultValues(
        status=Status.FINISHED, time_seconds=2000, checked=False))
    lines = {line["entry"]: line["record"] for line in round_snapshot(live_round)["lines"]}
    assert lines == {1: "WR", 2: "NR", 3: None, 4: None}
    snapshot_cache_clear()
    cache.clear()
    address = reverse("public:live:round", args=[live_round.event.championship.slug,
                                                  live_round.pk])
    html = client.get(address).content.decode()
    assert '<abbr class="badge record" title="World record">WR</abbr>' in html
    assert '<abbr class="badge record" title="National record">NR</abbr>' in html
    client.cookies["django_language"] = "cs"
    snapshot_cache_clear()
    cache.clear()
    assert 'title="Světový rekord">WR</abbr>' in client.get(address).content.decode()


def test_the_entrant_page_links_a_published_name_to_the_person_page(client, live_round):
    ana = enter(live_round, 1, "Ana Novak", "CZ", table=1)
    address = reverse("public:live:entrant", args=[live_round.event.championship.slug,
                                                    "individual", 1])
    person = ana.members.get().person
    assert reverse("public:people:person", args=[person.pk]) in client.get(address).content.decode()
    assert client.get(reverse("public:people:person", args=[person.pk])).status_code == 200
