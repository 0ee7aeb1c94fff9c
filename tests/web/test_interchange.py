"""A whole championship to one versioned JSON file and back (docs/interchange.md): a round trip
keeps everything, a bad file names every problem by its path and imports nothing."""

from __future__ import annotations

import copy
import datetime as dt
import json
from decimal import Decimal
from importlib import resources

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from puzzlecomp.championships.demo import DEMO_SLUG, RELAY_DEMO_SLUG, demo_load
from puzzlecomp.championships.models import (
    AuditEntry,
    Championship,
    CheckIn,
    Dispute,
    DisputeStatus,
    Entry,
    EntryMember,
    Event,
    Membership,
    Person,
    Puzzle,
    Result,
    Role,
    Round,
    RoundState,
    Seat,
)
from puzzlecomp.championships.services.facts import member_fact_override
from puzzlecomp.championships.services.interchange import championship_export, championship_import
from puzzlecomp.championships.services.qualifiers import (
    next_round_create,
    qualifier_withdraw,
    qualifiers_confirm,
)
from puzzlecomp.championships.services.results import ResultValues, result_record, result_submit
from puzzlecomp.championships.services.rounds import round_state_set
from puzzlecomp.formats.interchange import (
    InterchangeError,
    field_path,
    load_json,
    parse_championship_file,
)
from puzzlecomp.rules.results import Status

UPLOAD = "/control/import/"


def problems_of(error: InterchangeError) -> list[str]:
    return [str(p) for p in error.problems]


@pytest.fixture
def lived_in(db) -> Championship:
    """The demo, carried on: the first individual round complete, published, qualifiers
    confirmed with a withdrawal, the second round seated, a dispute, fees, a team's
    two-puzzle result and private details."""
    demo_load(individuals=60, pairs=20, teams=8)
    championship = Championship.objects.get(slug=DEMO_SLUG)
    first = Round.objects.get(event__championship=championship, event__code="individual",
                              code="first")
    done = set(Result.objects.filter(round=first).values_list("entry_id", flat=True))
    for n, seat in enumerate(Seat.objects.filter(round=first).exclude(entry_id__in=done)
                             .select_related("entry")):
        result_record(round=first, entry=seat.entry, status=Status.FINISHED,
                      time_seconds=2000 + n)
    round_state_set(round=first, state=RoundState.PUBLISHED)
    entry = Entry.objects.get(event=first.event, number=7)
    Dispute.objects.create(round=first, entry=entry, text="Ich war schneller — 41:07",
                           status=DisputeStatus.REJECTED, resolution="Video checked",
                           resolved_at=timezone.now())
    qualifiers_confirm(round=first, knowingly=True)
    qualifier_withdraw(round=first, entry_number=3, lapse=True)
    next_round_create(round=first)
    Entry.objects.filter(pk=entry.pk).update(
        fee_amount=Decimal("60.00"), fee_currency="EUR", paid_amount=Decimal("48.00"),
        paid_at=timezone.now(), contact_email="ana@example.org")
    Person.objects.filter(pk=entry.members.get().person_id).update(
        email="ana@example.org", other_nationalities=["ES"], region="CAT", years_resident=4)
    Puzzle.objects.filter(round=first).update(motif="Owls at night")
    Seat.objects.filter(round=first, entry=entry).update(time_credit=45)
    # A grant is written to the seat and the result at once (services/disputes.py).
    Result.objects.filter(round=first, entry=entry).update(time_credit=45)
    CheckIn.objects.create(round=first, entry=entry, status="late", at=timezone.now())
    EntryMember.objects.filter(entry=entry).update(accompanied_by_adult=True)
    Championship.objects.filter(pk=championship.pk).update(
        refund_days_before=20, fee_currency="EUR", registration_opens_at=timezone.now())
    Event.objects.filter(championship=championship, code="teams").update(
        fee_amount=Decimal("100.00"), fee_per="person", fee_early_amount=Decimal("80.00"),
        fee_early_until=dt.date(2025, 5, 31))
    teams = Round.objects.get(event__championship=championship, event__code="teams",
                              code="first")
    team = Entry.objects.filter(event=teams.event).first()
    result_submit(round=teams, entry=team, action="verify", values=ResultValues(
        status=Status.FINISHED, puzzles=[{"time": 5000, "verified": True},
                                         {"time": 9000, "verified": True}], checked=False))
    member_fact_override(member=EntryMember.objects.get(entry=entry), fact="debutant",
                         value=True, reason="First WJPC under this name", user=None)
    Round.objects.filter(pk=first.pk).update(group_difficulty=[
        {"group": "A", "entrants": 10, "rated": 6, "percent": 3.5},
        {"group": "B", "entrants": 10, "rated": 7, "percent": -3.4}])
    championship.refresh_from_db()
    return championship


