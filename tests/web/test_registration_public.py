"""Public registration: the forms, the rulebooks' registration rules, email confirmation, and
what registration tells people about where they stand."""

from __future__ import annotations

import datetime as dt
import re
from urllib.parse import urlsplit

import pytest
from django.core import mail
from django.urls import reverse

from puzzlecomp.championships.engine import engine_entry
from puzzlecomp.championships.models import Entry, EntryStatus
from puzzlecomp.championships.services.registration import MemberDetails, entry_register
from tests.web.test_groups import add_entries

WJPC_START = dt.datetime(2027, 9, 20, 9, 0, tzinfo=dt.UTC)


@pytest.fixture
def published(make_championship):
    """A published championship under a ruleset, starting on 20 September 2027."""

    def make(ruleset_id: str):
        championship = make_championship(ruleset_id, starts_at=WJPC_START)
        championship.published = True
        championship.save()
        return championship

    return make


@pytest.fixture
def wjpc(published):
    return published("wjpc-2025")


def person(first: str = "Ana", last: str = "García", *, nationality: str = "ES",
           born: str = "1990-04-01", **fields: str) -> dict[str, str]:
    return {"first_name": first, "last_name": last, "email": f"{first.lower()}@example.org",
            "birth_date": born, "nationality": nationality, "residence": nationality,
            "consent_publish": "on", **fields}


def form_data(*people: dict[str, str], **entry: str) -> dict[str, str]:
    data = {f"m{i}-{key}": value for i, p in enumerate(people) for key, value in p.items()}
    data.update({f"entry-{key}": value for key, value in entry.items()})
    return data


def register(submit, championship, event: str, *people: dict[str, str], **entry: str):
    path = reverse("public:registration:register", args=[championship.slug, event])
    return submit(path, form_data(*people, **entry))


def confirm_by_email(client, submit, message) -> Entry:
    """Open the link of a confirmation email and press the button, as the person would."""
    link = re.search(r"https?://\S+/confirm/\S+/", message.body)[0]
    assert client.get(urlsplit(link).path).status_code == 200
    submit(urlsplit(link).path)
    return Entry.objects.get(token=link.rstrip("/").rsplit("/", 1)[1])


def test_an_individual_registration_becomes_final_only_through_the_emailed_link(
        wjpc, client, submit, clock, settings):
    """wjpc-2025.txt: "Registration is considered final ... only when confirmed by email"."""
    settings.SITE_URL = "https://wjpc.example.org"
    response = register(submit, wjpc, "individual", person())
    assert response.status_code == 200
    assert "Check your email" in response.content.decode()
    entry = Entry.objects.get()
    assert entry.status == EntryStatus.UNCONFIRMED
    assert [m.to for m in mail.outbox] == [["ana@example.org"]]
    assert "https://wjpc.example.org/c/" in mail.outbox[0].body
    assert "Fee due: 75.00 EUR" in mail.outbox[0].body
    assert confirm_by_email(client, submit, mail.outbox[0]).status == EntryStatus.CONFIRMED
    assert "is confirmed" in mail.outbox[1].subject


def test_confirming_twice_changes_nothing(wjpc, client, submit, clock):
    register(submit, wjpc, "individual", person())
    confirm_by_email(client, submit, mail.outbox[0])
    entry = confirm_by_email(client, submit, mail.outbox[0])
    assert entry.status == EntryStatus.CONFIRMED
    assert len(mail.outbox) == 2


def test_a_pair_registers_both_members_in_one_entry(wjpc, submit, clock):
    """wjpc-2025.txt: pairs of two; the fee of 75 EUR (60 EUR until 31 May) is per pair."""
    register(submit, wjpc, "pairs", person(), person("Luis", "Pérez"))
    entry = Entry.objects.get()
    assert [m.person.first_name for m in entry.members.all()] == ["Ana", "Luis"]
    assert entry.fee_amount == 75
    assert (entry.country, entry.mixed) == ("ESP", False)


def test_a_team_of_three_leaves_the_optional_fourth_member_empty(wjpc, submit, clock):
    """wjpc-2025.txt: a team has three or four members."""
    register(submit, wjpc, "teams", person(), person("Luis", "Pérez"), person("Eva", "Ruiz"),
             name="Las Piezas")
    entry = Entry.objects.get()
    assert (entry.name, entry.members.count()) == ("Las Piezas", 3)


