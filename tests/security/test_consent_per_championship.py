"""Consent is per championship (issue 22, finding 1; docs/people.md, Consent): each entry member
carries the consent its registrant gave for that championship, and a merge of people never
changes it.

GDPR Art. 7 (consent is given for a purpose, here one championship's publication) and ASVS
V8.3.1 (personal data shown only as consented)."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.urls import reverse

from puzzlecomp.championships.models import Person, RoundState, Seat
from puzzlecomp.championships.services.archive import invented_name
from puzzlecomp.championships.services.importing import entries_import
from puzzlecomp.championships.services.people import person_merge
from puzzlecomp.championships.services.rounds import round_state_set
from puzzlecomp.live.snapshot import snapshot_cache_clear
from tests.web.test_person_pages import archive, get, live_round, name_of  # noqa: F401
from tests.web.test_public_results import finish

pytestmark = pytest.mark.django_db


def test_a_merge_of_a_non_consenting_entrant_leaves_the_archive_public_and_withholds_the_new(
        client, live_round):  # noqa: F811
    """The reviewer's attack: an organiser of championship B imported an entrant without
    consent to publication and merged it into an archived competitor who consented; the
    archived person's page answered 404 and their name left the archive's pages."""
    fast = name_of("Pfast")
    first, last = invented_name("Pfast")
    entries_import(event=live_round.event, by=None, rows=[(2, {
        "entry": "", "first_name": first, "last_name": last, "nationality": "ES",
        "email": "b@example.org", "consent_publish": "no"})])
    entry = live_round.event.entries.get()
    entry.group = "A"
    entry.save(update_fields=["group"])
    Seat.objects.create(round=live_round, entry=entry, group="A", table=1)
    finish(live_round, entry, 2800)
    newcomer = entry.members.get().person
    kept = Person.objects.get(archive_id="Pfast")
    person_merge(keep=kept, other=newcomer, reason="Same person, says the organiser", user=None)
    round_state_set(round=live_round, state=RoundState.FINAL)
    snapshot_cache_clear()
    cache.clear()
    # The archive's results stay public with the name the archive's registrants allowed.
    page = get(client, "person", kept.pk)
    assert fast in page
    assert "WJPC 2023" in page
    for html in (get(client, "ranking", "wjpc", "individual"), get(client, "records"),
                 get(client, "country", "ESP")):
        assert fast in html
    # Championship B's result stays withheld: not on the person page, not named in B.
    assert live_round.event.championship.name not in page
    entrant = client.get(reverse("public:live:entrant", args=[
        live_round.event.championship.slug, "individual", 1])).content.decode()
    results = client.get(reverse("public:live:round", args=[
        live_round.event.championship.slug, live_round.pk])).content.decode()
    for html in (entrant, results):
        assert last not in html
        assert "Name not published" in html
