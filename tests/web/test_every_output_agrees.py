"""Every output of a round gives the same places, groups and final times: a WJPC championship
played through two rounds (penalties, a disqualification, a time credit, a count at the limit),
read back from the control pages, the downloads (CSV, XLSX and PDF, from Rounds and from Import
and downloads), the public results page and projector, the API, the live snapshot, and the
command line on the exported championship file.

The second round sits in S1-S3, which merge the first round's groups (wjpc-2025.txt, Second
Round: A and B go to S1): every output ranks it within S1, never by the first round's groups.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable
from pathlib import Path

import pypdf
import pytest
from django.urls import reverse
from openpyxl import load_workbook

from puzzlecomp.championships.engine import round_ranking
from puzzlecomp.championships.models import Entry, Role, Round, RoundState
from puzzlecomp.championships.selectors.live import time_credit_of
from puzzlecomp.championships.services.disputes import time_credit_grant
from puzzlecomp.championships.services.groups import groups_assign
from puzzlecomp.championships.services.interchange import championship_export
from puzzlecomp.championships.services.qualifiers import next_round_create, qualifiers_confirm
from puzzlecomp.championships.services.results import ResultValues, result_submit
from puzzlecomp.championships.services.rounds import round_move
from puzzlecomp.championships.services.seating import seating_assign
from puzzlecomp.cli.main import main
from puzzlecomp.formats.ranking_output import ranking_rows
from puzzlecomp.live.snapshot import round_snapshot_cached, snapshot_cache_clear
from puzzlecomp.rules.results import Status
from puzzlecomp.rules.times import format_time
from tests.web.test_groups import add_entries, first_round
from tests.web.test_public_results import Rows

# entry number -> (place, group, final time); blank place and time where there is none.
Places = dict[int, tuple[str, str, str]]


def _finish(rnd: Round, entry: Entry, seconds: int, **fields: object) -> None:
    values = ResultValues(status=Status.FINISHED, time_seconds=seconds,
                          time_credit=time_credit_of(rnd, entry), **fields)  # type: ignore[arg-type]
    result_submit(round=rnd, entry=entry, values=values, action="tap")


def _play(rnd: Round, entries: list[Entry], *, base: int, penalty: Entry, credit: Entry,
          dsq: Entry, counted: Entry) -> None:
    """Every entry finishes, a minute apart from `base`, except one disqualified and one
    counted at the limit; one finishes with missing pieces, one had a time credit."""
    time_credit_grant(round=rnd, entry=credit, seconds=120, reason="Wrong puzzle handed out")
    for i, entry in enumerate(entries):
        if entry == dsq:
            result_submit(round=rnd, entry=entry, action="dsq", reason="Helped by a spectator",
                          values=ResultValues(status=Status.DSQ))
        elif entry == counted:
            result_submit(round=rnd, entry=entry, action="count",
                          values=ResultValues(status=Status.UNFINISHED, pieces=450))
        else:
            # 3 pieces missing cost 3 x 5 s (wjpc-2025.txt, Missing Pieces).
            _finish(rnd, entry, base + 60 * i, missing=3 if entry == penalty else 0)


@pytest.fixture
def played(championship, clock) -> tuple[Round, Round]:
    """Round one in groups A-F, published, its qualifiers confirmed and the second round
    created from them; round two in S1-S3, played and published."""
    first = first_round(championship)
    entries = add_entries(first.event, {"CZ": 5, "NO": 5, "ES": 4})
    groups_assign(round=first, seed=5)
    seating_assign(round=first)
    clock("2027-07-01T09:00")
    round_move(round=first, to=RoundState.RUNNING)
    clock("2027-07-01T10:29")
    _play(first, entries, base=2400, penalty=entries[1], credit=entries[6], dsq=entries[4],
          counted=entries[9])
    clock("2027-07-01T10:31")
    round_move(round=first, to=RoundState.PROVISIONAL)
    round_move(round=first, to=RoundState.PUBLISHED)
    qualifiers_confirm(round=first, knowingly=True)
    second = next_round_create(round=first).round

    clock("2027-07-01T14:00")
    round_move(round=second, to=RoundState.RUNNING)
    clock("2027-07-01T15:14")
    seated = [s.entry for s in second.seats.select_related("entry").order_by("-entry__number")]
    _play(second, seated, base=2000, penalty=seated[2], credit=seated[0], dsq=seated[5],
          counted=seated[7])
    clock("2027-07-01T15:16")
    round_move(round=second, to=RoundState.PROVISIONAL)
    round_move(round=second, to=RoundState.PUBLISHED)
    snapshot_cache_clear()
    return first, second


def _final(seconds: int | None) -> str:
    return format_time(seconds) if seconds is not None else ""


def engine_places(rnd: Round) -> Places:
    return {int(row["entry"]): (str(row["rank"] or ""), row["group"], row["final_time"] or "")
            for row in ranking_rows(round_ranking(rnd).lines)}


def _table_places(header: list[str], rows: list[list[str]]) -> Places:
    at = {name: i for i, name in enumerate(header)}
    return {int(row[at["entry"]]): (row[at["rank"]], row[at["group"]], row[at["final_time"]])
            for row in rows}


def csv_places(response) -> Places:
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    return _table_places(rows[0], rows[1:])


def xlsx_places(response) -> Places:
    sheet = load_workbook(io.BytesIO(response.content)).active
    rows = [["" if v is None else str(v) for v in row] for row in sheet.iter_rows(values_only=True)]
    return _table_places(rows[0], rows[1:])


def pdf_places(response, expected: Places) -> Places:
    """The places read from the PDF: each group's page titled "Group X", a line per entry
    starting with its place and entry number (the name follows)."""
    found: Places = {}
    for page in pypdf.PdfReader(io.BytesIO(response.content)).pages:
        text = page.extract_text()
        group = re.search(r"Group (\S+)", text)
        for line in text.splitlines():
            match = re.match(r"^(\d*) ?(\d+) Dvořák \2 .*?(\d+:\d\d:\d\d|)(?: \d+)?$", line)
            if match and int(match[2]) in expected:
                final = re.findall(r"\d+:\d\d:\d\d", line)
                found[int(match[2])] = (match[1], group[1] if group else "",
                                        final[-1] if final else "")
    return found


def page_places(html_of: Callable[[str], str], groups: list[str], *, place: int,
                final: int) -> Places:
    """The lines of a results page (or the projector), one group at a time."""
    found: Places = {}
    for group in groups:
        rows = Rows(html_of(group)).rows
        for number, (_, cells) in rows.items():
            time = cells[final] if re.fullmatch(r"\d+:\d\d:\d\d|\d\d:\d\d", cells[final]) else ""
            found[number] = (cells[place], group, time)
    return found


def _hms(text: str) -> str:
    """A final time as the downloads write it (pages drop the hour below one hour)."""
    if not text:
        return ""
    parts = [int(p) for p in text.split(":")]
    return format_time(sum(p * 60 ** i for i, p in enumerate(reversed(parts))))


def snapshot_places(lines: list[dict]) -> Places:
    return {line["entry"]: (str(line["rank"] or ""), line["group"],
                            _final(line["final_seconds"]) if line["status"] == "finished" else "")
            for line in lines}


def qualifier_places(html: str) -> dict[int, tuple[str, str]]:
    """Rank and group of every qualifier on the organiser's "Results and qualifiers" page."""
    table = html.split('id="qualifiers"')[1]
    found = {}
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", table, re.S)[1:]:
        cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>",
                                                                          row, re.S)]
        found[int(cells[2])] = (cells[0], cells[1])
    return found