def test_a_team_of_two_is_refused_naming_the_missing_member(wjpc, submit, clock):
    response = register(submit, wjpc, "teams", person(), person("Luis", "Pérez"))
    assert "This field is required" in response.content.decode()
    assert not Entry.objects.exists()


def test_registration_is_refused_with_the_reason_outside_the_window(wjpc, submit, clock):
    """wjpc-2025.txt: registration opens on 1 January and closes 5 days before the start."""
    clock("2027-09-15T09:00")
    response = register(submit, wjpc, "individual", person())
    assert "Registration for Individual closed on" in response.content.decode()
    clock("2026-12-31T23:59")
    response = register(submit, wjpc, "individual", person())
    assert "Registration for Individual opens on" in response.content.decode()
    assert not Entry.objects.exists()


def test_an_unconfirmed_registration_takes_no_place(wjpc, client, submit, clock):
    """wjpc-2025.txt: only a registration confirmed by email reserves a table."""
    wjpc.events.filter(code="individual").update(capacity=1)
    register(submit, wjpc, "individual", person())
    response = register(submit, wjpc, "individual", person("Luis", "Pérez"))
    assert "waiting list" not in response.content.decode()
    assert Entry.objects.filter(status=EntryStatus.UNCONFIRMED).count() == 2


def test_beyond_capacity_the_entry_is_put_on_the_waiting_list_and_told_so(
        wjpc, client, submit, clock):
    """wjpc-2025.txt: registration closes once the participant quota is filled; we keep a
    waiting list (ruleset: waiting_list = true)."""
    wjpc.events.filter(code="individual").update(capacity=1)
    register(submit, wjpc, "individual", person())
    confirm_by_email(client, submit, mail.outbox[0])
    response = register(submit, wjpc, "individual", person("Luis", "Pérez"))
    assert "your entry goes on the waiting list" in response.content.decode()
    assert "waiting list" in mail.outbox[2].body
    assert confirm_by_email(client, submit, mail.outbox[2]).status == EntryStatus.WAITING


def test_under_14_may_not_enter_alone_at_wjpc_but_may_with_an_adult_in_a_pair(
        wjpc, submit, clock):
    """wjpc-2025.txt: "Individuals aged 14 or older (born before 2011) may register unless
    accompanied by an adult as a pair or team"."""
    child = person("Pia", "Ruiz", born="2013-06-01")
    response = register(submit, wjpc, "individual", child)
    page = response.content.decode()
    assert "Pia Ruiz is 13 on 31 December 2026: alone only from 14" in page
    register(submit, wjpc, "pairs", child, person())
    assert Entry.objects.get().event.code == "pairs"


def test_under_16_needs_an_accompanying_adult_at_the_czech_championship(
        published, submit, clock):
    """czech-championship.txt: "Persons under 16 may participate only when accompanied by an
    adult"."""
    czech = published("czech-championship")
    child = person("Eliška", "Nová", nationality="CZ", born="2013-06-01",
                   email="eliska@example.cz")
    response = register(submit, czech, "individual", child)
    assert "only when accompanied by an adult" in response.content.decode()
    register(submit, czech, "individual", {**child, "accompanied_by_adult": "on"})
    assert Entry.objects.count() == 1


def test_under_16_is_reckoned_by_birth_date_on_the_competitions_first_day(
        published, submit, clock):
    """czech-championship.txt: "Persons under 16 may participate only when accompanied by an
    adult": born in 2011, Jan turns 16 in 2027 but only after the championship of 20 September
    2027, so he comes with an adult (issue 23, item 1; docs/rulesets.md, Ages)."""
    czech = published("czech-championship")
    jan = person("Jan", "Malý", nationality="CZ", born="2011-12-01", email="jan@example.cz")
    page = register(submit, czech, "individual", jan).content.decode()
    assert "Jan Malý is 15 on 20 September 2027: under 16 only when accompanied by an adult" in page
    assert "Needed for anyone under 16 on 20 September 2027." in page
    assert not Entry.objects.exists()
    eva = person("Eva", "Malá", nationality="CZ", born="2011-09-20", email="eva@example.cz")
    register(submit, czech, "individual", eva)
    assert Entry.objects.count() == 1


