"""Disputes: a competitor disputes their own published result through their private link, in
the ruleset's window; the head judge resolves it; final results wait for every dispute."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.core import mail
from django.urls import reverse

from puzzlecomp.championships.models import (
    Dispute,
    DisputeStatus,
    Entry,
    Notice,
    Result,
    ResultChange,
    Role,
    Round,
    RoundState,
)
from puzzlecomp.championships.services.disputes import (
    dispute_file,
    dispute_resolve,
)
from puzzlecomp.championships.services.results import ResultValues
from puzzlecomp.championships.services.rounds import round_move, round_state_set
from puzzlecomp.live.snapshot import round_snapshot_cached, snapshot_cache_clear
from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.results import Status
from tests.web import test_live_control
from tests.web.test_live_control import finish, group_entries, live_url

PUBLISHED = dt.datetime(2027, 7, 1, 14, 0, tzinfo=dt.UTC)

# The site's clock is frozen before anyone signs in, so sessions outlive its moves.
pytestmark = pytest.mark.usefixtures("clock")



@pytest.fixture(autouse=True)
def _fresh_snapshots():
    # The frozen clock gives every test's championship the same creation time and ids are
    # reused: a ranking snapshot built by an earlier test would look current.
    snapshot_cache_clear()


# The round fixtures of the head judge's screens.
seated = test_live_control.seated
relay_round = test_live_control.relay_round


@pytest.fixture
def published(seated, clock) -> Round:
    """Group A's results published at 14:00: entry 1 of the group fastest, entry 2 next."""
    round_state_set(round=seated, state=RoundState.COUNTING,
                    starts_at=PUBLISHED - dt.timedelta(hours=2))
    for place, entry in enumerate(group_entries(seated)):
        finish(seated, entry, 3000 + place * 100)
    round_state_set(round=seated, state=RoundState.PROVISIONAL)
    clock("2027-07-01T14:00")
    round_state_set(round=seated, state=RoundState.PUBLISHED)
    assert seated.published_at == PUBLISHED
    return seated


def entrant_url(entry: Entry) -> str:
    return reverse("public:disputes:entrant", args=[entry.event.championship.slug, entry.token])


def file_through_link(client, entry: Entry, rnd: Round, text: str = "My time was 49:00"):
    return client.post(entrant_url(entry), {"round": rnd.pk, "text": text}, follow=True)


def ranking_line(rnd: Round, entry: Entry) -> dict:
    lines = json.loads(round_snapshot_cached(rnd).body)["lines"]
    return next(line for line in lines if line["entry"] == entry.number)


def test_the_private_link_shows_the_entrants_own_published_result_and_the_window(
        client, published, clock):
    mine = group_entries(published)[0]
    page = client.get(entrant_url(mine))
    text = page.content.decode()
    assert page["X-Robots-Tag"] == "noindex"
    assert "0:50:00" in text  # entry `mine` finished in 3000 s
    assert "0:51:40" not in text  # someone else's time is not on the page
    assert "You may dispute this result until" in text
    assert 'name="text"' in text


def test_a_dispute_filed_3h59_after_publication_is_accepted(client, published, clock):
    """wjpc-2025.txt, Disputes and Reviews: within 4 hours of the results being posted."""
    entry = group_entries(published)[0]
    clock("2027-07-01T17:59")
    page = file_through_link(client, entry, published).content.decode()
    dispute = Dispute.objects.get(entry=entry, round=published)
    assert f"Dispute #{dispute.pk} is filed" in page
    assert (dispute.status, dispute.text) == (DisputeStatus.OPEN, "My time was 49:00")
    assert Notice.objects.filter(round=published, kind="dispute").exists()


def test_a_dispute_filed_4h01_after_publication_is_refused(client, published, clock):
    """wjpc-2025.txt, Disputes and Reviews: within 4 hours of the results being posted."""
    entry = group_entries(published)[0]
    clock("2027-07-01T18:01")
    page = file_through_link(client, entry, published).content.decode()
    assert "Disputes of this round closed at" in page
    assert not Dispute.objects.exists()
    assert 'name="text"' not in page  # and the form is gone


def test_a_dispute_is_only_filed_on_a_published_round(client, published, clock):
    round_state_set(round=published, state=RoundState.PROVISIONAL)
    entry = group_entries(published)[0]
    with pytest.raises(RulesError) as refused:
        dispute_file(entry=entry, round=published, text="Wrong time")
    assert refused.value.code == "dispute.round_not_published"
    page = file_through_link(client, entry, published).content.decode()
    assert "None of your results is published yet." in page
    assert not Dispute.objects.exists()


