"""After publication: the organiser confirms the engine's qualifiers, replaces those who withdraw
by the rules, and creates the next round's groups and seating in one step."""

from __future__ import annotations

import html
from collections import Counter

import pytest
from django.urls import reverse

from puzzlecomp.championships.models import (
    AuditEntry,
    Dispute,
    Entry,
    EntryStatus,
    Notice,
    Qualifier,
    QualifierStatus,
    Role,
    Round,
    RoundState,
    Seat,
)
from puzzlecomp.championships.selectors.planning import qualifiers_of_previous
from puzzlecomp.championships.selectors.rounds import dispute_window_ends
from puzzlecomp.championships.services.qualifiers import (
    QualifierError,
    next_round_create,
    qualifier_withdraw,
    qualifiers_confirm,
)
from puzzlecomp.championships.services.results import result_record
from puzzlecomp.championships.services.rounds import round_state_set
from puzzlecomp.rules.results import Status
from tests.web.test_groups import add_entries, first_round


def url(name: str, rnd: Round) -> str:
    return reverse(f"control:rounds:{name}", args=[rnd.event.championship.slug, rnd.pk])


def page_of(response) -> str:
    return html.unescape(response.content.decode())


def numbers(rows) -> set[int]:
    return {row.entry.number for row in rows}


class Field:
    """Group A of a WJPC individual first round: 88 Czechs (the 85th and 86th tied), then two
    Norwegians and one Japanese, who have no direct qualifier."""

    def __init__(self, championship) -> None:
        self.round = first_round(championship)
        event = self.round.event
        self.czech = add_entries(event, {"CZ": 88})
        self.norway = add_entries(event, {"NO": 2})
        self.japan = add_entries(event, {"JP": 1})[0]
        Entry.objects.filter(event=event).update(group="A")
        times = [1000 + 10 * i for i in range(88)]
        times[85] = times[84]
        for entry, time in [*zip(self.czech, times, strict=True),
                            (self.norway[0], 3000), (self.norway[1], 3010), (self.japan, 3020)]:
            result_record(round=self.round, entry=entry, status=Status.FINISHED,
                          time_seconds=time)
        round_state_set(round=self.round, state=RoundState.PUBLISHED)
        self.second = Round.objects.get(event=event, code="second")


def window_end(rnd: Round) -> str:
    """The end of the round's dispute window as the confirmation's checkbox carries it."""
    ends = dispute_window_ends(rnd)
    return ends.isoformat() if ends else ""


@pytest.fixture
def field(championship) -> Field:
    return Field(championship)


@pytest.fixture
def organiser(championship, client_as):
    return client_as(championship, Role.ORGANISER)


def rows(rnd: Round, status: str = QualifierStatus.CONFIRMED) -> list[Qualifier]:
    return list(Qualifier.objects.filter(from_round=rnd, status=status).select_related("entry"))


def test_the_engines_qualifiers_are_listed_with_group_next_group_and_reason_in_words(
        organiser, field):
    """wjpc-2025.txt, Individual First Round: the first 85 of each group go on, a tie for the
    last place lets both through; Play-off: each country without a representative sends its
    best; A and B go to S1."""
    page = page_of(organiser.get(url("qualifiers", field.round)))
    assert "The engine names 88 qualifiers." in page
    table = page.split('id="qualifiers"')[1]
    assert table.count("place in the group") == 84
    assert table.count("tied at the cut-off") == 2
    assert table.count("country play-off") == 2
    assert table.count("<td>S1</td>") == 88
    assert field.norway[0].name in table
    assert field.norway[1].name not in table
    assert not Qualifier.objects.exists()


def test_qualifiers_wait_until_the_round_is_published(organiser, field):
    round_state_set(round=field.round, state=RoundState.PROVISIONAL)
    page = page_of(organiser.get(url("qualifiers", field.round)))
    assert "confirmed once the round's results are published" in page
    assert 'id="qualifiers"' not in page
    response = organiser.post(url("qualifiers_confirm", field.round),
                              {"knowingly": window_end(field.round)}, follow=True)
    assert "confirmed once the round's results are published" in page_of(response)
    assert not Qualifier.objects.exists()


