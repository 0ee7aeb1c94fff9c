"""Optional emails to an entrant's own address when their result is published and when their
dispute is answered: each entrant opts out on their own page, the organiser may turn them off
for the championship, and nothing is sent before the commit."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail
from django.db import transaction
from django.urls import reverse
from django.utils import translation

from puzzlecomp.championships.models import AuditEntry, Entry, Role, Round, RoundState
from puzzlecomp.championships.selectors.rounds import round_results_missing_get
from puzzlecomp.championships.services.disputes import dispute_file, dispute_resolve
from puzzlecomp.championships.services.entrant_mail import entry_emails_choose
from puzzlecomp.championships.services.registration import entrant_link
from puzzlecomp.championships.services.rounds import round_move, round_state_set
from puzzlecomp.live.snapshot import snapshot_cache_clear
from tests.support import published_championship, round_of
from tests.web.test_public_results import enter, finish

NOW = dt.datetime(2027, 7, 1, 12, 0, tzinfo=dt.UTC)


@pytest.fixture(autouse=True)
def _fresh_snapshots():
    snapshot_cache_clear()


@pytest.fixture
def provisional(db, clock) -> Round:
    """An individual first round with provisional results: Ben first, Ana second; Carla
    seated without a result."""
    championship = published_championship("Walk 2027", starts_at=NOW - dt.timedelta(hours=3),
                                          venue="Brno & Líšeň")
    rnd = round_of(championship, "individual", "first")
    round_state_set(round=rnd, state=RoundState.RUNNING, starts_at=NOW - dt.timedelta(hours=2))
    finish(rnd, enter(rnd, 1, "Ana Nováková", "CZ", table=1), 3000)
    finish(rnd, enter(rnd, 2, "Ben Berg", "NO", table=2), 2900)
    enter(rnd, 3, "Carla Garcia", "ES", table=3)
    round_state_set(round=rnd, state=RoundState.PROVISIONAL)
    return rnd


def entry(rnd: Round, number: int) -> Entry:
    return rnd.event.entries.get(number=number)


def publish(rnd: Round, capture) -> list:
    with capture(execute=True):
        # Entrants seated without a result are published knowingly (rules/guards.py).
        round_move(round=rnd, to=RoundState.PUBLISHED, now=NOW,
                   knowingly=len(round_results_missing_get(rnd)))
    return mail.outbox


def test_publishing_emails_each_entrant_their_place_and_result(
        provisional, django_capture_on_commit_callbacks):
    sent = publish(provisional, django_capture_on_commit_callbacks)
    assert [m.to for m in sent] == [["contact1@private.example"], ["contact2@private.example"]]
    ana = sent[0]
    assert ana.subject == "Walk 2027: your result in Individual, First round"
    assert "Hello Ana Nováková," in ana.body
    # The championship, its date and venue (plain text: nothing escaped).
    assert "Walk 2027 · 1 July 2027 · Brno & Líšeň" in ana.body
    assert "Place 2 in group A · 0:50:00" in ana.body
    assert "you may dispute your result on your page until 1 July 2027, 16:00" in ana.body
    assert entrant_link(entry(provisional, 1)) in ana.body
    assert "Place 1 in group A · 0:48:20" in sent[1].body


def test_an_entrant_who_opts_out_on_their_page_gets_none(
        client, provisional, django_capture_on_commit_callbacks):
    ana = entry(provisional, 1)
    page = reverse("public:disputes:entrant", args=[provisional.event.championship.slug,
                                                     ana.token])
    assert "Stop these emails" in client.get(page).content.decode()
    response = client.post(reverse("public:disputes:emails",
                                   args=[provisional.event.championship.slug, ana.token]),
                           {"wanted": "0"})
    assert response.status_code == 302
    assert "Email me my results" in client.get(page).content.decode()
    audit = AuditEntry.objects.get(action="puzzlecomp.entry.emails_chosen")
    assert audit.data == {"entry": 1, "event": "individual", "wanted": False}
    sent = publish(provisional, django_capture_on_commit_callbacks)
    assert [m.to for m in sent] == [["contact2@private.example"]]


def test_opting_in_again_brings_the_emails_back(provisional,
                                                django_capture_on_commit_callbacks):
    ana = entry(provisional, 1)
    entry_emails_choose(entry=ana, wanted=False)
    entry_emails_choose(entry=ana, wanted=True)
    assert AuditEntry.objects.filter(action="puzzlecomp.entry.emails_chosen").count() == 2
    assert len(publish(provisional, django_capture_on_commit_callbacks)) == 2


def test_choosing_what_is_chosen_already_writes_nothing(provisional):
    entry_emails_choose(entry=entry(provisional, 1), wanted=True)
    assert not AuditEntry.objects.filter(action="puzzlecomp.entry.emails_chosen").exists()


def test_the_organiser_turns_them_off_for_everyone(
        client, client_as, provisional, django_capture_on_commit_callbacks):
    championship = provisional.event.championship
    organiser = client_as(championship, Role.ORGANISER)
    form = reverse("control:setup:emails", args=[championship.slug])
    assert 'name="enabled"' in organiser.get(form).content.decode()
    assert organiser.post(form, {}).status_code == 302
    championship.refresh_from_db()
    assert championship.entrant_emails is False
    assert AuditEntry.objects.filter(action="puzzlecomp.championship.entrant_emails_set",
                                     data__enabled=False).exists()
    assert "Entrants are not emailed their results" in organiser.get(
        reverse("control:setup:index", args=[championship.slug])).content.decode()
    assert publish(provisional, django_capture_on_commit_callbacks) == []
    page = client.get(reverse("public:disputes:entrant",
                              args=[championship.slug, entry(provisional, 1).token]))
    assert "The organiser sends no emails of results" in page.content.decode()
    assert organiser.post(form, {"enabled": "on"}).status_code == 302
    championship.refresh_from_db()
    assert championship.entrant_emails is True


def test_a_publication_rolled_back_mails_no_one(provisional,
                                                django_capture_on_commit_callbacks):
    def publish_then_fail() -> None:
        with transaction.atomic():
            round_move(round=provisional, to=RoundState.PUBLISHED, now=NOW,
                       knowingly=len(round_results_missing_get(provisional)))
            raise RuntimeError("the request failed after the publication")

    with django_capture_on_commit_callbacks(execute=True), pytest.raises(RuntimeError):
        publish_then_fail()
    assert mail.outbox == []


def test_the_email_is_in_the_language_of_the_publication(provisional,
                                                         django_capture_on_commit_callbacks):
    with translation.override("cs"):
        sent = publish(provisional, django_capture_on_commit_callbacks)
    assert "Walk 2027: váš výsledek" in sent[0].subject


def test_each_entrant_is_written_to_in_the_language_they_registered_in(
        provisional, django_capture_on_commit_callbacks):
    """Issue 24 review: a result email follows the language the entry registered in, not the
    language of the head judge who publishes; an entry added by the organiser (no language
    of its own) gets the publisher's."""
    Entry.objects.filter(event=provisional.event, number=1).update(language="cs")
    Entry.objects.filter(event=provisional.event, number=2).update(language="es")
    with translation.override("en"):
        sent = publish(provisional, django_capture_on_commit_callbacks)
    by_address = {m.to[0]: m for m in sent}
    assert "Walk 2027: váš výsledek" in by_address["contact1@private.example"].subject
    assert "Walk 2027: tu resultado" in by_address["contact2@private.example"].subject
    assert translation.get_language() == "en"