def test_a_person_may_enter_an_event_only_once(wjpc, submit, clock):
    """wjpc-2025.txt: "Each person can only participate once per category"."""
    register(submit, wjpc, "pairs", person(), person("Luis", "Pérez"))
    same_ana = person(email="ANA@example.org", first="ana")
    response = register(submit, wjpc, "pairs", same_ana, person("Eva", "Ruiz"))
    assert "already has an entry in Pairs" in response.content.decode()
    register(submit, wjpc, "individual", same_ana)
    assert Entry.objects.count() == 2


def test_a_pair_of_two_nationalities_is_mixed_and_competes_under_the_wjpf_flag(
        wjpc, submit, clock):
    """wjpc-2025.txt: "Mixed pairs and teams will participate under the international WJPF
    flag"."""
    response = register(submit, wjpc, "pairs", person("Jan", "Novák", nationality="CZ"),
                        person("Jonas", "Weber", nationality="DE"))
    entry = Entry.objects.get()
    assert (entry.mixed, entry.country) == (True, "WJPF")
    assert "competes under the WJPF flag" in response.content.decode()


def test_a_person_with_two_nationalities_chooses_the_one_they_represent(wjpc, submit, clock):
    """wjpc-2025.txt: "Individuals with two or more nationalities must choose one"."""
    two = person(other_nationalities="FR")
    response = register(submit, wjpc, "individual", two)
    assert "must choose the one they represent" in response.content.decode()
    register(submit, wjpc, "individual", {**two, "represents": "FR"})
    entry = Entry.objects.get()
    assert (entry.country, entry.members.get().represents.code) == ("FRA", "FR")


def test_the_nationality_stays_fixed_once_a_person_has_competed_at_wjpc(
        make_championship, wjpc, submit, clock):
    """wjpc-2025.txt: "Once chosen and participation has occurred, this selection cannot be
    changed in any future WJPC editions"."""
    earlier = make_championship("wjpc-2025", starts_at=WJPC_START - dt.timedelta(days=365))
    ana = MemberDetails(first_name="Ana", last_name="García", email="ana@example.org",
                        nationality="ES", other_nationalities=("FR",), represents="ES",
                        birth_date=dt.date(1990, 4, 1), consent_publish=True)
    clock("2026-07-01T12:00")
    entry = entry_register(event=earlier.events.get(code="individual"), members=[ana]).entry
    Entry.objects.filter(pk=entry.pk).update(status=EntryStatus.CONFIRMED)
    clock("2027-07-01T12:00")
    response = register(submit, wjpc, "individual",
                        person(other_nationalities="FR", represents="FR"))
    assert "represented ESP before and must keep that nationality" in response.content.decode()


def test_the_early_price_applies_to_registrations_until_31_may(wjpc, submit, clock):
    """wjpc-2025.txt: the individual fee is 60 EUR until 31 May (20% discount), so 75 after."""
    clock("2027-05-31T22:00")
    register(submit, wjpc, "individual", person())
    clock("2027-06-01T08:00")
    register(submit, wjpc, "individual", person("Luis", "Pérez"))
    assert list(Entry.objects.values_list("fee_amount", flat=True)) == [60, 75]
    assert "Fee due: 60.00 EUR" in mail.outbox[0].body


def test_birth_dates_never_appear_on_public_pages(wjpc, client, submit, clock):
    response = register(submit, wjpc, "individual", person(born="1987-11-23"))
    pages = [response, client.get(reverse("public:registration:index", args=[wjpc.slug])),
             client.get(urlsplit(re.search(r"https?://\S+/", mail.outbox[0].body)[0]).path)]
    for page in pages:
        assert page.status_code == 200
        assert "1987" not in page.content.decode()


def test_the_registration_page_lists_every_event_with_its_fee_today(wjpc, client, clock):
    response = client.get(reverse("public:registration:index", args=[wjpc.slug]))
    html = response.content.decode()
    assert "Fee if you register today: 75.00 EUR" in html
    assert reverse("public:registration:register", args=[wjpc.slug, "teams"]) in html


