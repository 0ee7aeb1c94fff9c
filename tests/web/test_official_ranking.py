"""The official ranking to the end (issue 24, 3): where a ruleset has one (Norway: citizens or
5 years' residents; Czech: residents), the standings, the championship page's podium, the
ceremony list, the certificates, the result emails and the API carry the official place
beside the overall place, and the title follows the official place. Years of residence are
asked at registration and corrected by an organiser with a reason."""

from __future__ import annotations

import datetime as dt
import io
import re

import pytest
from django.urls import reverse
from pypdf import PdfReader

from puzzlecomp.championships.models import (
    AuditEntry,
    Championship,
    Entry,
    EntryMember,
    Person,
    Role,
    Round,
    RoundState,
)
from puzzlecomp.championships.printing.ceremony import ceremony_list_pdf, certificates_pdf
from puzzlecomp.championships.selectors.standings import event_standings_get
from puzzlecomp.championships.services.entrant_mail import result_emails
from puzzlecomp.championships.services.person_facts import (
    PersonFactsRefused,
    member_person_facts_set,
)
from puzzlecomp.championships.services.rounds import round_state_set
from puzzlecomp.championships.services.standings import event_standings_publish
from puzzlecomp.live.snapshot import snapshot_cache_clear
from tests.web.test_public_results import enter, finish, published, round_of

NOW = dt.datetime.now(dt.UTC)


@pytest.fixture(autouse=True)
def _fresh_snapshots():
    snapshot_cache_clear()
    yield
    snapshot_cache_clear()


def norway_final(make_championship) -> Round:
    """The Norwegian individual final: a German first, a Swede living in Oslo second, two
    Norwegians third and fourth."""
    championship = published(make_championship, "norway-nm-2025")
    rnd = round_of(championship, "individual", "final")
    rnd.time_limit_minutes = 120
    rnd.save()
    rnd.puzzles.update(pieces=1000)
    round_state_set(round=rnd, state=RoundState.RUNNING, starts_at=NOW - dt.timedelta(hours=1))
    for number, name, country, seconds in ((1, "Hugo Weber", "DE", 1900),
                                           (2, "Sara Lind", "SE", 2000),
                                           (3, "Sven Olsen", "NO", 2100),
                                           (4, "Nils Hansen", "NO", 2200)):
        finish(rnd, enter(rnd, number, name, country, group=""), seconds)
    return rnd


@pytest.fixture
def final(make_championship) -> Round:
    rnd = norway_final(make_championship)
    round_state_set(round=rnd, state=RoundState.PUBLISHED)
    # Titles come only from a final that is final (wjpc and the NM alike: rules/prizes.py).
    round_state_set(round=rnd, state=RoundState.FINAL)
    return rnd


def swede(rnd: Round) -> EntryMember:
    return EntryMember.objects.select_related("entry__event__championship", "person").get(
        entry__event=rnd.event, entry__number=2)


def test_the_standings_carry_the_official_place_beside_the_overall_place(final, client_as):
    found = event_standings_get(event=final.event)
    rows = found.rows("overall", public=False)
    assert [(r.entry, r.place, r.official_place) for r in rows] == [
        (1, 1, None), (2, 2, None), (3, 3, 1), (4, 4, 2)]
    organiser = client_as(final.event.championship, Role.ORGANISER)
    page = organiser.get(
        f"/control/{final.event.championship.slug}/standings/individual/").content.decode()
    assert re.search(r'<td class="num rank">3</td><td class="num official">1</td>'
                     r'<td class="num number">3</td>', page)
    assert 'id="official-ranking"' in page


def test_the_title_goes_to_the_first_of_the_official_ranking_with_the_overall_place(final):
    found = event_standings_get(event=final.event)
    (title,) = found.award_rows(public=False)
    assert (title.entry, title.place, title.overall_place, title.official_place,
            title.official) == (3, 1, 3, 1, True)


def test_the_api_gives_the_official_place_of_published_standings(final, client):
    event_standings_publish(event=final.event, published=True)
    slug = final.event.championship.slug
    lines = client.get(f"/api/v1/championships/{slug}/events/individual/standings").json()[
        "lines"]
    assert [(line["entry"], line["place"], line["official_place"]) for line in lines] == [
        (1, 1, None), (2, 2, None), (3, 3, 1), (4, 4, 2)]
    awards = client.get(f"/api/v1/championships/{slug}/events/individual/awards").json()[
        "lines"]
    assert [(a["entry"], a["place"], a["overall_place"], a["official"]) for a in awards] == [
        (3, 1, 3, True)]


@pytest.mark.parametrize("standings_published", [False, True])
def test_the_podium_is_the_official_rankings_with_the_overall_place_beside(
        final, client, standings_published):
    if standings_published:
        event_standings_publish(event=final.event, published=True)
    html = client.get(reverse("public:championship",
                              args=[final.event.championship.slug])).content.decode()
    podium = html[html.index('data-podium="individual"'):]
    podium = podium[:podium.index("</article>")]
    assert re.findall(r'<a class="name" href="[^"]*">([^<]*)</a>', podium) == [
        "Sven Olsen", "Nils Hansen"]
    assert re.findall(r'<span class="place">(\d+)</span>', podium) == ["1", "2"]
    assert "overall 3" in podium
    assert "Official ranking: Norwegian citizen, or 5 years" in podium