def test_confirming_twice_stores_the_qualifiers_once(organiser, field):
    response = organiser.post(url("qualifiers_confirm", field.round),
                              {"knowingly": window_end(field.round)}, follow=True)
    assert "88 qualifiers confirmed." in page_of(response)
    confirmed = rows(field.round)
    assert len(confirmed) == 88
    tied = [q for q in confirmed if q.reason == "tie"]
    assert sorted(q.rank for q in tied) == [85, 85]
    assert {q.entry for q in confirmed if q.reason == "playoff"} == {field.norway[0], field.japan}
    assert all(q.to_group == "S1" and q.from_group == "A" for q in confirmed)
    slug = field.round.event.championship.slug
    assert {q.confirmed_by.username for q in confirmed} == {f"organiser-{slug}"}

    again = organiser.post(url("qualifiers_confirm", field.round),
                           {"knowingly": window_end(field.round)}, follow=True)
    assert "already the engine's" in page_of(again)
    assert Qualifier.objects.count() == 88
    assert AuditEntry.objects.filter(action="puzzlecomp.qualifiers.confirmed").count() == 1
    assert Notice.objects.filter(kind="qualifiers", round=field.round).count() == 1


def test_an_open_dispute_holds_the_confirmation(field):
    """wjpc-2025 dispute window: a ranking under dispute may still change."""
    Dispute.objects.create(round=field.round, entry=field.czech[3], text="My time was 15:02")
    with pytest.raises(QualifierError) as refused:
        qualifiers_confirm(round=field.round, knowingly=True)
    assert refused.value.code == "qualifiers.disputes_open"
    assert not Qualifier.objects.exists()


def test_the_last_round_of_an_event_has_no_qualifiers(organiser, field):
    final = Round.objects.get(event=field.round.event, code="final")
    round_state_set(round=final, state=RoundState.PUBLISHED)
    page = page_of(organiser.get(url("qualifiers", final)))
    assert "This is the event's last round" in page


def test_a_withdrawn_place_goes_to_the_best_of_the_group_not_yet_qualified(organiser, field):
    """docs/qualification.md, Replacements: a place qualifier is replaced by the best entrant
    of the same group not yet qualified, reason place."""
    qualifiers_confirm(round=field.round, knowingly=True)
    response = organiser.post(url("qualifier_withdraw", field.round),
                              {"entry": field.czech[0].number}, follow=True)
    replacement = Qualifier.objects.get(from_round=field.round, entry=field.czech[86])
    assert (replacement.rank, replacement.reason, replacement.to_group) == (87, "place", "S1")
    assert replacement.replaces.entry == field.czech[0]
    assert replacement.replaces.status == QualifierStatus.WITHDRAWN
    assert (f"Entry {field.czech[0].number} withdrew; entry {field.czech[86].number} takes the "
            "place (place in the group).") in page_of(response)
    assert len(rows(field.round)) == 88
    assert AuditEntry.objects.filter(action="puzzlecomp.qualifier.withdrawn").count() == 1
    table = page_of(organiser.get(url("qualifiers", field.round))).split('id="qualifiers"')[1]
    assert table.count("withdrawn") == 1
    assert f"replaces {field.czech[0].number}" in table
    assert table.count(">confirmed") == 88


def test_a_cancelled_qualifier_is_offered_its_replacement_in_the_rules_order(organiser,
                                                                            field):
    """Issue 24 review: an entry cancelled after qualifying keeps its place silently no more.
    Cancelling it leads the organiser to the qualifiers, which name the next qualifier by the
    ruleset's order (docs/qualification.md, Replacements: the best of the same group not yet
    qualified); one button gives the place, and the audit records it."""
    qualifiers_confirm(round=field.round, knowingly=True)
    gone = field.czech[0]
    slug = field.round.event.championship.slug
    cancel = reverse("control:registrations:cancel",
                     args=[slug, field.round.event.code, gone.number])
    after = organiser.post(cancel, follow=True)
    assert after.redirect_chain[-1][0] == url("qualifiers", field.round)
    page = page_of(after)
    assert f"Entry {gone.number} held a place in the next round" in page
    assert (f"Entry {gone.number} {gone.name} is cancelled but still holds a place. By the "
            f"rules' order of qualification, entry {field.czech[86].number} "
            f"{field.czech[86].name} takes it (place in the group).") in page
    assert f"Give the place to entry {field.czech[86].number}" in page
    organiser.post(url("qualifier_withdraw", field.round), {"entry": gone.number})
    replacement = Qualifier.objects.get(from_round=field.round, entry=field.czech[86])
    assert replacement.replaces.entry == gone
    audit = AuditEntry.objects.filter(action="puzzlecomp.qualifier.withdrawn").latest("pk")
    assert (audit.data["entry"], audit.data["replacement"]) == (gone.number,
                                                                field.czech[86].number)
    assert "is cancelled but still holds a place" not in page_of(
        organiser.get(url("qualifiers", field.round)))