def test_every_output_gives_the_same_places_groups_and_final_times(
        played, client, client_as, capsys, tmp_path: Path):
    first, second = played
    championship = second.event.championship
    slug = championship.slug
    judge = client_as(championship, Role.JUDGE)
    organiser = client_as(championship, Role.ORGANISER)
    document = tmp_path / "championship.json"
    document.write_text(json.dumps(championship_export(championship), default=str),
                        encoding="utf-8")

    for rnd in (first, second):
        expected = engine_places(rnd)
        groups = list(rnd.groups)
        assert len(expected) == (14 if rnd == first else 13)
        # The round's rulings show: a disqualification without a place, a time credit taken
        # off, the penalty for missing pieces, a count at the limit without a final time.
        assert sorted(p for p, _, _ in expected.values()).count("") == 1
        assert sum(1 for _, _, time in expected.values() if not time) == 2
        for group in groups:
            assert [p for p, g, _ in expected.values() if g == group].count("1") == 1, group

        exports = {fmt: judge.get(reverse("control:rounds:export", args=[slug, rnd.pk, fmt]))
                   for fmt in ("csv", "xlsx", "pdf")}
        data = {fmt: judge.get(reverse("control:data:results",
                                       args=[slug, rnd.event.code, rnd.code, fmt]))
                for fmt in ("csv", "xlsx")}
        assert csv_places(exports["csv"]) == expected
        assert xlsx_places(exports["xlsx"]) == expected
        assert csv_places(data["csv"]) == expected
        assert xlsx_places(data["xlsx"]) == expected
        assert pdf_places(exports["pdf"], expected) == expected

        qualifiers = qualifier_places(organiser.get(
            reverse("control:rounds:qualifiers", args=[slug, rnd.pk])).content.decode())
        assert qualifiers
        assert qualifiers == {n: (p, g) for n, (p, g, _) in expected.items()
                              if n in qualifiers}

        def public_page(group: str, name: str = "round", rnd: Round = rnd) -> str:
            url = reverse(f"public:live:{name}", args=[slug, rnd.pk])
            return client.get(url, {"group": group}).content.decode()

        shown = page_places(public_page, groups, place=0, final=6)
        assert {n: (p, g, _hms(t)) for n, (p, g, t) in shown.items()} == expected
        projected = page_places(lambda g: public_page(g, "projector"), groups, place=0, final=3)
        assert {n: (p, g, _hms(t)) for n, (p, g, t) in projected.items()} == expected

        api = client.get(f"/api/v1/championships/{slug}/rounds/{rnd.pk}/ranking").json()
        assert snapshot_places(api["lines"]) == expected
        # Who goes on, and where: the files and the API agree too.
        rows = list(csv.reader(io.StringIO(exports["csv"].content.decode("utf-8-sig"))))
        at = {name: i for i, name in enumerate(rows[0])}
        assert {int(row[at["entry"]]): row[at["to_group"]] for row in rows[1:]
                if row[at["qualified"]] in ("yes", "forecast")} == {
            line["entry"]: line["qualified"]["to_group"] for line in api["lines"]
            if line["qualified"]}
        snapshot = json.loads(round_snapshot_cached(Round.objects.get(pk=rnd.pk)).body)
        assert snapshot_places(snapshot["lines"]) == expected
        for number, (place, group, _) in expected.items():
            entrant = client.get(f"/api/v1/championships/{slug}/entries/individual/{number}")
            line = next(r for r in entrant.json()["rounds"] if r["round_id"] == rnd.pk)
            assert (str(line["result"]["rank"] or ""), line["group"]) == (place, group)

        assert main(["championship", "results", str(document), "--event", "individual",
                     "--round", rnd.code]) == 0
        out = capsys.readouterr().out
        rows = list(csv.reader(io.StringIO(out)))
        assert _table_places(rows[0], rows[1:]) == expected