def test_an_australian_resident_names_their_state_where_prizes_depend_on_it(
        published, submit, clock):
    """australia-state-national.txt: "Competitors must reside in the State of the Competition
    to be eligible to receive the 1st, 2nd or 3rd trophies"."""
    state = published("australia-state")
    response = register(submit, state, "individual", person(nationality="AU"))
    assert "Please choose your state or territory" in response.content.decode()
    register(submit, state, "individual", person(nationality="AU", region="NSW"))
    assert Entry.objects.get().members.get().person.region == "NSW"


def test_the_states_and_territories_offered_are_the_ones_the_ruleset_declares(
        published, submit, client, clock):
    """australia-state-national.txt, Eligibility: residents of "the NT or another Australian
    Territory" may take a trophy, so every territory the ruleset names can be chosen; a state is
    only for residents of Australia."""
    state = published("australia-state")
    html = client.get(reverse("public:registration:register",
                              args=[state.slug, "individual"])).content.decode()
    for code in ("ACT", "NSW", "NT", "JBT", "CX", "CC", "NF"):
        assert f'<option value="{code}">' in html
    response = register(submit, state, "individual", person(nationality="NZ", region="NSW"))
    assert "only for residents of Australia" in response.content.decode()
    register(submit, state, "individual", person(nationality="AU", region="JBT"))
    assert Entry.objects.get().members.get().person.region == "JBT"


def test_a_territory_resident_says_whether_this_is_their_first_state_competition_of_the_year(
        published, submit, client, clock):
    """australia-state-national.txt, Eligibility: a resident of the NT "may take a trophy at
    the first State Competition they compete in for the calendar year"; the answer is stored
    with the entry and read by the awards."""
    state = published("australia-state")
    html = client.get(reverse("public:registration:register",
                              args=[state.slug, "individual"])).content.decode()
    assert 'name="m0-first_state_competition_of_year"' in html
    register(submit, state, "individual",
             person(nationality="AU", region="NT", first_state_competition_of_year="on"))
    member = Entry.objects.get().members.get()
    assert member.first_state_competition_of_year is True
    assert engine_entry(Entry.objects.get()).members[0].first_state_competition_of_year is True


def test_rulesets_that_do_not_read_it_do_not_ask_for_the_first_state_competition(
        wjpc, client, clock):
    html = client.get(reverse("public:registration:register",
                              args=[wjpc.slug, "individual"])).content.decode()
    assert "first_state_competition_of_year" not in html


def test_each_person_registers_alone_for_a_relay_with_drawn_teams(published, client, clock):
    """czech-blind-and-relay.txt: "Each competitor registers individually"."""
    relay = published("czech-blind-relay")
    html = client.get(reverse("public:registration:register", args=[relay.slug, "relay"]))
    assert 'name="m0-first_name"' in html.content.decode()
    assert 'name="m1-first_name"' not in html.content.decode()


def test_the_registration_page_shows_places_confirmed_and_waiting_per_event(
        wjpc, client, clock):
    """wjpc-2025.txt: 1,200 individuals; we keep a waiting list beyond the quota."""
    event = wjpc.events.get(code="individual")
    add_entries(event, {"ES": 3})
    add_entries(event, {"FR": 2}, status=EntryStatus.WAITING)
    html = client.get(reverse("public:registration:index", args=[wjpc.slug])).content.decode()
    individual = html[html.index("<h3>Individual</h3>"):html.index("<h3>Pairs</h3>")]
    assert "<dt>Places</dt><dd>1200 entries</dd>" in individual.replace(",", "")
    assert "<dt>Confirmed</dt><dd>3</dd>" in individual
    assert "<dt>Waiting list</dt><dd>2</dd>" in individual


def test_one_place_left_is_said_in_the_singular(wjpc, client, clock):
    wjpc.events.filter(code="individual").update(capacity=1)
    html = client.get(reverse("public:registration:index", args=[wjpc.slug])).content.decode()
    assert "<dd>1 entry</dd>" in html
    assert "1 place free." in html
    assert "1 entries" not in html


def test_a_foreign_entrant_learns_at_registration_they_are_outside_the_official_ranking(
        published, submit, clock):
    """czech-championship.txt: only a registered address in the Czech Republic competes for
    the title of Czech champion (ruleset: official_ranking)."""
    czech = published("czech-championship")
    index = submit(reverse("public:registration:index", args=[czech.slug])).content.decode()
    assert "Registered address in the Czech Republic" in index
    page = register(submit, czech, "individual", person("Anna", "Schmidt", nationality="DE"))
    html = page.content.decode()
    assert 'id="outside-official"' in html
    assert "Registered address in the Czech Republic" in html
    assert "outside the official ranking" in mail.outbox[0].body