def test_a_stale_replacement_offer_is_refused_and_the_new_offer_shown(organiser, field):
    """Review of issue 24: the button names the entry it gives the place to. Two cancelled
    qualifiers were both offered the same next entrant; once one place is given, the other
    page's click is refused (nothing written) and the page shows who the rules name now."""
    qualifiers_confirm(round=field.round, knowingly=True)
    first, second = field.czech[0], field.czech[1]
    Entry.objects.filter(pk__in=[first.pk, second.pk]).update(status=EntryStatus.CANCELLED)
    stale = page_of(organiser.get(url("qualifiers", field.round)))
    assert stale.count(f"Give the place to entry {field.czech[86].number}") == 2
    organiser.post(url("qualifier_withdraw", field.round),
                   {"entry": first.number, "offered": field.czech[86].number})
    before = Qualifier.objects.count()
    refused = organiser.post(url("qualifier_withdraw", field.round),
                             {"entry": second.number, "offered": field.czech[86].number},
                             follow=True)
    assert Qualifier.objects.count() == before
    assert Qualifier.objects.get(from_round=field.round, entry=second).status == (
        QualifierStatus.CONFIRMED)
    page = page_of(refused)
    assert (f"The offer changed since the page was loaded: entry {field.czech[87].number} now "
            f"takes the place of entry {second.number}.") in page
    assert f"Give the place to entry {field.czech[87].number}" in page


def test_a_tied_qualifier_who_withdraws_is_replaced_by_place(field):
    """docs/qualification.md: a tie qualifier's place goes on by place, like any other."""
    qualifiers_confirm(round=field.round, knowingly=True)
    replacement = qualifier_withdraw(round=field.round, entry_number=field.czech[84].number)
    assert replacement is not None
    assert (replacement.entry, replacement.reason) == (field.czech[86], "place")


def test_a_play_off_place_stays_with_its_country(field):
    """wjpc-2025.txt, Play-off: the place belongs to a country without representatives, so the
    next Norwegian takes it, not the next best entrant."""
    qualifiers_confirm(round=field.round, knowingly=True)
    replacement = qualifier_withdraw(round=field.round, entry_number=field.norway[0].number)
    assert replacement is not None
    assert (replacement.entry, replacement.reason, replacement.rank) == (field.norway[1],
                                                                        "playoff", 90)


def test_a_play_off_place_with_nobody_left_is_refused_unless_it_may_lapse(organiser, field):
    """docs/qualification.md: with nobody of the country left, a play-off place lapses rather
    than pass to another country."""
    qualifiers_confirm(round=field.round, knowingly=True)
    data = {"entry": field.japan.number}
    page = page_of(organiser.post(url("qualifier_withdraw", field.round), data, follow=True))
    assert f"Nobody can take the place of entry {field.japan.number}" in page
    assert Qualifier.objects.get(entry=field.japan).status == QualifierStatus.CONFIRMED

    page = page_of(organiser.post(url("qualifier_withdraw", field.round),
                                  {**data, "lapse": "on"}, follow=True))
    assert "nobody can take the place, so it lapses" in page
    assert Qualifier.objects.get(entry=field.japan).status == QualifierStatus.WITHDRAWN
    assert Qualifier.objects.count() == 88


@pytest.mark.parametrize(("entry", "message"), [
    ("x", "Entry number: Enter a whole number."),
    ("", "Entry number: This field is required."),
    ("999", "Entry 999 is not a confirmed qualifier of this round."),
])
def test_a_withdrawal_of_no_qualifier_says_why(organiser, field, entry, message):
    qualifiers_confirm(round=field.round, knowingly=True)
    page = page_of(organiser.post(url("qualifier_withdraw", field.round), {"entry": entry},
                                  follow=True))
    assert message in page
    assert not Qualifier.objects.filter(status=QualifierStatus.WITHDRAWN).exists()