def without_instance_details(data: dict) -> dict:
    """The document minus what differs between two exports by design."""
    data = copy.deepcopy(data)
    del data["exported_at"]
    del data["championship"]["slug"]
    return data


def test_a_round_trip_keeps_every_stored_field(lived_in, django_user_model):
    owner = django_user_model.objects.create_user(username="mover", password="pw-12345678")
    exported = championship_export(lived_in)
    text = json.dumps(exported)
    copy_of = championship_import(json.loads(text), slug="moved", user=owner)

    again = championship_export(copy_of)
    assert again["championship"]["slug"] == "moved"
    # Issue 22: the file's people are new records; their archive ids stay behind.
    assert not any(p["archive_id"] for p in again["people"])
    for p in exported["people"]:
        p["archive_id"] = None
    # An organiser's import starts unpublished: publishing it is their own step.
    assert exported["championship"]["published"]
    assert not again["championship"]["published"]
    exported["championship"]["published"] = False
    assert without_instance_details(again) == without_instance_details(exported)
    for name, least in (("people", 60), ("entries", 88), ("seats", 88), ("results", 61),
                        ("qualifiers", 60), ("disputes", 1)):
        assert len(exported[name]) >= least, name
    assert sorted(s["time_credit"] for s in again["seats"] if s["time_credit"]) == [45, 90]
    assert [(c["entry"], c["status"]) for c in again["check_ins"]] == [(7, "late")]
    assert again["championship"]["refund_days_before"] == 20
    assert [e["fee_per"] for e in again["events"]] == ["entry", "entry", "person"]
    assert sum(m["accompanied_by_adult"] for e in again["entries"] for m in e["members"]) == 1
    assert Membership.objects.get(championship=copy_of).user == owner
    assert Membership.objects.get(championship=copy_of).role == Role.OWNER
    audit = AuditEntry.objects.get(championship=copy_of, action="puzzlecomp.championship.imported")
    assert audit.data["source_slug"] == DEMO_SLUG


def test_the_file_carries_each_persons_identity_facts_and_overrides(lived_in):
    """Issue 15: the file keeps the archive's person id, the derived debutant fact and the
    organiser's override with its reason. Issue 22: an import never finds a stored person by
    that id: every person of the file is a new record of the new championship."""
    exported = championship_export(lived_in)
    identified = {p["id"]: p["archive_id"] for p in exported["people"] if p["archive_id"]}
    assert len(identified) >= 60
    members = [m for e in exported["entries"] for m in e["members"]]
    assert {m["debutant"] for m in members} >= {True, False}
    [overridden] = [m for m in members if m["overrides"]]
    assert [(o["fact"], o["value"], o["reason"]) for o in overridden["overrides"]] == [
        ("debutant", True, "First WJPC under this name")]
    first = next(r for r in exported["events"][0]["rounds"] if r["code"] == "first")
    assert [g["percent"] for g in first["group_difficulty"]] == [3.5, -3.4]
    people_before = Person.objects.count()
    copy_of = championship_import(exported, slug="moved")
    assert Person.objects.count() == people_before + len(exported["people"])
    some_id = next(iter(identified.values()))
    assert not EntryMember.objects.filter(person__archive_id=some_id,
                                          entry__event__championship=copy_of).exists()
    assert not copy_of.archived


