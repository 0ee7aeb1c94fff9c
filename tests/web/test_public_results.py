"""Public live results: rounds, a round's results by group, the projector and entrant pages.

Every page is rendered on the server from the round's snapshot (the engine's ranking), so the
HTML itself carries the results: that is what a browser without JavaScript shows.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from html.parser import HTMLParser

import pytest
from django.core.cache import cache
from django.urls import reverse

from puzzlecomp.championships.engine import round_ranking
from puzzlecomp.championships.models import (
    Championship,
    Entry,
    EntryMember,
    EntryStatus,
    Person,
    Qualifier,
    Round,
    RoundState,
    Seat,
)
from puzzlecomp.championships.services.results import ResultValues, result_submit
from puzzlecomp.championships.services.rounds import round_state_set
from puzzlecomp.live.snapshot import round_snapshot_cached, snapshot_cache_clear
from puzzlecomp.rules.results import Status
from tests.support import round_of


@pytest.fixture(autouse=True)
def _fresh_snapshots():
    # Test databases reuse ids and notice numbers (and the clock fixture freezes creation
    # times): a snapshot or rendered table of another test is stale.
    snapshot_cache_clear()
    cache.clear()


class Rows(HTMLParser):
    """The results lines of a page: entry number -> (class, texts of the cells), and the entry
    numbers of each table in order (the scripts' empty <template> left out)."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.rows: dict[int, tuple[str, list[str]]] = {}
        self.tables: list[list[int]] = []
        self._row: int | None = None
        self._cell: list[str] | None = None
        self._in_template = False
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "template" or self._in_template:
            self._in_template = True
        elif tag == "tbody":
            self.tables.append([])
        elif tag == "tr" and found.get("data-entry"):
            self._row = int(found["data-entry"] or 0)
            self.rows[self._row] = (found.get("class") or "", [])
            self.tables[-1].append(self._row)
        elif tag == "td" and self._row is not None:
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "template":
            self._in_template = False
        elif tag == "td" and self._row is not None and self._cell is not None:
            self.rows[self._row][1].append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "tr":
            self._row = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


# Cells of a results line on the round page, without an official place column.
PLACE, FLAG, NAME, TABLE, TIME, PENALTY, FINAL, PIECES, PPM, NEXT = range(10)


def enter(rnd: Round, number: int, name: str, country: str, *, group: str = "A",
          table: int | None = None, residence: str = "", members: int = 1,
          status: str = EntryStatus.CONFIRMED, consent: bool = True) -> Entry:
    """An entry of the round's event, with private details that no public page may show."""
    entry = Entry.objects.create(
        event=rnd.event, number=number, name=name, group=group, status=status,
        contact_email=f"contact{number}@private.example", country="")
    for position in range(members):
        person = Person.objects.create(
            first_name=f"{name.split()[0]}{position or ''}", last_name=name.split()[-1],
            email=f"person{number}-{position}@private.example", nationality=country,
            residence=residence or country, birth_date=dt.date(1987, 3, 14 + position),
            consent_publish=consent or position == 0)
        EntryMember.objects.create(entry=entry, person=person, position=position,
                                   consent_publish=person.consent_publish)
    if table is not None:
        Seat.objects.create(round=rnd, entry=entry, group=group, table=table)
    return entry


def finish(rnd: Round, entry: Entry, seconds: int, **values) -> None:
    result_submit(round=rnd, entry=entry, action="verify",
                  values=ResultValues(status=Status.FINISHED, time_seconds=seconds, **values))


def record(rnd: Round, entry: Entry, status: Status, **values) -> None:
    result_submit(round=rnd, entry=entry, action="count", values=ResultValues(status=status,
                                                                                **values))


def published(make_championship, ruleset_id: str) -> Championship:
    championship = make_championship(ruleset_id)
    championship.published = True
    championship.save()
    return championship




def page(client, name: str, *args, **query) -> str:
    address = reverse(f"public:live:{name}", args=args)
    response = client.get(address, query)
    assert response.status_code == 200, address
    return response.content.decode()


@pytest.fixture
def first(championship) -> Round:
    """WJPC 2025 individual first round, running, with a few results in groups A and B."""
    rnd = round_of(championship, "individual", "first")
    round_state_set(round=rnd, state=RoundState.RUNNING,
                    starts_at=dt.datetime.now(dt.UTC) - dt.timedelta(minutes=10))
    ana = enter(rnd, 1, "Ana Novak", "CZ", table=1)
    ben = enter(rnd, 2, "Ben Berg", "NO", table=2)
    carla = enter(rnd, 3, "Carla Garcia", "ES", table=3)
    dan = enter(rnd, 4, "Dan Smith", "US", table=4)
    eva = enter(rnd, 5, "Eva Rossi", "IT", table=5)
    filip = enter(rnd, 6, "Filip Meyer", "DE", group="B", table=1)
    finish(rnd, ana, 3000, missing=2)
    finish(rnd, ben, 2900)
    finish(rnd, carla, 3010)
    record(rnd, dan, Status.UNFINISHED, pieces=321)
    record(rnd, eva, Status.DSQ, note="phone")
    result_submit(round=rnd, entry=filip, action="tap", values=ResultValues(
        status=Status.FINISHED, time_seconds=3100, checked=False))
    return rnd


def test_round_results_show_the_engines_ranks_and_shared_places(client, first):
    """wjpc-2025.txt: equal final times share a place (standard competition ranking)."""
    html = page(client, "round", first.event.championship.slug, first.pk)
    rows = Rows(html)
    ranking = {int(line.entry.id): line.rank for line in round_ranking(first).lines}
    assert {n: cells[PLACE] for n, (_, cells) in rows.rows.items()} == {
        n: str(rank) if rank else "" for n, rank in ranking.items()}
    # Ana's 2 missing pieces cost 2 x 5 s: 3000 + 10 ties with Carla's 3010.
    assert rows.rows[2][1][PLACE] == "1"
    assert rows.rows[1][1][PLACE] == rows.rows[3][1][PLACE] == "2"
    assert rows.rows[4][1][PLACE] == "4"
    assert rows.tables[0] == [2, 1, 3, 4, 5]


def test_a_reload_shows_a_result_recorded_since_the_last_one(client, first):
    """Without JavaScript a reader follows the round by reloading: never a stale page."""
    slug = first.event.championship.slug
    assert 7 not in Rows(page(client, "round", slug, first.pk)).rows
    finish(first, enter(first, 7, "Gina Kim", "KR", table=6), 2800)
    rows = Rows(page(client, "round", slug, first.pk))
    assert rows.tables[0] == [7, 2, 1, 3, 4, 5]
    assert Rows(page(client, "projector", slug, first.pk)).tables[0][0] == 7


def test_results_lines_carry_times_penalties_pieces_and_statuses(client, first):
    """wjpc-2025.txt: 5 seconds per missing piece; unfinished entrants ranked by pieces."""
    rows = Rows(page(client, "round", first.event.championship.slug, first.pk)).rows
    ana = rows[1][1]
    assert ana[NAME] == "Ana Novak"
    assert (ana[TABLE], ana[TIME], ana[PENALTY], ana[FINAL]) == ("1", "50:00", "+00:10", "50:10")
    assert ana[FLAG] == "🇨🇿CZE"
    # 500 pieces in 3,010 s.
    assert ana[PPM] == "9.97"
    dan = rows[4][1]
    assert (dan[TIME], dan[FINAL], dan[PIECES]) == ("", "", "321")
    assert dan[PPM] == f"{321 * 60 / (90 * 60):.2f}"
    eva = rows[5]
    assert (eva[1][PLACE], eva[1][FINAL]) == ("", "DSQ")
    html = page(client, "round", first.event.championship.slug, first.pk)
    assert 'title="Disqualified">DSQ</abbr>' in html


def test_a_phone_row_has_the_figure_that_decides_the_place_and_folds_the_rest(client, first):
    """On a phone each line shows the final time, the pieces counted or the status alone; the
    other cells open below it (a <details>, no script needed)."""
    rows = Rows(page(client, "round", first.event.championship.slug, first.pk)).rows
    decides, more = NEXT + 1, NEXT + 2
    assert [rows[n][1][decides] for n in (1, 4, 5)] == ["50:10", "Pieces 321", "DSQ"]
    assert rows[1][1][more] == ("Details of Ana NovakTable1Time50:00Penalty+00:10"
                                "Pieces per minute9.97Next roundS1 by place ✓ qualifiedGroupA")
    assert rows[4][1][more] == (f"Details of Dan SmithTable4Pieces per minute"
                                f"{321 * 60 / (90 * 60):.2f}Next roundS1 by place ✓ qualified"
                                "GroupA")
    assert rows[5][1][more] == "Details of Eva RossiTable5ResultDisqualifiedGroupA"
    assert rows[6][1][decides] == "51:40"


def test_a_finish_not_yet_checked_is_marked_as_awaiting_check(client, first):
    rows = Rows(page(client, "round", first.event.championship.slug, first.pk)).rows
    assert rows[6][1][NAME] == "Filip Meyer awaiting check"
    assert "awaiting check" not in rows[2][1][NAME]


def test_each_group_has_its_own_table_and_one_group_can_be_asked_for(client, first):
    slug = first.event.championship.slug
    rows = Rows(page(client, "round", slug, first.pk))
    assert rows.tables[0] == [2, 1, 3, 4, 5]
    assert rows.tables[1] == [6]
    # Every group of the round gets a table, empty ones too (C to F).
    assert len(rows.tables) == 6
    only_b = Rows(page(client, "round", slug, first.pk, group="B"))
    assert only_b.tables == [[6]]
    assert only_b.rows[6][1][PLACE] == "1"
    url = reverse("public:live:round", args=[slug, first.pk])
    assert client.get(url, {"group": "Z"}).status_code == 404


def test_an_entry_withdrawn_after_the_round_began_stays_struck_through(client, first):
    """Issue 24 review: results are history; a withdrawal after the round began keeps the
    line, its place and time, marked withdrawn (the snapshot says so for the live script)."""
    Entry.objects.filter(event=first.event, number=2).update(status=EntryStatus.CANCELLED)
    snapshot_cache_clear()
    cache.clear()
    html = page(client, "round", first.event.championship.slug, first.pk)
    assert re.search(r'<tr data-entry="2"[^>]*class="[^"]*withdrawn', html)
    assert '<span class="badge withdrawn">withdrawn</span>' in html
    assert not re.search(r'<tr data-entry="1"[^>]*withdrawn', html)
    lines = {line["entry"]: line for line in json.loads(round_snapshot_cached(first).body)[
        "lines"]}
    assert lines[2]["withdrawn"] is True
    assert "withdrawn" not in lines[1]


def test_the_round_clock_and_state_are_on_the_page(client, first, clock):
    """The clock counts down from the round's limit (wjpc-2025 first round: 90 minutes)."""
    first.starts_at = dt.datetime(2027, 7, 1, 11, 30, tzinfo=dt.UTC)
    first.save(update_fields=["starts_at"])
    clock("2027-07-01T12:00:00")
    html = page(client, "round", first.event.championship.slug, first.pk)
    assert re.search(r"data-state>Running<", html)
    assert re.search(r"data-clock>1:00:00<", html)


def test_a_round_past_its_limit_shows_counting_before_the_move_is_written(client, first, clock):
    """A restarted server, before the live pump wrote the move: the page reads the clock."""
    first.starts_at = dt.datetime(2027, 7, 1, 9, 0, tzinfo=dt.UTC)
    first.save(update_fields=["starts_at"])
    clock("2027-07-01T12:00:00")
    html = page(client, "round", first.event.championship.slug, first.pk)
    assert re.search(r"data-state>Counting<", html)
    # Counting shows when assembly ended, never a countdown at 00:00 (round_life.ClockShows).
    assert 'data-clock-box data-shows="counting"' in html
    assert re.search(r"data-clock-label>Ended at<", html)
    assert re.search(r"data-clock>10:30<", html)
    first.refresh_from_db()
    assert first.state == RoundState.RUNNING


def test_the_page_says_it_needs_a_reload_without_javascript(client, first):
    html = page(client, "round", first.event.championship.slug, first.pk)
    assert re.search(r"<noscript>.*reload it for the latest results.*</noscript>", html, re.S)
    assert len(Rows(html).rows) == 6


def test_the_results_index_lists_every_event_and_round_with_its_state(client, first):
    slug = first.event.championship.slug
    html = page(client, "index", slug)
    for rnd in Round.objects.filter(event__championship__slug=slug):
        assert reverse("public:live:round", args=[slug, rnd.pk]) in html
    assert reverse("public:live:projector", args=[slug, first.pk]) in html
    assert re.search(r"First round</a>\s*<span[^>]*>.*Running</span>", html)
    assert re.search(r"Second round</a>\s*<span[^>]*>Planned</span>", html)
    championship_page = client.get(reverse("public:championship", args=[slug])).content.decode()
    assert reverse("public:live:index", args=[slug]) in championship_page
    assert reverse("public:live:round", args=[slug, first.pk]) in championship_page


def test_the_projector_has_the_results_and_reloads_itself_without_javascript(client, first):
    html = page(client, "projector", first.event.championship.slug, first.pk)
    rows = Rows(html)
    assert rows.tables[0] == [2, 1, 3, 4, 5]
    assert '<noscript><meta http-equiv="refresh" content="15"></noscript>' in html
    assert "data-clock>" in html
    assert "puzzlecomp/projector.js" in html


@pytest.fixture
def norway(make_championship) -> Round:
    championship = published(make_championship, "norway-nm-2025")
    rnd = round_of(championship, "individual", "final")
    # The Norwegian rulebook leaves the limit and the puzzle to the organiser.
    rnd.time_limit_minutes = 120
    rnd.save()
    rnd.puzzles.update(pieces=1000)
    return rnd


def test_a_round_not_set_up_yet_says_so_instead_of_failing(client, make_championship):
    """norway-nm-2025.txt states neither the time limit nor the puzzle: the organiser does."""
    rnd = round_of(published(make_championship, "norway-nm-2025"), "individual", "final")
    for name in ("round", "projector"):
        html = page(client, name, rnd.event.championship.slug, rnd.pk)
        assert "not finished setting it up" in html


def test_the_projector_can_show_one_group(client, first):
    rows = Rows(page(client, "projector", first.event.championship.slug, first.pk, group="B"))
    assert rows.tables == [[6]]


def test_the_official_place_stands_beside_the_full_ranking(client, norway):
    """norway-nm-2025.txt: only Norwegian citizens (or 5 years' residents) take official places."""
    finish(norway, enter(norway, 1, "Sven Olsen", "NO", group=""), 2000)
    finish(norway, enter(norway, 2, "Hugo Weber", "DE", group=""), 1900)
    finish(norway, enter(norway, 3, "Nils Hansen", "NO", group=""), 2100)
    html = page(client, "round", norway.event.championship.slug, norway.pk)
    assert "Official place" in html
    rows = Rows(html).rows
    # Place, official place, flag, name...
    assert [rows[n][1][:2] for n in (2, 1, 3)] == [["1", ""], ["2", "1"], ["3", "2"]]


def test_an_entrant_page_has_the_official_place_where_the_ruleset_has_one(client, norway):
    """norway-nm-2025.txt: a foreigner ranks in the full ranking only."""
    finish(norway, enter(norway, 1, "Sven Olsen", "NO", group=""), 2000)
    finish(norway, enter(norway, 2, "Hugo Weber", "DE", group=""), 1900)
    slug = norway.event.championship.slug
    assert re.search(r'class="num rank">2</td>\s*<td class="num official">1</td>',
                     page(client, "entrant", slug, "individual", 1))
    assert re.search(r'class="num rank">1</td>\s*<td class="num official"></td>',
                     page(client, "entrant", slug, "individual", 2))


def test_rulesets_without_an_official_ranking_have_no_such_column(client, first):
    assert "Official place" not in page(client, "round", first.event.championship.slug,
                                        first.pk)


def test_czech_quotas_mark_national_and_foreign_qualifiers(client, make_championship):
    """czech-championship.txt: per group the best Czech residents and, apart from them, the
    best foreigners go to the final; foreigners never take a Czech place."""
    rnd = round_of(published(make_championship, "czech-championship"), "individual",
                   "qualification")
    finish(rnd, enter(rnd, 1, "Petr Novak", "CZ"), 2000)
    finish(rnd, enter(rnd, 2, "Hugo Weber", "DE"), 1900)
    rows = Rows(page(client, "round", rnd.event.championship.slug, rnd.pk)).rows
    # Place, official place, flag, name, ..., next round.
    assert rows[1][1][:2] == ["2", "1"]
    # Nobody else is seated or awaits a check: both places are certain already.
    assert rows[1][1][NEXT + 1] == "Final national quota ✓ qualified"
    assert rows[2][1][NEXT + 1] == "Final foreign quota ✓ qualified"
    assert rows[1][0] == rows[2][0] == "qualified"


def test_wjpc_marks_places_ties_at_the_cut_off_and_the_country_play_off(client, championship):
    """wjpc-2025.txt: 85 per group go on, all tied for the last place go too, and a country
    without a qualifier sends its best entrant (play-off per semifinal)."""
    rnd = round_of(championship, "individual", "first")
    for number in range(1, 88):
        # 84th to 86th share a time: the tied block reaches past place 85.
        seconds = 2000 + (number if number < 84 else 84 if number < 87 else 90) * 10
        finish(rnd, enter(rnd, number, f"Rosa Garcia{number}", "ES"), seconds)
    finish(rnd, enter(rnd, 88, "Yuki Tanaka", "JP"), 5000)
    finish(rnd, enter(rnd, 89, "Will Smith", "ES"), 5001)
    rows = Rows(page(client, "round", championship.slug, rnd.pk)).rows
    # Places nothing can change any more are certain; a play-off place stays expected (another
    # country's better result elsewhere could take it: docs/qualification.md).
    assert rows[1][1][NEXT] == "S1 by place ✓ qualified"
    assert [rows[n][1][PLACE] for n in (84, 85, 86)] == ["84", "84", "84"]
    assert {rows[n][1][NEXT] for n in (84, 85, 86)} == {"S1 tied at the cut-off ✓ qualified"}
    assert rows[87][1][NEXT] == ""
    assert rows[88][1][NEXT] == "S1 country play-off (expected)"
    assert rows[89][0] == ""
    assert rows[89][1][NEXT] == ""


def test_confirmed_qualifiers_are_no_longer_marked_expected(client, first):
    Qualifier.objects.create(from_round=first, entry=Entry.objects.get(event=first.event,
                                                                        number=2),
                             rank=1, from_group="A", to_group="S1", reason="playoff")
    rows = Rows(page(client, "round", first.event.championship.slug, first.pk)).rows
    assert rows[2][1][NEXT] == "S1 country play-off"
    # Once confirmed, only the confirmed qualifiers carry a mark.
    assert rows[1][1][NEXT] == ""


def test_results_are_translated(client, first):
    client.cookies["django_language"] = "cs"
    html = page(client, "round", first.event.championship.slug, first.pk)
    assert '<html lang="cs">' in html


def test_entrant_pages_show_members_group_and_every_round(client, first):
    slug = first.event.championship.slug
    results = page(client, "round", slug, first.pk)
    address = reverse("public:live:entrant", args=[slug, "individual", 1])
    assert f'href="{address}"' in results
    html = page(client, "entrant", slug, "individual", 1)
    # The published name links to the person's page across championships.
    assert re.search(r"<a href=\"/people/\d+/\">Ana Novak</a>\s*<span class=\"ioc\">CZE</span>",
                     html)
    assert "Group A" in html
    rows = re.findall(r"<tr data-round=.*?</tr>", html, re.S)
    assert len(rows) == 1
    cells = [" ".join(re.sub(r"<[^>]+>", " ", c).split())
             for c in re.findall(r"<td[^>]*>(.*?)</td>", rows[0], re.S)]
    # Round, group, table, place, time, penalty, final time, pieces, next round (no official
    # place at WJPC); then what a phone shows: the deciding figure, and the rest folded.
    assert cells == ["First round Running", "A", "1", "2", "50:00", "+00:10", "50:10", "",
                     "S1 by place ✓ qualified", "50:10",
                     "Details of First round Group A Table 1 Time 50:00 Penalty +00:10 Pieces "
                     "per minute 9.97 Next round S1 by place ✓ qualified"]


def test_a_pairs_entrant_lists_the_members_who_agreed_to_be_published(client, championship):
    rnd = round_of(championship, "pairs", "first")
    pair = enter(rnd, 7, "Czech Mates", "CZ", members=2, consent=False, table=4)
    # Tables of a round not yet started are public once the seating is published.
    rnd.seating_published = True
    rnd.save()
    html = page(client, "entrant", championship.slug, "pairs", 7)
    first, second = (m.person for m in pair.members.order_by("position"))
    assert second.consent_publish is False
    assert f"{first.first_name} {first.last_name}" in html
    assert second.first_name not in html
    assert "Name not published" in html
    assert re.search(r"<td class=\"num seat\">4</td>", html)


def test_unconfirmed_registrations_have_no_public_page(client, first):
    enter(first, 50, "Xenia Kim", "KR", status=EntryStatus.UNCONFIRMED)
    url = reverse("public:live:entrant", args=[first.event.championship.slug, "individual", 50])
    assert client.get(url).status_code == 404


def test_unpublished_championships_have_no_public_results(client, first):
    championship = first.event.championship
    championship.published = False
    championship.save()
    slug = championship.slug
    for address in (reverse("public:live:index", args=[slug]),
                    reverse("public:live:round", args=[slug, first.pk]),
                    reverse("public:live:projector", args=[slug, first.pk]),
                    reverse("public:live:entrant", args=[slug, "individual", 1])):
        assert client.get(address).status_code == 404, address


def test_a_round_of_another_championship_is_not_found(client, first, make_championship):
    other = published(make_championship, "czech-championship")
    url = reverse("public:live:round", args=[other.slug, first.pk])
    assert client.get(url).status_code == 404


def test_no_public_page_shows_birth_dates_emails_or_private_links(client, first):
    slug = first.event.championship.slug
    pages = [
        page(client, "index", slug),
        page(client, "round", slug, first.pk),
        page(client, "round", slug, first.pk, group="B"),
        page(client, "projector", slug, first.pk),
        client.get(reverse("public:championship", args=[slug])).content.decode(),
        *(page(client, "entrant", slug, "individual", n) for n in range(1, 7)),
    ]
    private = ["private.example", "1987", "14 March", "March 14"]
    private += list(Entry.objects.filter(event=first.event).values_list("token", flat=True))
    for html in pages:
        for text in private:
            assert text not in html