def test_withdrawing_twice_is_refused(field):
    qualifiers_confirm(round=field.round, knowingly=True)
    qualifier_withdraw(round=field.round, entry_number=field.czech[0].number)
    with pytest.raises(QualifierError) as refused:
        qualifier_withdraw(round=field.round, entry_number=field.czech[0].number)
    assert refused.value.code == "qualifiers.already_withdrawn"


def test_the_next_round_gets_its_groups_and_seats_from_the_confirmed_qualifiers(organiser,
                                                                                field):
    """wjpc-2025.txt: S1 holds the qualified of groups A and B; the top 8 of each group sit
    alone at a table in the next round."""
    qualifiers_confirm(round=field.round, knowingly=True)
    qualifier_withdraw(round=field.round, entry_number=field.czech[0].number)
    response = organiser.post(url("next_round_create", field.round), follow=True)
    assert "Second round: groups S1, 88 entries seated." in page_of(response).replace(
        field.second.name, "Second round")
    field.second.refresh_from_db()
    assert field.second.groups == ["S1"]
    seats = list(Seat.objects.filter(round=field.second).select_related("entry"))
    assert numbers(seats) == numbers(rows(field.round))
    assert field.czech[0].number not in numbers(seats)
    per_table = Counter(s.table for s in seats)
    alone = {s.entry for s in seats if per_table[s.table] == 1 and s.table <= 8}
    assert alone == set(field.czech[1:9])
    assert Notice.objects.filter(round=field.second, kind="seating").exists()
    assert AuditEntry.objects.filter(action="puzzlecomp.round.next_created").exists()


def test_seating_follows_the_engine_until_qualifiers_are_confirmed(field):
    predicted = {q.entry.id for q in qualifiers_of_previous(field.second)}
    assert len(predicted) == 88
    qualifiers_confirm(round=field.round, knowingly=True)
    qualifier_withdraw(round=field.round, entry_number=field.norway[0].number)
    confirmed = {q.entry.id for q in qualifiers_of_previous(field.second)}
    assert confirmed == predicted - {str(field.norway[0].number)} | {str(field.norway[1].number)}


def test_the_next_round_is_made_only_from_confirmed_qualifiers(field):
    with pytest.raises(QualifierError) as refused:
        next_round_create(round=field.round)
    assert refused.value.code == "qualifiers.not_confirmed"
    assert not Seat.objects.filter(round=field.second).exists()


def test_a_started_next_round_keeps_its_entrants(organiser, field):
    qualifiers_confirm(round=field.round, knowingly=True)
    next_round_create(round=field.round)
    seated = Seat.objects.filter(round=field.second).count()
    round_state_set(round=field.second, state=RoundState.RUNNING)
    page = page_of(organiser.post(url("next_round_create", field.round), follow=True))
    assert "has started; its entrants can no longer change" in page
    with pytest.raises(QualifierError):
        qualifier_withdraw(round=field.round, entry_number=field.czech[0].number)
    assert Seat.objects.filter(round=field.second).count() == seated
    assert not Qualifier.objects.filter(status=QualifierStatus.WITHDRAWN).exists()


def test_after_seating_the_replacement_takes_the_withdrawn_qualifiers_table(field):
    qualifiers_confirm(round=field.round, knowingly=True)
    next_round_create(round=field.round)
    seat = Seat.objects.get(round=field.second, entry=field.czech[5])
    qualifier_withdraw(round=field.round, entry_number=field.czech[5].number)
    taken = Seat.objects.get(round=field.second, entry=field.czech[86])
    assert (taken.table, taken.seat, taken.group) == (seat.table, seat.seat, seat.group)
    assert not Seat.objects.filter(round=field.second, entry=field.czech[5]).exists()