def test_the_registration_keeps_the_language_it_was_made_in(client, submit, clock,
                                                            make_championship):
    from tests.web.test_registration_public import WJPC_START, person, register

    championship = make_championship("wjpc-2025", starts_at=WJPC_START)
    championship.published = True
    championship.save()
    client.cookies["django_language"] = "es"
    register(submit, championship, "individual", person())
    assert Entry.objects.get().language == "es"


@pytest.fixture
def disputed(provisional, django_capture_on_commit_callbacks):
    publish(provisional, django_capture_on_commit_callbacks)
    mail.outbox.clear()
    return dispute_file(entry=entry(provisional, 1), round=provisional, text="My time was 49:00",
                        now=NOW)


def test_the_answer_to_a_dispute_names_the_championship_its_date_and_venue(
        disputed, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        dispute_resolve(dispute=disputed, uphold=False, resolution="The video agrees.")
    assert [m.to for m in mail.outbox] == [["contact1@private.example"]]
    assert "Walk 2027 · 1 July 2027 · Brno & Líšeň" in mail.outbox[0].body
    assert "You can turn them off on your page." in mail.outbox[0].body


def test_no_answer_is_mailed_to_an_entrant_who_opted_out(
        disputed, django_capture_on_commit_callbacks):
    entry_emails_choose(entry=entry(disputed.round, 1), wanted=False)
    with django_capture_on_commit_callbacks(execute=True):
        dispute_resolve(dispute=disputed, uphold=False, resolution="The video agrees.")
    assert mail.outbox == []