def test_a_czech_resident_is_not_told_they_are_outside(published, submit, clock):
    czech = published("czech-championship")
    page = register(submit, czech, "individual",
                    person("Jana", "Nováková", nationality="CZ", email="jana@example.cz"))
    assert 'id="outside-official"' not in page.content.decode()
    assert "outside the official ranking" not in mail.outbox[0].body


def test_emails_name_the_championship_its_date_and_venue_and_link_to_the_entrants_page(
        wjpc, submit, clock, settings):
    settings.SITE_URL = "https://wjpc.example.org"
    wjpc.venue = "Valladolid, Feria"
    wjpc.save()
    register(submit, wjpc, "individual", person())
    message = mail.outbox[0]
    assert wjpc.name in message.subject
    assert wjpc.name in message.body
    assert "Valladolid, Feria" in message.body
    assert "20 September 2027" in message.body
    token = wjpc.events.get(code="individual").entries.get().token
    assert f"https://wjpc.example.org/c/{wjpc.slug}/disputes/{token}/" in message.body


def test_a_child_in_a_pair_needs_an_email_of_their_own_not_the_parents(wjpc, submit, clock):
    """wjpc-2025.txt, Registration: under 14 only "accompanied by an adult as a pair or team".
    The address tells who a person is, so the child's cannot be the parent's: refused at the
    child's email field, naming whose it is, and nothing is written."""
    parent = person("Ana", "Ruiz")
    child = person("Pia", "Ruiz", born="2015-06-01", email="ana@example.org")
    page = register(submit, wjpc, "pairs", parent, child).content.decode()
    assert "This is the email of Ana Ruiz: Pia Ruiz needs an address of their own" in page
    block = page[page.index('name="m1-first_name"'):]
    assert block.index("This is the email of Ana Ruiz") < block.index('name="m1-birth_date"')
    assert not Entry.objects.exists()
    register(submit, wjpc, "pairs", parent, {**child, "email": "pia@example.org"})
    assert Entry.objects.get().members.count() == 2


def test_registration_closes_once_the_events_first_round_has_started(wjpc, client, submit,
                                                                     clock):
    """An event whose only round is played (or being played) takes no entry, whatever the
    window says; the other events stay open."""
    from puzzlecomp.championships.models import RoundState
    from puzzlecomp.championships.services.rounds import round_state_set
    from tests.support import round_of

    teams = round_of(wjpc, "teams", "first")
    round_state_set(round=teams, state=RoundState.PUBLISHED,
                    starts_at=dt.datetime(2027, 6, 30, 9, 0, tzinfo=dt.UTC))
    response = register(submit, wjpc, "teams", person(), person("Luis", "Pérez"),
                        person("Eva", "Ruiz"))
    assert "Registration for Teams closed on" in response.content.decode()
    assert not Entry.objects.exists()
    register(submit, wjpc, "individual", person())
    assert Entry.objects.get().event.code == "individual"


def options_of(page: str, name: str) -> list[str]:
    select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', page, re.S)[1]
    return re.findall(r"<option[^>]*>([^<]*)</option>", select)


@pytest.mark.parametrize(("language", "before", "after"), [
    ("cs", "Hongkong", "Chile"), ("cs", "Curaçao", "Česko"), ("nb", "Zimbabwe", "Åland"),
    ("nb", "Zimbabwe", "Østerrike"), ("en", "Afghanistan", "Åland Islands")])
