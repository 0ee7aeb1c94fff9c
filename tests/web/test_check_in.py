"""The check-in desk: search, statuses written with who and when, the no-show rule that reads
them (wjpc-2025.txt: tables of participants not shown up 10 minutes after the start), and the
desk's printed list by name."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from puzzlecomp.championships.models import (
    AuditEntry,
    CheckIn,
    Entry,
    EntryStatus,
    Notice,
    Person,
    Role,
    Round,
    Seat,
)
from puzzlecomp.championships.selectors.check_in import desk_get
from puzzlecomp.championships.services.groups import groups_assign
from puzzlecomp.championships.services.seating import seating_assign
from tests.judging.support import seat_round
from tests.web.test_groups import COUNTRIES, add_entries, first_round


def desk_url(rnd: Round, name: str = "desk", *args: object) -> str:
    return reverse(f"control:check_in:{name}", args=[rnd.event.championship.slug, rnd.pk, *args])


@pytest.fixture
def organiser(championship, client_as):
    return client_as(championship, Role.ORGANISER)


@pytest.fixture
def seated(championship) -> Round:
    rnd = first_round(championship)
    add_entries(rnd.event, COUNTRIES)
    Entry.objects.filter(event=rnd.event, number=3).update(name="Jana Nováková")
    groups_assign(round=rnd, seed=5)
    seating_assign(round=rnd)
    return rnd


def start(rnd: Round, minutes_ago: int) -> None:
    Round.objects.filter(pk=rnd.pk).update(
        starts_at=timezone.now() - dt.timedelta(minutes=minutes_ago))
    rnd.refresh_from_db()


def test_the_desk_finds_an_entrant_by_name_or_number(organiser, seated):
    by_name = organiser.get(desk_url(seated), {"q": "novaK"}).content.decode()
    assert 'id="entry-3"' in by_name
    assert by_name.count('class="desk-line ') == 1
    by_number = organiser.get(desk_url(seated), {"q": "12"}).content.decode()
    assert 'id="entry-12"' in by_number
    assert by_number.count('class="desk-line ') == 1


def test_the_entrants_qr_code_link_opens_them_at_the_desk(organiser, seated):
    entry = Entry.objects.get(event=seated.event, number=7)
    link = "https://example.org" + reverse("public:disputes:entrant",
                                           args=[seated.event.championship.slug, entry.token])
    page = organiser.get(desk_url(seated), {"q": link}).content.decode()
    assert 'id="entry-7"' in page
    assert page.count('class="desk-line ') == 1


def test_checking_in_records_status_time_and_who_audits_and_announces(organiser, seated):
    entry = Entry.objects.get(event=seated.event, number=3)
    notices = Notice.objects.count()
    response = organiser.post(desk_url(seated, "check_in", 3), {"status": "late"})
    assert response.status_code == 302
    check_in = CheckIn.objects.get(round=seated, entry=entry)
    assert check_in.status == "late"
    assert check_in.by is not None
    assert check_in.by.username.startswith("organiser")
    assert abs(check_in.at - timezone.now()) < dt.timedelta(minutes=1)
    audit = AuditEntry.objects.get(action="puzzlecomp.check_in.recorded")
    assert audit.data == {"round": seated.pk, "entry": 3, "status": "late", "previous": None}
    assert Notice.objects.filter(kind="check_in").count() == 1
    assert Notice.objects.count() == notices + 1
    page = organiser.get(response.url, follow=True).content.decode()
    assert "3 Jana Nováková: Late." in page


def test_replaced_is_not_a_status_the_desk_may_type(organiser, seated):
    response = organiser.post(desk_url(seated, "check_in", 3), {"status": "replaced"},
                              follow=True)
    assert "Choose present, late or no-show." in response.content.decode()
    assert not CheckIn.objects.exists()


def test_an_entry_of_the_waiting_list_cannot_check_in_to_the_round(organiser, seated):
    waiting = add_entries(seated.event, {"FI": 1}, status=EntryStatus.WAITING)[0]
    response = organiser.post(desk_url(seated, "check_in", waiting.number),
                              {"status": "present"}, follow=True)
    assert f"Entry {waiting.number} is not expected in this round." in response.content.decode()
    assert not CheckIn.objects.exists()


def test_after_ten_minutes_only_entrants_not_checked_in_are_offered_for_replacement(
        organiser, seated):
    """wjpc-2025.txt: the Organization may use the tables of participants who have not shown
    up after 10 minutes of the start of the test."""
    for number, status in ((1, "present"), (2, "late"), (3, "no_show")):
        organiser.post(desk_url(seated, "check_in", number), {"status": status})
    start(seated, 9)
    early = organiser.get(desk_url(seated), {"show": "none"}).content.decode()
    assert "Replace</a>" not in early
    start(seated, 10)
    page = organiser.get(desk_url(seated), {"show": "offered"}).content.decode()
    expected = Seat.objects.filter(round=seated).count() - 2
    assert page.count("Replace</a>") == min(expected, 50)
    assert f"May be replaced <strong>{expected}</strong>" in page
    for number, offered in ((1, False), (2, False), (3, True)):
        found = organiser.get(desk_url(seated), {"show": "offered", "q": number}).content.decode()
        assert (f'id="entry-{number}"' in found) is offered


def test_a_no_show_is_replaced_from_the_waiting_list_and_the_replacement_checked_in(
        organiser, seated):
    missing = Seat.objects.filter(round=seated, table=1).order_by("seat").first()
    waiting = add_entries(seated.event, {"FI": 1}, status=EntryStatus.WAITING)[0]
    start(seated, 11)
    form = organiser.get(desk_url(seated, "replace", missing.entry.number)).content.decode()
    assert f"{waiting.number} · {waiting.name}" in form
    response = organiser.post(desk_url(seated, "replace", missing.entry.number),
                              {"replacement": waiting.number})
    assert response.status_code == 302
    taken = Seat.objects.get(round=seated, entry=waiting)
    assert (taken.table, taken.seat) == (missing.table, missing.seat)
    statuses = dict(CheckIn.objects.filter(round=seated).values_list("entry__number", "status"))
    assert statuses == {missing.entry.number: "replaced", waiting.number: "present"}


def test_an_entrant_who_checked_in_keeps_the_table_after_ten_minutes(organiser, seated):
    present = Seat.objects.filter(round=seated, table=2).first().entry
    waiting = add_entries(seated.event, {"FI": 1}, status=EntryStatus.WAITING)[0]
    organiser.post(desk_url(seated, "check_in", present.number), {"status": "late"})
    start(seated, 30)
    response = organiser.post(desk_url(seated, "replace", present.number),
                              {"replacement": waiting.number}, follow=True)
    assert "has checked in: only an entrant who has not shown up" in response.content.decode()
    assert not Seat.objects.filter(entry=waiting).exists()


def test_the_desk_pages_through_a_long_list(organiser, seated):
    page_one = organiser.get(desk_url(seated)).content.decode()
    assert page_one.count('class="desk-line ') == 50
    page_two = organiser.get(desk_url(seated), {"page": 2}).content.decode()
    assert page_two.count('class="desk-line ') == sum(COUNTRIES.values()) - 50


def test_the_desk_list_is_sorted_by_surname_and_printed_as_a_pdf(organiser, seated):
    """Individuals by surname, an accented letter with its base letter (Č with C)."""
    for number, surname in ((5, "Zeman"), (9, "Abbott"), (11, "Čapek"), (12, "Dvorský")):
        Person.objects.filter(entries__entry__event=seated.event,
                              entries__entry__number=number).update(last_name=surname)
    numbers = [line.number for line in desk_get(seated, now=timezone.now()).lines]
    assert numbers[:3] == [9, 11, 12]
    assert numbers[-1] == 5
    response = organiser.get(desk_url(seated, "list"))
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")
    assert b"(Check-in list)" in response.content


def test_a_judge_may_not_use_the_desk(championship, client_as, seated):
    assert client_as(championship, Role.JUDGE).get(desk_url(seated)).status_code == 403


def test_the_desk_shows_one_group_at_a_time_when_asked(organiser, seated):
    """wjpc-2025.txt: groups A-F of the first round take the same tables one after another."""
    in_b = Seat.objects.filter(round=seated, group="B").count()
    page = organiser.get(desk_url(seated), {"group": "B"}).content.decode()
    assert page.count('class="desk-line ') == min(in_b, 50)
    assert "group A" not in page.split('class="desk-lines"')[1]


def test_the_desk_header_has_no_stray_separator_without_a_no_show_rule(make_championship,
                                                                       client_as):
    """norway-nm-2025.txt gives no time after which tables are given away: the header names
    the start alone, with nothing dangling after it."""
    championship = make_championship("norway-nm-2025")
    rnd = seat_round(championship, "individual", "final", tables=2, started_minutes_ago=5)
    page = client_as(championship, Role.ORGANISER).get(desk_url(rnd)).content.decode()
    header = page[page.index('<p class="desk-when">'):]
    header = header[:header.index("</p>")]
    assert "Round start:" in header
    assert "·" not in header