def test_an_archived_championship_moves_with_its_flag_and_final_rounds_only(lived_in):
    archived = Championship.objects.get(slug="wjpc-2024")
    exported = championship_export(archived)
    assert exported["championship"]["archived"] is True
    copy_of = championship_import(exported, slug="wjpc-2024-copy")
    assert copy_of.archived
    assert without_instance_details(championship_export(copy_of)) == without_instance_details(
        exported)
    bad = copy.deepcopy(exported)
    bad["events"][0]["rounds"][0]["state"] = "published"
    with pytest.raises(InterchangeError) as refused:
        championship_import(bad, slug="wjpc-2024-bad")
    assert problems_of(refused.value) == [
        "events[0].rounds[0].state: an archived championship's rounds are final, not published"]


def test_an_archive_id_twice_or_a_fact_overridden_twice_is_named(lived_in):
    data = championship_export(lived_in)
    data["people"][1]["archive_id"] = data["people"][0]["archive_id"]
    member = data["entries"][0]["members"][0]
    member["overrides"] = [{"fact": "debutant", "value": True, "reason": "x",
                            "at": "2025-07-01T10:00:00Z"}] * 2
    with pytest.raises(InterchangeError) as refused:
        championship_import(data, slug="twice")
    assert problems_of(refused.value) == [
        f"people[1].archive_id: archive id {data['people'][0]['archive_id']!r} appears twice",
        "entries[0].members[0].overrides[1].fact: fact debutant is overridden twice"]


def test_a_version_2_file_reads_as_having_no_archive_fields(lived_in):
    data = championship_export(lived_in)
    older = copy.deepcopy(data)
    older["version"] = 2
    del older["championship"]["archived"]
    for person in older["people"]:
        del person["archive_id"]
    for entry in older["entries"]:
        for member in entry["members"]:
            del member["debutant"]
            del member["overrides"]
    for event in older["events"]:
        for rnd in event["rounds"]:
            del rnd["group_difficulty"]
    copy_of = championship_import(older, slug="older")
    again = championship_export(copy_of)
    assert not any(p["archive_id"] for p in again["people"])
    assert not any(m["overrides"] for e in again["entries"] for m in e["members"])


def test_the_round_trip_keeps_states_versions_puzzles_and_withdrawals(lived_in):
    data = championship_export(lived_in)
    first = next(r for r in data["events"][0]["rounds"] if r["code"] == "first")
    assert first["state"] == "published"
    assert first["published_at"]
    assert first["puzzles"][0]["motif"] == "Owls at night"
    team_result = next(r for r in data["results"] if r["puzzles"])
    assert team_result["puzzles"][1] == {"time": 9000, "verified": True}
    assert team_result["checked"] is False
    withdrawn = next(q for q in data["qualifiers"] if q["status"] == "withdrawn")
    assert withdrawn["entry"] == 3
    copy_of = championship_import(data, slug="moved")
    result = Result.objects.get(round__event__championship=copy_of, round__event__code="teams",
                                entry__number=team_result["entry"])
    assert (result.puzzles, result.checked, result.version) == (
        team_result["puzzles"], False, team_result["version"])
    assert Entry.objects.get(event__championship=copy_of, event__code="individual",
                             number=7).paid_amount == Decimal("48.00")


def test_the_file_holds_birth_dates_but_no_passwords_or_private_links(lived_in):
    """docs/interchange.md: organisers move their own data; entrants' links and users stay."""
    # The demo's entrants are the archive's people, who gave no birth date: one gives it.
    Person.objects.filter(pk=EntryMember.objects.filter(
        entry__event__championship=lived_in).values("person_id")[:1]).update(
        birth_date=dt.date(1980, 5, 1))
    text = json.dumps(championship_export(lived_in))
    assert '"birth_date": "19' in text or '"birth_date": "20' in text
    for token in Entry.objects.values_list("token", flat=True)[:20]:
        assert token not in text
    password = get_user_model().objects.get(username="organiser").password
    assert password.split("$")[-1] not in text
    assert '"password"' not in text