def test_a_dispute_is_only_on_the_entrants_own_result(client, championship, published, clock):
    """The link's token names the entry: nobody disputes another entrant's result."""
    mine = group_entries(published)[0]
    unplaced = Entry.objects.create(event=published.event, number=999, name="Late entry",
                                    status="confirmed")
    with pytest.raises(RulesError) as refused:
        dispute_file(entry=unplaced, round=published, text="Wrong time")
    assert refused.value.code == "dispute.no_result"
    page = file_through_link(client, unplaced, published).content.decode()
    assert "There is no result of yours in this round to dispute." in page
    # Another event's round is not the entrant's, whatever the form says.
    pairs_round = Round.objects.get(event__championship=championship, event__code="pairs",
                                    code="first")
    response = client.post(entrant_url(mine), {"round": pairs_round.pk, "text": "x"})
    assert response.status_code == 404
    # A token of another championship does not open this one's page.
    assert client.get(reverse("public:disputes:entrant",
                              args=["another", mine.token])).status_code == 404
    assert not Dispute.objects.exists()


def test_one_open_dispute_per_entry_and_round(client, published, clock):
    entry = group_entries(published)[0]
    file_through_link(client, entry, published)
    page = file_through_link(client, entry, published, "And the pieces").content.decode()
    assert "You already have an open dispute of this round" in page
    assert Dispute.objects.count() == 1


def test_a_dispute_needs_its_text(client, published, clock):
    entry = group_entries(published)[0]
    page = file_through_link(client, entry, published, "   ").content.decode()
    assert "This field is required." in page
    assert not Dispute.objects.exists()


def test_final_results_wait_for_the_dispute_window(published, clock):
    """wjpc-2025.txt, Disputes and Reviews: the 4 hours after posting belong to disputes."""
    clock("2027-07-01T17:00")
    with pytest.raises(RulesError) as refused:
        round_move(round=published, to=RoundState.FINAL)
    assert refused.value.code == "round.dispute_window_open"
    clock("2027-07-01T18:00")
    assert round_move(round=published, to=RoundState.FINAL).state == "final"


def test_final_results_are_refused_while_a_dispute_is_open(championship, client_as, published,
                                                           clock):
    """The head judge resolves every dispute before the results become final."""
    head_judge = client_as(championship, Role.HEAD_JUDGE)
    entry = group_entries(published)[0]
    clock("2027-07-01T17:00")
    dispute = dispute_file(entry=entry, round=published, text="My time was 49:00")
    clock("2027-07-01T18:30")
    page = head_judge.post(live_url("move", published, "final"), follow=True).content.decode()
    assert "1 disputes are still open" in page
    published.refresh_from_db()
    assert published.state == RoundState.PUBLISHED
    dispute_resolve(dispute=dispute, uphold=False, resolution="The sheet says 50:00.")
    head_judge.post(live_url("move", published, "final"))
    published.refresh_from_db()
    assert published.state == RoundState.FINAL


def resolve_form(dispute: Dispute, **fields: object) -> dict[str, object]:
    prefix = f"dispute-{dispute.pk}-"
    data = {"decision": "correct", "resolution": "The judge's sheet shows 49:00.",
            "status": "finished", "time": "49:00", "missing": "0", "missing_contiguous": "0",
            "missing_found": "0", "checked": "on", "base_version": "1", **fields}
    return {prefix + name: value for name, value in data.items()}


def test_upholding_a_dispute_corrects_the_result_and_the_ranking(
        championship, client_as, published, clock, django_capture_on_commit_callbacks):
    """wjpc-2025.txt, Disputes and Reviews: a review of the recorded time; the ranking is the
    engine's from the corrected result."""
    head_judge = client_as(championship, Role.HEAD_JUDGE)
    first, second = group_entries(published)[:2]
    assert (ranking_line(published, first)["rank"], ranking_line(published, second)["rank"]) \
        == (1, 2)
    clock("2027-07-01T15:00")
    dispute = dispute_file(entry=second, round=published, text="I finished at 49:00")
    queue = head_judge.get(live_url("map", published)).content.decode()
    assert f'data-dispute="{dispute.pk}"' in queue
    with django_capture_on_commit_callbacks(execute=True):
        response = head_judge.post(live_url("dispute_resolve", published, dispute.pk),
                                   resolve_form(dispute))
    assert response.status_code == 302
    dispute.refresh_from_db()
    assert dispute.status == DisputeStatus.UPHELD
    assert dispute.resolved_by.username.startswith("head_judge")
    row = Result.objects.get(round=published, entry=second)
    assert (row.time_seconds, row.version) == (49 * 60, 2)
    change = ResultChange.objects.get(round=published, entry=second, version=2)
    assert change.reason == f"dispute #{dispute.pk}: The judge's sheet shows 49:00."
    assert (ranking_line(published, second)["rank"], ranking_line(published, first)["rank"]) \
        == (1, 2)
    assert [m.to for m in mail.outbox] == [[second.contact_email]]
    assert "Your dispute was upheld." in mail.outbox[0].body
    assert second.token in mail.outbox[0].body
    assert f'data-dispute="{dispute.pk}"' not in head_judge.get(
        live_url("map", published)).content.decode()


