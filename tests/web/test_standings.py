"""Standings and awards on the web: the organisers' pages, the ceremony PDFs, publishing, the
public page and the API, all read through selectors.standings from the engine."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client

from puzzlecomp.championships.models import (
    AuditEntry,
    Championship,
    EntryMember,
    Notice,
    Role,
    Round,
    RoundState,
)
from puzzlecomp.championships.selectors.rounds import event_rounds_to_come
from puzzlecomp.championships.selectors.standings import event_standings_get
from puzzlecomp.championships.services.results import result_record
from puzzlecomp.championships.services.rounds import round_state_set
from puzzlecomp.championships.services.standings import event_standings_publish
from puzzlecomp.rules.results import Status
from tests.standings_support import played_championship
from tests.web.test_groups import add_entries

# The standings print an en dash where an entrant has no place (disqualified, absent).
NO_PLACE = "\N{EN DASH}"


@pytest.fixture
def played(db) -> Championship:
    return played_championship()


@pytest.fixture
def organiser(played, client_as):
    return client_as(played, Role.ORGANISER)


def control(championship: Championship, path: str = "") -> str:
    return f"/control/{championship.slug}/standings/individual/{path}"


def page_of(response) -> str:
    return html.unescape(response.content.decode())


def table_rows(page: str, table_id: str = "standings") -> list[list[str]]:
    """The cells of a table's body rows, tags stripped."""
    body = page.split(f'id="{table_id}"', 1)[1].split("</tbody>", 1)[0]
    return [[re.sub(r"<[^>]+>", "", cell).strip()
             for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
            for row in re.findall(r"<tr(?: [^>]*)?>(.*?)</tr>", body.split("<tbody>", 1)[1],
                                  re.S)]


def test_the_organisers_standings_list_every_entrant_by_the_engines_places(organiser, played):
    standings = event_standings_get(event=played.events.get(code="individual"))
    assert standings.rounds == ("first", "second", "final")
    rows = table_rows(page_of(organiser.get(control(played))))
    expected = standings.rows("overall", public=False)
    assert len(rows) == len(expected) == 60
    assert [(r[0], r[1], r[2]) for r in rows] == [
        (str(e.place) if e.place else NO_PLACE, str(e.entry), e.name) for e in expected]
    # The final's entrants come first, the disqualified and absent of the first round last.
    assert rows[0][4] == "Final"
    assert [r[-1] for r in rows[-2:]] == ["DSQ", "DNS"]


def test_a_subcategory_is_placed_among_itself_with_the_overall_place_beside(organiser, played):
    rows = table_rows(page_of(organiser.get(control(played) + "?category=senior-b")))
    assert rows
    placed = [r for r in rows if r[0] != NO_PLACE]
    assert [int(r[0]) for r in placed] == sorted(int(r[0]) for r in placed)
    assert int(placed[0][0]) == 1
    assert int(placed[0][1]) >= 1
    assert organiser.get(control(played) + "?category=nobody").status_code == 404


def test_the_awards_page_names_who_takes_each_prize_category_by_category(organiser, played):
    page = page_of(organiser.get(control(played, "awards/")))
    sections = re.findall(r'id="awards-([\w-]+)"', page)
    assert sections == ["overall", "debutant", "junior-18", "senior-a", "senior-b"]
    assert "Trophy · 2,000 EUR" in page
    first = event_standings_get(event=played.events.get(code="individual")).rows(
        "overall", public=False)[0]
    assert f"certificates/overall/{first.entry}.pdf" in page


def test_awards_skip_an_entrant_who_may_not_take_a_prize(make_championship, client_as):
    """czech-championship.txt, awards: the prizes go to the official ranking only; a foreign
    winner keeps first place in the standings, and the best Czech takes the first prize."""
    championship = make_championship("czech-championship")
    rnd = Round.objects.get(event__championship=championship, event__code="individual",
                            code="final")
    slovak, czech = add_entries(rnd.event, {"SK": 1, "CZ": 1})
    for entry, time in ((slovak, 1800), (czech, 1900)):
        result_record(round=rnd, entry=entry, status=Status.FINISHED, time_seconds=time)
    round_state_set(round=rnd, state=RoundState.FINAL)
    client = client_as(championship, Role.ORGANISER)
    standings = table_rows(page_of(client.get(
        f"/control/{championship.slug}/standings/individual/")))
    # Place, official place, number: the foreigner outside the official ranking.
    assert [(r[0], r[1], r[2]) for r in standings] == [("1", NO_PLACE, str(slovak.number)),
                                                       ("2", "1", str(czech.number))]
    awards = page_of(client.get(f"/control/{championship.slug}/standings/individual/awards/"))
    # Prize place with the overall place beside it, number.
    assert re.findall(r'<td class="num">(\d+)<br><span class="muted overall">overall (\d+)'
                      r'</span></td><td class="num">(\d+)</td>', awards) == [
        ("1", "2", str(czech.number))]


def test_publishing_is_audited_announced_and_can_be_withdrawn(organiser, played):
    event = played.events.get(code="individual")
    event.standings_published_at = None
    event.save(update_fields=["standings_published_at"])
    notices = Notice.objects.filter(championship=played, kind="standings").count()
    to_come = [r.name for r in event_rounds_to_come(event.pk)]
    response = organiser.post(control(played, "publish/"),
                              {"published": "yes", "knowingly": len(to_come)}, follow=True)
    assert "The standings of Individual are public." in page_of(response)
    event.refresh_from_db()
    assert event.standings_published_at is not None
    assert Notice.objects.filter(championship=played, kind="standings").count() == notices + 1
    entry = AuditEntry.objects.filter(action="puzzlecomp.event.standings_published").latest("pk")
    assert entry.data == {"event": "individual", "published": True,
                          **({"rounds_not_final": to_come} if to_come else {})}
    assert entry.user is not None
    organiser.post(control(played, "publish/"), {"published": "no"})
    event.refresh_from_db()
    assert event.standings_published_at is None
    # Publishing what is already public changes nothing and announces nothing.
    event_standings_publish(event=event, published=False)
    assert Notice.objects.filter(championship=played, kind="standings").count() == notices + 2


def test_the_ceremony_list_and_certificates_are_pdfs_of_the_awards(organiser, played):
    response = organiser.get(control(played, "ceremony.pdf"))
    assert response["Content-Type"] == "application/pdf"
    assert 'filename="demo-wjpc-2025-individual-ceremony.pdf"' in response["Content-Disposition"]
    content = response.content
    assert content.startswith(b"%PDF")
    for category in (b"Overall", b"Debutant", b"Junior 18", b"Senior A", b"Senior B"):
        assert b"(" + category + b")" in content
    awards = event_standings_get(event=played.events.get(code="individual")).award_rows(
        public=False)
    every = organiser.get(control(played, "certificates.pdf")).content
    assert every.count(b"/Type /Page\n") == len(awards)
    winner = awards[0]
    one = organiser.get(control(played, f"certificates/overall/{winner.entry}.pdf"))
    assert one.content.count(b"/Type /Page\n") == 1
    assert organiser.get(control(played, "certificates/overall/9999.pdf")).status_code == 404


def test_the_public_page_and_the_api_give_the_same_places_as_the_organisers(played):
    """The demo publishes its standings; names of members who did not consent are withheld."""
    withheld = played.events.get(code="individual").entries.get(number=5)
    EntryMember.objects.filter(entry=withheld).update(consent_publish=False)
    client = Client()
    page = page_of(client.get(f"/c/{played.slug}/standings/"))
    rows = table_rows(page)
    api = client.get(f"/api/v1/championships/{played.slug}/events/individual/standings").json()
    expected = event_standings_get(event=played.events.get(code="individual")).rows(
        "overall", public=True)
    assert [(r[0], r[1]) for r in rows] == [
        (str(e.place) if e.place else NO_PLACE, str(e.entry)) for e in expected]
    assert [(line["entry"], line["place"], line["category"]) for line in api["lines"]] == [
        (e.entry, e.place, "overall") for e in expected]
    shown = {line["entry"]: line["name"] for line in api["lines"]}
    assert shown[5] == ""
    assert next(r[2] for r in rows if r[1] == "5") == "Name not published"
    assert next(r[2] for r in rows if r[1] == "6") == str(
        played.events.get(code="individual").entries.get(number=6))
    awards = client.get(f"/api/v1/championships/{played.slug}/events/individual/awards").json()
    assert {line["category"] for line in awards["lines"]} == {
        "overall", "debutant", "junior-18", "senior-a", "senior-b"}
    assert awards["lines"][0]["prize"] == "Trophy · 2,000 EUR"
    assert (awards["lines"][0]["money"], awards["lines"][0]["currency"]) == (2000, "EUR")
    junior = client.get(f"/api/v1/championships/{played.slug}/events/individual/awards"
                        "?category=junior-18").json()
    places = [line["place"] for line in junior["lines"]]
    assert places == list(range(1, len(places) + 1))
    assert 1 <= len(places) <= 3
    assert client.get(f"/api/v1/championships/{played.slug}/events/individual/standings"
                      "?category=nobody").status_code == 404


def test_the_public_page_shows_a_category_with_its_prizes(played):
    page = page_of(Client().get(f"/c/{played.slug}/standings/individual/?category=debutant"))
    assert 'id="awards-debutant"' in page
    assert 'id="awards-overall"' not in page
    assert table_rows(page)[0][0] == "1"


def test_the_organisers_navigation_and_the_public_page_link_the_standings(organiser, played):
    dashboard = organiser.get(f"/control/{played.slug}/").content.decode()
    assert f'href="/control/{played.slug}/standings/"' in dashboard
    assert organiser.get(f"/control/{played.slug}/standings/").status_code == 302
    public = Client().get(f"/c/{played.slug}/").content.decode()
    assert f'href="/c/{played.slug}/standings/"' in public


def test_the_public_standings_come_a_hundred_places_a_page(played, monkeypatch):
    """Issue 24: the WJPC's 1,200 standings lines weighed 356 KB on a phone. Paged (25 a page
    here), every place is on exactly one page and the pages link each other."""
    monkeypatch.setattr("puzzlecomp.public.standings.views.ROWS_PER_PAGE", 25)
    client = Client()
    expected = [str(e.entry) for e in event_standings_get(
        event=played.events.get(code="individual")).rows("overall", public=True)]
    shown: list[str] = []
    for page in range(1, -(-len(expected) // 25) + 1):
        html_page = page_of(client.get(f"/c/{played.slug}/standings/individual/?page={page}"))
        shown += [row[1] for row in table_rows(html_page)]
        assert '<span aria-current="page">' + str(page) + "</span>" in html_page
    assert shown == expected
    first = page_of(client.get(f"/c/{played.slug}/standings/individual/?page=nonsense"))
    assert [row[1] for row in table_rows(first)] == expected[:25]
    assert 'href="?page=2"' in first
    last = page_of(client.get(f"/c/{played.slug}/standings/individual/?page=999"))
    assert [row[1] for row in table_rows(last)] == expected[-(len(expected) % 25 or 25):]
