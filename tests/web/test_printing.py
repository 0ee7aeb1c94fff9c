"""Printable PDFs: table cards with the judge's QR code, result sheets and participant lists."""

from __future__ import annotations

import io

import pypdf
import pytest
from django.conf import settings

from puzzlecomp.championships.models import Role, Round, RoundState, Seat
from puzzlecomp.championships.printing.fonts import PdfFont, pdf_font, printable
from puzzlecomp.championships.services.groups import groups_assign
from puzzlecomp.championships.services.seating import seating_assign
from tests.judging.support import seat_round
from tests.web.test_groups import COUNTRIES, add_entries, first_round, url


@pytest.fixture
def seated(championship) -> Round:
    rnd = first_round(championship)
    add_entries(rnd.event, COUNTRIES)
    groups_assign(round=rnd, seed=2)
    seating_assign(round=rnd, groups=["A"])
    return rnd


@pytest.fixture
def judge(championship, client_as):
    return client_as(championship, Role.JUDGE)


def pdf_of(client, address: str) -> bytes:
    response = client.get(address)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    content = response.content
    assert content.startswith(b"%PDF")
    assert content.rstrip().endswith(b"%%EOF")
    return content


def test_table_cards_carry_each_table_and_a_qr_code_for_its_judge(championship, judge, seated):
    content = pdf_of(judge, url("print_table_cards", seated) + "?group=A")
    tables = sorted(set(Seat.objects.filter(round=seated, group="A")
                        .values_list("table", flat=True)))
    for table in tables:
        # One bookmark per card, and the QR code's address as the image's link.
        assert f"(Table {table})".encode() in content
        judge_url = f"{settings.SITE_URL}/judge/{championship.slug}/table/{seated.pk}/{table}"
        assert f"({judge_url})".encode() in content
    assert content.count(b"/Subtype /Image") >= len(tables)


def test_result_sheets_have_a_page_per_table(judge, seated):
    content = pdf_of(judge, url("print_result_sheets", seated) + "?group=A")
    tables = set(Seat.objects.filter(round=seated, group="A").values_list("table", flat=True))
    assert content.count(b"/Type /Page\n") == len(tables)
    for table in tables:
        assert f"(Table {table})".encode() in content


def test_participant_lists_have_a_section_per_group(judge, seated):
    content = pdf_of(judge, url("print_participants", seated))
    for group in "ABCDEF":
        assert f"(Group {group})".encode() in content
    one = pdf_of(judge, url("print_participants", seated) + "?group=B")
    assert b"(Group B)" in one
    assert b"(Group A)" not in one


def test_printing_a_group_not_yet_seated_says_so(judge, seated):
    response = judge.get(url("print_table_cards", seated) + "?group=B", follow=True)
    assert "Seat the group before printing its tables." in response.content.decode()


def test_competitors_cannot_print(championship, client_as, seated):
    competitor = client_as(championship, Role.COMPETITOR)
    assert competitor.get(url("print_table_cards", seated)).status_code == 403


def test_names_print_in_a_unicode_font_when_the_system_has_one():
    font = pdf_font()
    if font.regular is None:
        pytest.skip("no Unicode TrueType font on this system")
    assert printable("Dvořák Øye Muñoz", font) == "Dvořák Øye Muñoz"


def test_without_a_unicode_font_names_keep_latin_1_letters_and_lose_other_accents():
    core = PdfFont(None, None)
    assert printable("Dvořák Øye Muñoz Łukasz", core) == "Dvorák Øye Muñoz Lukasz"


def sheet_text(client, rnd: Round, query: str = "") -> str:
    content = pdf_of(client, url("print_result_sheets", rnd) + query)
    return " ".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(content)).pages)


def test_a_wjpc_result_sheet_asks_for_adjacent_clusters_and_names_start_limit_and_puzzle(
        judge, seated):
    """wjpc-2025.txt, penalties: adjacent missing pieces are a manufacturing defect; at the limit
    the judge counts the placed pieces. The sheet says so, with a box for a disqualification."""
    text = sheet_text(judge, seated, "?group=A")
    assert "in adjacent clusters" in text
    assert "found (bag, floor)" not in text
    assert "pieces placed (groups of 3 or more joined)" in text
    assert "Limit 90 min" in text
    assert "Puzzle 500 pieces" in text
    assert "Start " in text
    assert "Disqualified" in text


def test_a_norwegian_result_sheet_asks_what_the_norwegian_rules_record(make_championship,
                                                                      client_as):
    """norway-nm-2025.txt: a lost piece costs nothing, a misplaced one (found) costs 5 s; at the
    limit the pieces left over are laid in piles of 10. No adjacent clusters on its sheet."""
    championship = make_championship("norway-nm-2025")
    rnd = Round.objects.get(event__championship=championship, event__code="individual")
    rnd.time_limit_minutes = 120
    rnd.save()
    rnd.puzzles.update(pieces=1000)
    seated = seat_round(championship, "individual", rnd.code, tables=2,
                        state=RoundState.PLANNED)
    text = sheet_text(client_as(championship, Role.JUDGE), seated)
    assert "found (bag, floor)" in text
    assert "adjacent" not in text
    assert "piles of 10" in text
    assert "loose pieces" in text
    assert "Limit 120 min" in text
    assert "Puzzle 1000 pieces" in text
    assert "Disqualified" in text