def test_rejecting_a_dispute_keeps_the_result_and_tells_the_competitor(
        championship, client_as, published, clock, django_capture_on_commit_callbacks):
    head_judge = client_as(championship, Role.HEAD_JUDGE)
    entry = group_entries(published)[1]
    dispute = dispute_file(entry=entry, round=published, text="I finished at 49:00")
    with django_capture_on_commit_callbacks(execute=True):
        head_judge.post(live_url("dispute_resolve", published, dispute.pk),
                        resolve_form(dispute, decision="reject", time="",
                                     resolution="The video shows 51:40."))
    dispute.refresh_from_db()
    assert (dispute.status, dispute.resolution) == (DisputeStatus.REJECTED,
                                                    "The video shows 51:40.")
    assert Result.objects.get(round=published, entry=entry).version == 1
    assert "Your dispute was rejected." in mail.outbox[0].body
    page = file_through_link(head_judge, entry, published, "x").content.decode()
    assert "The video shows 51:40." in page  # the competitor's page shows the answer


def test_the_rulings_email_is_in_the_entrys_own_language(
        championship, client_as, published, clock, django_capture_on_commit_callbacks):
    """Review of issue 24: a Czech entrant reads the ruling in Czech, whatever language the
    head judge's screen is in."""
    head_judge = client_as(championship, Role.HEAD_JUDGE)
    entry = group_entries(published)[1]
    Entry.objects.filter(pk=entry.pk).update(language="cs")
    dispute = dispute_file(entry=entry, round=published, text="Dokončil jsem v 49:00")
    with django_capture_on_commit_callbacks(execute=True):
        head_judge.post(live_url("dispute_resolve", published, dispute.pk),
                        resolve_form(dispute, decision="reject", time="",
                                     resolution="The video shows 51:40."),
                        HTTP_ACCEPT_LANGUAGE="en")
    assert "Vaše námitka byla zamítnuta." in mail.outbox[0].body


@pytest.fixture
def catalogs():
    import gettext

    from django.utils import translation

    from puzzlecomp.translations import compile_catalogs

    compile_catalogs()
    # Reload the freshly compiled catalogs: Django's cache and Python's own (gettext caches
    # each .mo file it read, so a catalog loaded earlier in the session would stay stale).
    gettext._translations.clear()  # type: ignore[attr-defined]
    translation.trans_real._translations = {}


def test_the_rulings_reason_in_the_history_is_in_the_readers_language(
        catalogs, championship, client_as, published, clock):
    """Review of issue 24: the stored reason "dispute #n: ..." is shown in Czech on Czech
    screens (the history and the dispute's own history)."""
    head_judge = client_as(championship, Role.HEAD_JUDGE)
    entry = group_entries(published)[1]
    dispute = dispute_file(entry=entry, round=published, text="I finished at 49:00")
    head_judge.post(live_url("dispute_resolve", published, dispute.pk), resolve_form(dispute))
    head_judge.cookies["django_language"] = "cs"
    page = head_judge.get(live_url("history", published, entry.number)).content.decode()
    assert f"námitka č. {dispute.pk}: The judge&#x27;s sheet shows 49:00." in page
    assert f"dispute #{dispute.pk}" not in page


def test_the_spanish_entrants_page_speaks_formally_throughout(catalogs, published, client):
    """Review of issue 24: one register on the entrant's page and its dispute form, "usted"
    (no "Tu código" beside "Su reclamación")."""
    import re

    entry = group_entries(published)[1]
    dispute_file(entry=entry, round=published, text="Terminé en 49:00")
    client.cookies["django_language"] = "es"
    page = client.get(entrant_url(entry)).content.decode()
    assert "Su código para la acreditación" in page
    assert "Sus resultados" in page
    assert "Lo que escribió" in page
    informal = re.findall(r"\b(?:tu|tus|te|puedes|viste|indica|recibes)\b", page,
                          re.I)
    assert informal == []


def test_a_dispute_is_resolved_once(published, clock):
    entry = group_entries(published)[0]
    dispute = dispute_file(entry=entry, round=published, text="Wrong")
    dispute_resolve(dispute=dispute, uphold=False, resolution="Checked.")
    with pytest.raises(RulesError) as refused:
        dispute_resolve(dispute=dispute, uphold=True, resolution="Again")
    assert refused.value.code == "dispute.already_resolved"