def test_the_ceremony_list_and_certificate_say_official_and_overall(final):
    found = event_standings_get(event=final.event)
    ceremony = ceremony_list_pdf(found)
    assert ceremony.startswith(b"%PDF")
    certificate = certificates_pdf(found, found.award_rows(public=False), codes={}, verify_url="")
    assert certificate.startswith(b"%PDF")
    listed = "".join(p.extract_text() for p in PdfReader(io.BytesIO(ceremony)).pages)
    assert "Official ranking: Norwegian citizen" in listed
    assert "Overall" in listed
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(certificate)).pages)
    assert "Place 1 in the official ranking" in text
    assert "Overall place 3" in text


def test_the_result_email_names_the_official_place_or_says_outside(final):
    final.event.entries.update(result_emails=True)
    bodies = {m.to[0]: m.body for m in result_emails(final)}
    assert "Place 1 in the official ranking" in bodies["contact3@private.example"]
    assert "Outside the official ranking" in bodies["contact1@private.example"]


def test_a_swede_ten_years_in_oslo_takes_the_title_once_the_organiser_sets_the_years(
        final, client_as):
    """norway-nm-2025.txt: 5 years' residence makes a foreign citizen eligible; only a CSV
    import could set the years before."""
    championship = final.event.championship
    organiser = client_as(championship, Role.ORGANISER)
    member = swede(final)
    address = reverse("control:registrations:person_facts",
                      args=[championship.slug, "individual", 2])
    page = organiser.get(address).content.decode()
    assert "Years of residence in Norway" in page
    assert "This entry is outside the official ranking." in page
    prefix = f"m{member.pk}"
    # Without a reason nothing changes.
    organiser.post(address, {"member": member.pk, f"{prefix}-nationality": "SE",
                             f"{prefix}-years_resident": "10", f"{prefix}-reason": ""})
    member.person.refresh_from_db()
    assert member.person.years_resident is None
    response = organiser.post(address, {
        "member": member.pk, f"{prefix}-nationality": "SE", f"{prefix}-years_resident": "10",
        f"{prefix}-reason": "Lives in Oslo since 2015 (tax certificate seen)"})
    assert response.status_code == 302
    member.person.refresh_from_db()
    assert member.person.years_resident == 10
    audit = AuditEntry.objects.filter(action="puzzlecomp.person.facts_set").latest("pk")
    assert audit.data["before"] == {"years_resident": None}
    assert audit.data["after"] == {"years_resident": 10}
    assert audit.data["reason"] == "Lives in Oslo since 2015 (tax certificate seen)"
    assert audit.user is not None
    (title,) = event_standings_get(event=final.event).award_rows(public=False)
    assert (title.entry, title.place, title.overall_place) == (2, 1, 2)
    assert "This entry is in the official ranking." in organiser.get(address).content.decode()


def test_a_fact_the_ruleset_does_not_declare_or_a_bad_value_is_refused(final):
    member = swede(final)
    with pytest.raises(PersonFactsRefused) as refused:
        member_person_facts_set(member=member, values={"region": "NSW"}, reason="x", user=None)
    assert refused.value.code == "person_facts.not_declared"
    with pytest.raises(PersonFactsRefused) as refused:
        member_person_facts_set(member=member, values={"years_resident": -1}, reason="x",
                                user=None)
    assert refused.value.code == "person_facts.bad_value"
    with pytest.raises(PersonFactsRefused) as refused:
        member_person_facts_set(member=member, values={"years_resident": 3}, reason=" ",
                                user=None)
    assert refused.value.code == "facts.reason_missing"
    member.person.refresh_from_db()
    assert member.person.years_resident is None


def registration_data(**member) -> dict[str, str]:
    return {"m0-first_name": "Sara", "m0-last_name": "Lind", "m0-email": "sara@example.com",
            "m0-birth_date": "1990-05-01", "m0-nationality": "SE", "m0-residence": "NO",
            "m0-consent_publish": "on", **member}


def test_the_norwegian_registration_form_asks_the_years_of_residence(make_championship,
                                                                      client):
    championship = published(make_championship, "norway-nm-2025")
    address = reverse("public:registration:register", args=[championship.slug, "individual"])
    page = client.get(address).content.decode()
    assert 'name="m0-years_resident"' in page
    assert "Years of residence in Norway" in page
    client.post(address, registration_data(**{"m0-years_resident": "10"}))
    person = Person.objects.get(email="sara@example.com")
    assert person.years_resident == 10
    entry = Entry.objects.get(event__championship=championship, members__person=person)
    assert entry.event.code == "individual"


def test_a_ruleset_that_does_not_read_residence_years_does_not_ask(make_championship, client):
    championship: Championship = published(make_championship, "wjpc-2025")
    address = reverse("public:registration:register", args=[championship.slug, "individual"])
    assert 'name="m0-years_resident"' not in client.get(address).content.decode()


def test_the_hall_and_stream_podium_is_the_official_rankings(final, client):
    """Review of issue 24: the projector's and overlay's podium sorted by the overall place,
    so two entrants outside the official ranking stood on the Norwegian title's podium."""
    html = client.get(reverse("public:live:overlay", args=[
        final.event.championship.slug, final.pk, "podium"])).content.decode()
    entries = re.findall(r'data-entry="(\d+)"', html)
    assert entries == ["3", "4"]
    assert re.findall(r'<span class="place">(\d+)</span>', html) == ["1", "2"]