def test_countries_are_listed_by_name_as_a_reader_of_the_language_expects(
        wjpc, client, clock, language, before, after):
    """Issue 24: in Czech Ch comes after H and Č after C; in Norwegian Å and Ø after Z."""
    path = reverse("public:registration:register", args=[wjpc.slug, "individual"])
    page = client.get(path, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    for field in ("m0-nationality", "m0-residence"):
        names = options_of(page, field)
        assert names.index(before) < names.index(after), (field, before, after)


def test_a_missing_country_of_residence_is_marked_required_and_named_in_the_summary(
        wjpc, client, submit, clock):
    """Issue 24: the required country of residence was unmarked, and its error only beside
    the field, far down the form."""
    path = reverse("public:registration:register", args=[wjpc.slug, "individual"])
    blank = client.get(path).content.decode()
    assert re.search(r'<div class="required">\s*<label for="id_m0-residence"', blank)
    assert "are required." in blank
    page = register(submit, wjpc, "individual", person(residence="")).content.decode()
    start = page.index('id="registration-errors"')
    summary = page[start:page.index('<form method="post" novalidate')]
    assert "1 correction" in summary
    assert 'href="#id_m0-residence"' in summary
    assert "Person 1 · Country of residence</a>: This field is required." in summary
    assert not Entry.objects.exists()


def test_a_closed_events_form_shows_the_closed_notice_at_its_own_address(wjpc, client, clock):
    """Issue 24 (review): the form of a closed event was served in full at its address, and
    the overview said "Open until" a past time: the notice instead, and "Closed on"."""
    from puzzlecomp.championships.models import RoundState
    from puzzlecomp.championships.services.rounds import round_state_set
    from tests.support import round_of

    round_state_set(round=round_of(wjpc, "teams", "first"), state=RoundState.RUNNING,
                    starts_at=dt.datetime(2027, 6, 30, 9, 0, tzinfo=dt.UTC))
    teams = client.get(reverse("public:registration:register", args=[wjpc.slug, "teams"]))
    assert teams.status_code == 200
    page = teams.content.decode()
    assert 'id="registration-closed"' in page
    assert "Registration for Teams closed on" in page
    assert 'name="m0-first_name"' not in page
    pairs = client.get(reverse("public:registration:register", args=[wjpc.slug, "pairs"]))
    assert 'name="m0-first_name"' in pairs.content.decode()
    clock("2027-09-16T09:00")
    page = client.get(reverse("public:registration:register",
                              args=[wjpc.slug, "individual"])).content.decode()
    assert "Registration for Individual closed on" in page
    assert 'name="m0-first_name"' not in page
    overview = client.get(reverse("public:registration:index", args=[wjpc.slug]))
    html = overview.content.decode()
    assert "Closed on" in html
    assert "Open until" not in html
    # No fee "if you register today" while nobody can register today.
    assert "Fee if you register today" not in html


def test_a_fee_reads_as_charged_before_and_after_registering(published, client, submit,
                                                             clock):
    """Issue 24 (review): "Fee if you register today: 350.50 NOK" for a team charged 1051.50:
    per person, and what a team of three pays, the same words before, after and in the email;
    the team's name on the page and in the email."""
    from decimal import Decimal

    nm = published("norway-nm-2025")
    nm.events.filter(code="teams").update(fee_amount=Decimal("350.50"), fee_per="person")
    overview = client.get(reverse("public:registration:index", args=[nm.slug])).content.decode()
    assert "Fee if you register today: 350.50 NOK per person" in overview
    people = [person(first, "Berg", nationality="NO") for first in ("Ola", "Kari", "Per")]
    page = register(submit, nm, "teams", *people, name="Bitene").content.decode()
    charged = "350.50 NOK per person (1,051.50 NOK for a team of 3)"
    assert f"Fee due: {charged}" in page
    assert "Bitene" in page
    body = mail.outbox[0].body
    assert f"Fee due: {charged}" in body
    assert "Team name: Bitene" in body


def test_a_per_entry_fee_says_per_pair_and_the_regular_fee_only_if_it_can_apply(
        wjpc, make_championship, client, clock):
    """WJPC prices pairs and teams per entry; its regular fee from 1 June is shown only while
    registration is still open on that day (wjpc-2025.txt: it closes 5 days before the start,
    so a championship starting on 25 May never charges it)."""
    clock("2027-05-01T09:00")
    html = client.get(reverse("public:registration:index", args=[wjpc.slug])).content.decode()
    assert "EUR per pair" in html
    assert "EUR per team" in html
    assert "From 1 June 2027" in html
    early = make_championship("wjpc-2025", name="WJPC in May",
                              starts_at=dt.datetime(2027, 5, 25, 9, 0, tzinfo=dt.UTC))
    early.published = True
    early.save()
    html = client.get(reverse("public:registration:index", args=[early.slug])).content.decode()
    assert "Fee if you register today" in html
    assert "From 1 June 2027" not in html