def test_an_existing_slug_is_refused_unless_a_new_one_is_given(lived_in):
    data = championship_export(lived_in)
    with pytest.raises(InterchangeError) as refused:
        championship_import(data)
    assert problems_of(refused.value) == [
        f"championship.slug: a championship {DEMO_SLUG!r} exists already; give a new slug "
        "for this one"]
    with pytest.raises(InterchangeError) as refused:
        championship_import(data, slug="not a slug!")
    assert problems_of(refused.value)[0].startswith("slug: 'not a slug!' is not a slug")
    assert not Championship.objects.exclude(slug__in=[DEMO_SLUG, RELAY_DEMO_SLUG]).filter(
        archived=False).exists()
    assert championship_import(data, slug="copy").slug == "copy"


def test_an_unknown_version_or_format_is_refused(lived_in):
    data = championship_export(lived_in)
    with pytest.raises(InterchangeError) as refused:
        championship_import({**data, "version": 6}, slug="v6")
    assert problems_of(refused.value) == [
        "version: version 6 is unknown; this puzzlecomp reads versions 1, 2, 3, 4 and 5"]
    with pytest.raises(InterchangeError) as refused:
        championship_import({**data, "format": "puzzlecomp-results"}, slug="other")
    assert problems_of(refused.value)[0].startswith("format: expected 'puzzlecomp-championship'")
    with pytest.raises(InterchangeError) as refused:
        championship_import([data], slug="list")
    assert problems_of(refused.value) == ["(top level): expected a JSON object"]


def test_a_bad_file_names_every_problem_by_its_path_and_imports_nothing(lived_in):
    data = championship_export(lived_in)
    people, entries = Person.objects.count(), Entry.objects.count()
    data["entries"][12]["members"][0]["represents"] = "XX"
    data["people"][3]["nationality"] = "Czechia"
    data["people"][4]["email"] = "not-an-email"
    data["results"][0]["time_seconds"] = -1
    data["entries"][2]["status"] = "maybe"
    with pytest.raises(InterchangeError) as refused:
        championship_import(data, slug="broken")
    found = problems_of(refused.value)
    assert ("people[3].nationality: String should match pattern '^(?:[A-Z]{2})?$' ('Czechia')"
            in found)
    assert any(p.startswith("results[0].time_seconds: Input should be greater than or equal "
                            "to 0") for p in found)
    assert any(p.startswith("entries[2].status: Input should be 'unconfirmed'") for p in found)

    # Once the fields are right, what this install checks: countries, emails, references.
    data["people"][3]["nationality"] = "CZ"
    data["results"][0]["time_seconds"] = 100
    data["entries"][2]["status"] = "confirmed"
    with pytest.raises(InterchangeError) as refused:
        championship_import(data, slug="broken")
    assert problems_of(refused.value) == [
        "people[4].email: 'not-an-email' is not an email address",
        "entries[12].members[0].represents: 'XX' is not a country code",
    ]
    assert (Person.objects.count(), Entry.objects.count()) == (people, entries)
    assert not Championship.objects.exclude(slug__in=[DEMO_SLUG, RELAY_DEMO_SLUG]).filter(
        archived=False).exists()