def test_a_rejected_dispute_cannot_change_the_result(published, clock):
    entry = group_entries(published)[0]
    dispute = dispute_file(entry=entry, round=published, text="Wrong")
    with pytest.raises(RulesError) as refused:
        dispute_resolve(dispute=dispute, uphold=False, resolution="No",
                        correction=ResultValues(status=Status.FINISHED, time_seconds=10))
    assert refused.value.code == "dispute.correction_needs_uphold"
    assert Result.objects.get(round=published, entry=entry).version == 1


def test_a_resolution_needs_an_answer(championship, client_as, published, clock):
    head_judge = client_as(championship, Role.HEAD_JUDGE)
    dispute = dispute_file(entry=group_entries(published)[0], round=published, text="Wrong")
    page = head_judge.post(live_url("dispute_resolve", published, dispute.pk),
                           resolve_form(dispute, resolution="")).content.decode()
    assert "This field is required." in page
    dispute.refresh_from_db()
    assert dispute.status == DisputeStatus.OPEN


def test_a_correction_of_a_result_changed_meanwhile_leaves_the_dispute_open(
        championship, client_as, published, clock, django_capture_on_commit_callbacks):
    head_judge = client_as(championship, Role.HEAD_JUDGE)
    entry = group_entries(published)[0]
    dispute = dispute_file(entry=entry, round=published, text="Wrong")
    finish(published, entry, 3005)  # a judge rewrote the result: version 2
    with django_capture_on_commit_callbacks(execute=True):
        page = head_judge.post(live_url("dispute_resolve", published, dispute.pk),
                               resolve_form(dispute)).content.decode()
    assert "The result changed while you were correcting it (now version 2" in page
    assert f'name="dispute-{dispute.pk}-base_version" value="2"' in page
    dispute.refresh_from_db()
    assert dispute.status == DisputeStatus.OPEN
    assert Result.objects.get(round=published, entry=entry).time_seconds == 3005
    assert not mail.outbox


def test_a_judge_sees_the_disputes_but_only_the_head_judge_resolves_them(
        championship, client_as, published, clock):
    judge = client_as(championship, Role.JUDGE)
    dispute = dispute_file(entry=group_entries(published)[0], round=published, text="Wrong")
    page = judge.get(live_url("disputes", published)).content.decode()
    assert "Wrong" in page
    assert "Resolve the dispute" not in page
    assert judge.post(live_url("dispute_resolve", published, dispute.pk),
                      resolve_form(dispute)).status_code == 403
    dispute.refresh_from_db()
    assert dispute.status == DisputeStatus.OPEN


def test_without_a_window_in_the_ruleset_disputes_run_until_the_results_are_final(
        client, relay_round, clock):
    """czech-blind-and-relay.txt sets no dispute window: the head referee decides disputes
    while the results are published, and they become final when none is open."""
    team = Entry.objects.get(event=relay_round.event, number=1)
    finish(relay_round, team, 3 * 3600)
    round_state_set(round=relay_round, state=RoundState.PUBLISHED)
    clock("2027-07-09T12:00")
    dispute = dispute_file(entry=team, round=relay_round, text="Puzzle 4 was complete")
    with pytest.raises(RulesError):
        round_move(round=relay_round, to=RoundState.FINAL)
    dispute_resolve(dispute=dispute, uphold=False, resolution="It was not.")
    assert round_move(round=relay_round, to=RoundState.FINAL).state == "final"



def test_a_ruling_for_an_entry_without_an_email_says_to_tell_them_in_person(
        championship, client_as, published, clock, django_capture_on_commit_callbacks):
    """Issue 24: the confirmation claimed an email went to a team with no address. The ruling
    stands; no email is sent and the head judge is told to give it in person."""
    head_judge = client_as(championship, Role.HEAD_JUDGE)
    entry = group_entries(published)[0]
    Entry.objects.filter(pk=entry.pk).update(contact_email="")
    for member in entry.members.all():
        member.person.email = ""
        member.person.save(update_fields=["email"])
    dispute = dispute_file(entry=entry, round=published, text="Wrong")
    with django_capture_on_commit_callbacks(execute=True):
        page = head_judge.post(live_url("dispute_resolve", published, dispute.pk),
                               resolve_form(dispute, decision="reject"),
                               follow=True).content.decode()
    assert "told by email" not in page
    assert f"No email goes to entry {entry.number}" in page
    assert "tell them the ruling in person" in page
    assert not mail.outbox
    dispute.refresh_from_db()
    assert dispute.status == DisputeStatus.REJECTED
