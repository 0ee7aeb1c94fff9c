"""A ruleset's words in the visitor's language on the public pages, and an organiser's own name
for an event shown as typed, everywhere and after a championship file's round trip."""

from __future__ import annotations

import json

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone, translation

from puzzlecomp.championships.models import AuditEntry, Notice, Role, RoundState
from puzzlecomp.championships.services.interchange import championship_export, championship_import
from puzzlecomp.championships.services.rounds import round_state_set
from puzzlecomp.championships.services.settings import SetupError, event_update
from puzzlecomp.live.snapshot import snapshot_cache_clear
from puzzlecomp.translations import compile_catalogs
from tests.support import round_of
from tests.web.test_public_results import enter, finish, published


@pytest.fixture(autouse=True)
def _catalogs_and_fresh_pages():
    compile_catalogs()
    translation.trans_real._translations = {}  # reload the freshly compiled catalogs
    snapshot_cache_clear()
    cache.clear()


@pytest.fixture
def czech(make_championship):
    return published(make_championship, "czech-championship")


def get(client, name: str, *args, language: str) -> str:
    response = client.get(reverse(name, args=args), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


def test_a_czech_visitor_reads_the_events_and_the_condition_in_czech(client, czech):
    """czech-championship.txt: the official ranking is for a registered address in the Czech
    Republic; a visitor reading Czech reads that, and the events, in Czech."""
    page = get(client, "public:registration:index", czech.slug, language="cs")
    for words in ("<h3>Jednotlivci</h3>", "<h3>Dvojice</h3>", "<h3>Týmy</h3>",
                  "Trvalý pobyt v České republice"):
        assert words in page
    assert "Registered address" not in page
    assert ">Individual<" not in page
    form = get(client, "public:registration:register", czech.slug, "pairs", language="cs")
    assert "Dvojice" in form
    assert "Trvalý pobyt v České republice" in form
    english = get(client, "public:registration:index", czech.slug, language="en")
    assert "<h3>Pairs</h3>" in english
    assert "Registered address in the Czech Republic" in english


def test_a_czech_visitor_reads_the_round_and_the_next_round_in_czech(client, czech):
    rnd = round_of(czech, "individual", "qualification")
    round_state_set(round=rnd, state=RoundState.RUNNING)
    finish(rnd, enter(rnd, 1, "Petr Novak", "CZ"), 2000)
    finish(rnd, enter(rnd, 2, "Hugo Weber", "DE"), 1900)
    page = get(client, "public:live:round", czech.slug, rnd.pk, language="cs")
    assert "Jednotlivci · Kvalifikace" in page
    assert "Trvalý pobyt v České republice" in page  # what the official place ranks
    assert "Finále" in page  # the next round of the qualifiers
    spanish = get(client, "public:live:round", czech.slug, rnd.pk, language="es")
    assert "Individual · Clasificación" in spanish
    listing = get(client, "public:live:index", czech.slug, language="nb")
    assert "Individuell" in listing
    assert "Kvalifisering" in listing


def test_wjpc_subcategories_and_prizes_are_translated_on_the_standings(client, make_championship):
    wjpc = published(make_championship, "wjpc-2025")
    event = wjpc.events.get(code="individual")
    event.standings_published_at = timezone.now()
    event.save()
    page = get(client, "public:standings:event", wjpc.slug, "individual", language="cs")
    assert "Junioři 18" in page
    assert "Senioři A" in page
    assert "Debutanti" in page


def test_an_organiser_renames_an_event_and_everyone_reads_the_new_name(client, czech,
                                                                      client_as):
    organiser = client_as(czech, Role.ORGANISER)
    seq = czech.live_seq
    response = organiser.post(reverse("control:setup:event", args=[czech.slug, "individual"]),
                              {"name": "  Jednotlivci open  ", "capacity": "150",
                               "fee_per": "entry"})
    assert response.status_code == 302
    event = czech.events.get(code="individual")
    assert event.name == "Jednotlivci open"
    audit = AuditEntry.objects.get(championship=czech, action="puzzlecomp.event.changed")
    assert audit.data["changes"]["name"] == ["Individual", "Jednotlivci open"]
    assert Notice.objects.filter(championship=czech, seq__gt=seq).exists()
    # The organiser's name in every language, instead of the ruleset's translated one.
    for language in ("en", "cs", "es"):
        assert "Jednotlivci open" in get(client, "public:registration:index", czech.slug,
                                           language=language)
    rnd = round_of(czech, "individual", "qualification")
    assert "Jednotlivci open · Kvalifikace" in get(client, "public:live:round", czech.slug,
                                                    rnd.pk, language="cs")
    # The file carries the organiser's name to another server.
    copied = championship_import(json.loads(json.dumps(championship_export(czech))),
                                 slug="czech-copy", user=None)
    copied.published = True
    copied.save()
    assert copied.events.get(code="individual").name == "Jednotlivci open"
    english = get(client, "public:championship", "czech-copy", language="en")
    assert "Jednotlivci open" in english
    assert "<strong>Pairs</strong>" in english


def test_a_blank_name_gives_the_event_back_its_ruleset_name(czech, client_as):
    organiser = client_as(czech, Role.ORGANISER)
    address = reverse("control:setup:event", args=[czech.slug, "pairs"])
    for typed, stored in (("Dvojice open", "Dvojice open"), ("   ", "Pairs")):
        response = organiser.post(address, {"name": typed, "capacity": "", "fee_per": "entry"})
        assert response.status_code == 302
        assert czech.events.get(code="pairs").name == stored
    with pytest.raises(SetupError) as refused:
        event_update(event=czech.events.get(code="pairs"), by=None, capacity=None, name=" ")
    assert refused.value.code == "event.blank_name"


def test_the_api_keeps_the_stored_name_and_adds_the_name_in_the_requested_language(client,
                                                                                 czech):
    response = client.get(f"/api/v1/championships/{czech.slug}", HTTP_ACCEPT_LANGUAGE="cs")
    individual = response.json()["events"][0]
    assert (individual["name"], individual["display_name"]) == ("Individual", "Jednotlivci")
    assert [(r["name"], r["display_name"]) for r in individual["rounds"]] == [
        ("Qualification", "Kvalifikace"), ("Final", "Finále")]
    english = client.get(f"/api/v1/championships/{czech.slug}").json()["events"][0]
    assert english["display_name"] == "Individual"


def test_the_awards_say_in_czech_who_may_take_the_prizes(client, czech):
    """czech-championship.txt: the medals go to the official ranking only."""
    # Prizes are named once the final is final (rules/prizes.py).
    rnd = round_of(czech, "individual", "final")
    round_state_set(round=rnd, state=RoundState.RUNNING)
    finish(rnd, enter(rnd, 1, "Petr Novak", "CZ"), 2000)
    finish(rnd, enter(rnd, 2, "Hugo Weber", "DE"), 1900)
    round_state_set(round=rnd, state=RoundState.FINAL)
    czech.events.filter(code="individual").update(standings_published_at=timezone.now())
    page = get(client, "public:standings:event", czech.slug, "individual", language="cs")
    assert ("Ceny jen pro soutěžící, kteří splňují: Trvalý pobyt v České republice."
            in page)
    assert "puzzle a drobný dárek" in page  # the prize, beside the trophy


def test_the_australian_states_are_offered_in_the_visitors_language(client, make_championship):
    australian = published(make_championship, "australia-state")
    form = get(client, "public:registration:register", australian.slug, "individual",
               language="es")
    assert '<option value="NSW">Nueva Gales del Sur</option>' in form
    assert '<option value="WA">Australia Occidental</option>' in form


def test_the_organiser_reads_the_ruleset_words_in_their_language_too(czech, client_as):
    organiser = client_as(czech, Role.ORGANISER)
    for name in ("control:setup:index", "control:rounds:index", "control:registrations:index"):
        response = organiser.get(reverse(name, args=[czech.slug]), HTTP_ACCEPT_LANGUAGE="cs")
        assert response.status_code == 200
        page = response.content.decode()
        assert "Jednotlivci" in page, name
        assert "Dvojice" in page, name