def test_references_to_nothing_and_repeated_keys_are_named(lived_in):
    data = championship_export(lived_in)
    data["entries"][0]["members"][0]["person"] = 99999
    data["entries"][1]["number"] = data["entries"][0]["number"]
    data["seats"][0]["round"] = "semifinal"
    data["results"][1]["entry"] = 5000
    data["qualifiers"][0]["replaces"] = 5000
    with pytest.raises(InterchangeError) as refused:
        championship_import(data, slug="dangling")
    found = problems_of(refused.value)
    assert "entries[0].members[0].person: no person with id 99999" in found
    assert "entries[1].number: individual 1 appears twice" in found
    assert "seats[0].round: no round 'semifinal' in event 'individual'" in found
    assert "results[1].entry: no entry 5000 in event 'individual'" in found
    assert "qualifiers[0].replaces: entry 5000 is no qualifier of this round" in found


def test_results_are_checked_by_the_engine_like_a_judges_write(lived_in):
    """wjpc-2025.txt, Individual First Round: 90 minutes; a finish past it is refused."""
    data = championship_export(lived_in)
    index = next(i for i, r in enumerate(data["results"]) if r["status"] == "finished"
                 and r["round"] == "first" and r["event"] == "individual")
    data["results"][index]["time_seconds"] = 90 * 60 + 1
    with pytest.raises(InterchangeError) as refused:
        championship_import(data, slug="late")
    assert problems_of(refused.value) == [
        f"results[{index}].time_seconds: entry {data['results'][index]['entry']}, field time: "
        "finish 1:30:01 is past the limit of 1:30:00"]


def test_a_setting_the_ruleset_does_not_declare_is_refused_on_import(lived_in):
    """docs/rulesets.md, Settings: the import checks the settings as the CLI and setup do."""
    data = championship_export(lived_in)
    data["championship"]["settings"] = {"host_region": "NSW"}
    with pytest.raises(InterchangeError) as refused:
        championship_import(data, slug="odd")
    assert problems_of(refused.value) == [
        "championship.settings.host_region: wjpc-2025 has no setting 'host_region'; known: none"]


def test_an_unknown_ruleset_event_or_round_is_named(lived_in):
    data = championship_export(lived_in)
    data["events"][1]["code"] = "quartets"
    for name in ("entries", "seats", "results", "qualifiers", "disputes", "group_draws",
                 "group_moves", "model_choices", "time_credits", "bank_transactions",
                 "payout_accounts"):
        for row in data[name]:
            if row["event"] == "pairs":
                row["event"] = "quartets"
    data["events"][0]["rounds"][2]["code"] = "superfinal"
    with pytest.raises(InterchangeError) as refused:
        championship_import(data, slug="odd")
    assert problems_of(refused.value) == [
        "events[0].rounds[2].code: event individual of wjpc-2025 has no round 'superfinal'",
        "events[1].code: ruleset wjpc-2025 has no event 'quartets'",
    ]
    data["championship"]["ruleset_id"] = "chess-2030"
    with pytest.raises(InterchangeError) as refused:
        championship_import(data, slug="odd")
    assert problems_of(refused.value)[0].startswith(
        "championship.ruleset_id: unknown ruleset 'chess-2030'")