def test_a_correction_after_confirmation_asks_to_confirm_again_and_keeps_withdrawals(
        organiser, field):
    """An upheld dispute may move a result after the qualifiers were confirmed: the next
    round is refused until they are confirmed again, and earlier withdrawals still stand."""
    qualifiers_confirm(round=field.round, knowingly=True)
    qualifier_withdraw(round=field.round, entry_number=field.czech[0].number)
    result_record(round=field.round, entry=field.czech[87], status=Status.FINISHED,
                  time_seconds=999)
    assert 'id="outdated"' in page_of(organiser.get(url("qualifiers", field.round)))
    with pytest.raises(QualifierError) as refused:
        next_round_create(round=field.round)
    assert refused.value.code == "qualifiers.outdated"

    assert qualifiers_confirm(round=field.round, knowingly=True) == 87
    confirmed = rows(field.round)
    assert field.czech[87] in {q.entry for q in confirmed}
    assert field.czech[0] not in {q.entry for q in confirmed}
    # The 85th and 86th, tied at 86th place now, were out; one of them takes the place.
    assert Qualifier.objects.get(entry=field.czech[0]).status == QualifierStatus.WITHDRAWN
    replacement = Qualifier.objects.get(replaces__entry=field.czech[0])
    assert (replacement.entry, replacement.rank) == (field.czech[84], 86)
    assert 'id="outdated"' not in page_of(organiser.get(url("qualifiers", field.round)))


def test_czech_foreign_qualifiers_do_not_reduce_the_czech_places(make_championship,
                                                                  client_as):
    """czech-championship.txt: 50 fastest Czech and 5 fastest foreign competitors of each group
    advance; foreign participation does not reduce the Czech places. A foreign qualifier who
    withdraws is replaced by the next foreign competitor."""
    championship = make_championship("czech-championship")
    championship.floor_rows = [10] * 8
    championship.save()
    rnd = Round.objects.get(event__championship=championship, event__code="individual",
                            code="qualification")
    foreign = add_entries(rnd.event, {"DE": 7})
    czech = add_entries(rnd.event, {"CZ": 52})
    Entry.objects.filter(event=rnd.event).update(group="A")
    for i, entry in enumerate([*foreign, *czech]):
        result_record(round=rnd, entry=entry, status=Status.FINISHED, time_seconds=1000 + i)
    round_state_set(round=rnd, state=RoundState.PUBLISHED)

    organiser = client_as(championship, Role.ORGANISER)
    page = page_of(organiser.get(url("qualifiers", rnd)))
    assert page.count("national quota") == 50
    assert page.count("foreign quota") == 5
    qualifiers_confirm(round=rnd, knowingly=True)
    reasons = Counter(q.reason for q in rows(rnd))
    assert reasons == {"national": 50, "foreign": 5}
    assert numbers(q for q in rows(rnd) if q.reason == "national") == {e.number for e in czech[:50]}

    replacement = qualifier_withdraw(round=rnd, entry_number=foreign[2].number)
    assert replacement is not None
    assert (replacement.entry, replacement.reason) == (foreign[5], "foreign")

    made = next_round_create(round=rnd)
    assert (made.groups, made.seated) == ([], 55)
    final = Round.objects.get(pk=made.round.pk)
    assert final.groups == []
    assert set(Seat.objects.filter(round=final).values_list("group", flat=True)) == {""}


def test_only_organisers_confirm_and_create_the_next_round(championship, client_as, field):
    for role in (Role.HEAD_JUDGE, Role.JUDGE):
        client = client_as(championship, role)
        assert client.get(url("qualifiers", field.round)).status_code == 403
        assert client.post(url("qualifiers_confirm", field.round)).status_code == 403
        assert client.post(url("next_round_create", field.round)).status_code == 403
    assert not Qualifier.objects.exists()
    anonymous = client_as(championship, None)
    assert anonymous.post(url("qualifier_withdraw", field.round)).status_code == 302


def test_a_round_of_another_championship_is_not_found(make_championship, client_as, field):
    other = make_championship("wjpc-2025", name="Other")
    client = client_as(other, Role.OWNER)
    address = reverse("control:rounds:qualifiers", args=[other.slug, field.round.pk])
    assert client.get(address).status_code == 404


def test_a_hall_too_small_for_the_next_round_changes_nothing(organiser, field):
    championship = field.round.event.championship
    championship.floor_rows = [4]
    championship.guest_tables = 0
    championship.save()
    qualifiers_confirm(round=field.round, knowingly=True)
    page = page_of(organiser.post(url("next_round_create", field.round), follow=True))
    assert "the hall has 4 competition tables" in page
    field.second.refresh_from_db()
    assert field.second.groups == ["S1", "S2", "S3"]
    assert not Seat.objects.filter(round=field.second).exists()