def test_a_failure_while_writing_leaves_nothing_behind(lived_in, monkeypatch):
    data = championship_export(lived_in)
    people = Person.objects.count()

    def broken(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(Dispute.objects, "bulk_create", broken)
    with pytest.raises(RuntimeError):
        championship_import(data, slug="half")
    assert not Championship.objects.filter(slug="half").exists()
    assert Person.objects.count() == people


def test_the_bundled_sample_imports_and_exports_unchanged(db):
    """docs/interchange.md shows this file; it must stay importable as documented."""
    text = (resources.files("puzzlecomp.samples") / "czech-2027-championship.json").read_bytes()
    data = load_json(text)
    championship = championship_import(data)
    assert championship.slug == "czech-2027"
    assert without_instance_details(championship_export(championship)) == (
        without_instance_details(data))
    assert Result.objects.filter(round__event__championship=championship).count() == 4


def test_json_errors_give_the_line_and_column():
    with pytest.raises(InterchangeError) as refused:
        load_json(b'{"format": "puzzlecomp-championship",\n "version": 1,,}')
    assert problems_of(refused.value) == [
        "(top level): not JSON: line 2, column 15: Expecting property name enclosed in double "
        "quotes"]
    with pytest.raises(InterchangeError) as refused:
        load_json(b"{\"name\": \"\xc3\x28\"}")
    assert problems_of(refused.value)[0].startswith("(top level): not UTF-8 text")


def test_pydantic_locations_read_as_paths():
    assert field_path(("entries", 12, "members", 0, "represents")) == (
        "entries[12].members[0].represents")
    assert field_path(("championship", "starts_at")) == "championship.starts_at"


def test_times_without_a_time_zone_are_refused():
    document = {"format": "puzzlecomp-championship", "version": 1, "championship": {
        "slug": "x", "name": "X", "ruleset_id": "wjpc-2025", "starts_at": "2027-07-01T09:00"}}
    with pytest.raises(InterchangeError) as refused:
        parse_championship_file(document)
    assert problems_of(refused.value)[0].startswith(
        "championship.starts_at: Input should have timezone info")
    document["championship"]["starts_at"] = "2027-07-01T09:00+02:00"
    parsed = parse_championship_file(document)
    assert parsed.championship.starts_at == dt.datetime(2027, 7, 1, 7, tzinfo=dt.UTC)


def test_organisers_download_the_file_and_judges_cannot(lived_in, client_as):
    address = reverse("control:rounds:championship_download", args=[DEMO_SLUG])
    response = client_as(lived_in, Role.ORGANISER).get(address)
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="{DEMO_SLUG}.json"'
    assert json.loads(response.content)["format"] == "puzzlecomp-championship"
    assert AuditEntry.objects.filter(action="puzzlecomp.export.championship_downloaded",
                                     championship=lived_in).exists()
    assert client_as(lived_in, Role.JUDGE).get(address).status_code == 403


def test_whoever_may_create_a_championship_imports_a_file_as_one_they_own(lived_in,
                                                                         creator):
    user = creator
    client = Client()
    client.force_login(user)
    content = json.dumps(championship_export(lived_in)).encode()
    response = client.post(UPLOAD, {"file": SimpleUploadedFile("c.json", content),
                                    "slug": "wjpc-copy"})
    assert response.status_code == 302
    assert response["Location"] == "/control/wjpc-copy/"
    copy_of = Championship.objects.get(slug="wjpc-copy")
    assert Membership.objects.get(championship=copy_of, user=user).role == Role.OWNER
    assert client.get("/control/wjpc-copy/").status_code == 200


def test_the_upload_page_lists_the_problems_of_a_bad_file(lived_in, creator):
    user = creator
    client = Client()
    client.force_login(user)
    page = client.get(UPLOAD).content.decode()
    assert 'enctype="multipart/form-data"' in page
    response = client.post(UPLOAD, {"file": SimpleUploadedFile("c.json", b'{"format": 1}')})
    page = response.content.decode()
    assert "1 problem: nothing was imported" in page
    assert "format: expected" in page
    content = json.dumps(championship_export(lived_in)).encode()
    page = client.post(UPLOAD, {"file": SimpleUploadedFile("c.json", content)}).content.decode()
    assert "exists already; give a new slug" in page
    assert not Championship.objects.exclude(slug__in=[DEMO_SLUG, RELAY_DEMO_SLUG]).filter(
        archived=False).exists()


def test_anonymous_visitors_are_sent_to_sign_in_before_importing(db):
    response = Client().get(UPLOAD)
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


def test_each_member_carries_its_championships_consent_and_an_older_file_the_persons(lived_in):
    """Issue 22, finding 1: consent is per championship, so the file keeps it on each member;
    a file written before (no member consent) gives each member the person's."""
    data = championship_export(lived_in)
    member = data["entries"][0]["members"][0]
    person = next(p for p in data["people"] if p["id"] == member["person"])
    member["consent_publish"], person["consent_publish"] = False, True
    copy_of = championship_import(copy.deepcopy(data), slug="per-member")
    first = EntryMember.objects.filter(entry__event__championship=copy_of).order_by(
        "entry__event__position", "entry__number", "position").first()
    assert first is not None
    assert (first.consent_publish, first.person.consent_publish) == (False, True)
    for entry in data["entries"]:
        for m in entry["members"]:
            del m["consent_publish"], m["consent_photos"]
    older = championship_import(data, slug="older-consent")
    by_person = {p["id"]: p for p in data["people"]}
    given = [(by_person[m["person"]]["consent_publish"], by_person[m["person"]]["consent_photos"])
             for e in data["entries"] for m in e["members"]]
    stored = list(EntryMember.objects.filter(entry__event__championship=older).order_by(
        "entry__event__position", "entry__number", "position").values_list(
        "consent_publish", "consent_photos"))
    assert stored == given
    assert stored[0][0] is True  # the person's, where the newer file said False


def test_the_file_carries_the_payment_account_bank_transactions_and_payout_accounts(lived_in):
    """Issue 28: the organiser's account, every imported bank transaction with its match and
    the treasurer's decision, and entrants' payout accounts move with the championship, as do
    the waiting list's offers and the payment settings."""
    from puzzlecomp.championships.models import BankTransaction, PayoutAccount
    from puzzlecomp.championships.services.payments import payout_account_set

    entry = Entry.objects.get(event__championship=lived_in, event__code="individual", number=7)
    payout_account_set(entry=entry, holder="Ana García", iban="ES91 2100 0418 4502 0005 1332")
    queued = BankTransaction.objects.filter(championship=lived_in, entry__isnull=True).first()
    BankTransaction.objects.filter(pk=queued.pk).update(resolved_at=timezone.now(),
                                                        resolution="a donation")
    Championship.objects.filter(pk=lived_in.pk).update(offer_days=4, confirm_on_payment=True)
    Entry.objects.filter(pk=entry.pk).update(offered_at=timezone.now())
    lived_in.refresh_from_db()
    exported = championship_export(lived_in)
    assert exported["payment_account"]["iban"]
    assert len(exported["bank_transactions"]) == BankTransaction.objects.filter(
        championship=lived_in).count() > 1
    assert {t["resolution"] for t in exported["bank_transactions"]} >= {"a donation"}
    assert any(t["entry"] is not None for t in exported["bank_transactions"])
    assert exported["payout_accounts"] == [{
        "event": "individual", "entry": 7, "holder": "Ana García",
        "iban": "ES9121000418450200051332", "bic": "CAIXESBB", "account": ""}]
    copy_of = championship_import(json.loads(json.dumps(exported)), slug="moved-money")
    assert PayoutAccount.objects.filter(entry__event__championship=copy_of).count() == 1
    again = championship_export(copy_of)
    exported["championship"]["published"] = False
    for p in exported["people"]:
        p["archive_id"] = None
    for name in ("payment_account", "bank_transactions", "payout_accounts", "entries"):
        assert again[name] == exported[name], name
    assert again["championship"]["offer_days"] == 4
    assert again["championship"]["confirm_on_payment"] is True


def test_a_bank_transaction_or_payout_account_naming_no_entry_is_named(lived_in):
    data = championship_export(lived_in)
    data["bank_transactions"][0].update(event="individual", entry=9999)
    data["bank_transactions"][1]["transaction_id"] = data["bank_transactions"][0][
        "transaction_id"]
    data["payout_accounts"] = [{"event": "individual", "entry": 9999, "holder": "X"}]
    with pytest.raises(InterchangeError) as refused:
        championship_import(data, slug="bad-money")
    assert problems_of(refused.value) == [
        "bank_transactions[0].entry: no entry 9999 in event 'individual'",
        f"bank_transactions[1].transaction_id: {data['bank_transactions'][0]['transaction_id']}"
        " appears twice",
        "payout_accounts[0].entry: no entry 9999 in event 'individual'"]
