"""Issue 15, plausibility warnings at entry: a judge's record that looks implausible goes to
the head judge's queue with its reason (not refused), and leaves it once the head judge has
looked: verified, corrected, or kept as it is."""

from __future__ import annotations

import pytest

from puzzlecomp.championships.models import AuditEntry, EntryMember, Person, Result, Role
from puzzlecomp.championships.selectors.live import finishes_awaiting_check
from puzzlecomp.championships.services.disputes import result_correct, result_looked_at
from puzzlecomp.championships.services.results import ResultConflict, ResultValues, result_submit
from puzzlecomp.rules.results import Status
from tests.web import test_live_control as live
from tests.web.test_archive import HEADER, imported
from tests.web.test_live_control import count, finish, group_entries, head_judge, running, seated

__all__ = ["head_judge", "running", "seated"]  # fixtures


def looks(rnd, entry) -> list[str]:
    return [look["code"] for look in Result.objects.get(round=rnd, entry=entry).second_looks]


def queue_panel(client, rnd) -> str:
    return live.state_json(client, rnd).json()["panels"]["queue"]


@pytest.fixture
def fast_person(running):
    """The first entry of group A is Pfast of the archive (tests/web/test_archive.py)."""
    imported()
    entry = group_entries(running)[0]
    EntryMember.objects.filter(entry=entry).update(person=Person.objects.get(archive_id="Pfast"))
    return entry


# Six people of one 2023 group: P6 took more than twice as long as the others (within the
# published limit: the archive refuses a finish past it).
RATED = HEADER + "".join(
    f"2023,solo,A,{n},E{n},Spain,True,{3000 + n if n < 6 else 8000}.0,,500,9000,P{n}\n"
    for n in range(1, 7))


@pytest.fixture
def rated_group(running):
    """Group A's six entries are P1..P6 of an archive that rates them."""
    imported(RATED)
    entries = group_entries(running)
    for n, entry in enumerate(entries, start=1):
        EntryMember.objects.filter(entry=entry).update(
            person=Person.objects.get(archive_id=f"P{n}"))
    return entries


def test_a_finish_far_faster_than_expected_at_the_groups_pace_is_queued_with_its_reason(
        head_judge, running, rated_group, clock):
    """Issue 30 rule: the entrant's history adjusted for the round's difficulty (the pace of
    the group's rated finishes so far): more than 40 % (default) faster is flagged, not
    refused, and an easy puzzle that speeds everyone up flags no one."""
    for n, entry in enumerate(rated_group[:5]):
        finish(running, entry, 1500 + 7 * n, checked=True)  # an easy puzzle: all twice as fast
    assert all(looks(running, entry) == [] for entry in rated_group[:5])
    slow = rated_group[5]
    finish(running, slow, 1530, checked=True)
    assert looks(running, slow) == ["second_look.faster_than_expected"]
    queued = finishes_awaiting_check(running)
    assert [(q.number, q.checked) for q in queued] == [(slow.number, True)]
    panel = queue_panel(head_judge, running)
    assert "0:25:30 is more than 40 % faster than expected from this entrant&#x27;s earlier " \
           "results at this group&#x27;s pace" in panel
    assert "Looked again: the result stands" in panel


def test_a_finish_far_ahead_of_the_groups_other_finishes_is_flagged_history_or_not(
        running, clock):
    """Issue 30 rule: 22:02 where the next finish of the group is 30:35 (WJPC 2025, group B)."""
    a, b = group_entries(running)[:2]
    finish(running, b, 1835, checked=True)
    finish(running, a, 1322, checked=True)
    assert looks(running, a) == ["second_look.ahead_of_group"]
    assert looks(running, b) == []


def test_a_groups_first_finish_is_flagged_when_the_next_finish_shows_it_far_ahead(
        running, clock):
    """Archive review finding 1 (issue 30 rule, live as the hall records): 22:02 is the
    group's first finish, so nothing flags it then; 30:35 recorded after it does, audited."""
    a, b = group_entries(running)[:2]
    finish(running, a, 1322, checked=True)
    assert looks(running, a) == []
    finish(running, b, 1835, checked=True)
    assert looks(running, a) == ["second_look.ahead_of_group"]
    assert looks(running, b) == []
    audit = AuditEntry.objects.filter(data__has_key="looked_again").get()
    assert audit.data["looked_again"] == {str(a.number): ["second_look.ahead_of_group"]}
    assert [q.number for q in finishes_awaiting_check(running)] == [a.number]


def test_the_reason_is_in_the_head_judges_language(head_judge, running, clock):
    a, b = group_entries(running)[:2]
    finish(running, b, 1835, checked=True)
    finish(running, a, 1322, checked=False)
    head_judge.cookies.load({"django_language": "cs"})
    panel = queue_panel(head_judge, running)
    assert "rychlejší než každý jiný dokončený čas skupiny" in panel


def test_the_same_time_at_the_next_table_flags_the_second_record(running, clock):
    """Issue 15 rule: two tables with the same time and the same missing pieces in a group."""
    a, b = group_entries(running)[:2]
    finish(running, a, 1800, checked=False)
    finish(running, b, 1800, checked=False)
    assert looks(running, a) == []
    assert looks(running, b) == ["second_look.same_as_table"]


def test_a_count_after_a_finish_is_flagged_and_stays_queued(head_judge, running, clock):
    """Issue 15 rule: a count recorded for someone already recorded as finished."""
    entry = group_entries(running)[0]
    finish(running, entry, 1500, checked=False)
    count(running, entry, 400)
    row = Result.objects.get(round=running, entry=entry)
    assert (row.status, row.checked, looks(running, entry)) == (
        "unfinished", True, ["second_look.count_after_finish"])
    panel = queue_panel(head_judge, running)
    assert f'data-queue-entry="{entry.number}"' in panel
    assert "Counted, but recorded as finished at 0:25:00 before." in panel


def test_keeping_a_flagged_result_empties_its_reasons_audited_and_checks_the_version(
        head_judge, running, clock):
    entry = group_entries(running)[0]
    finish(running, entry, 1500, checked=False)
    count(running, entry, 400)
    stale = head_judge.post(live.live_url("looked_at", running, entry.number),
                            {"base_version": "1"}, follow=True)
    assert "changed while you were correcting it" in stale.content.decode()
    assert looks(running, entry) == ["second_look.count_after_finish"]
    response = head_judge.post(live.live_url("looked_at", running, entry.number),
                               {"base_version": "2"})
    assert response.status_code == 302
    assert looks(running, entry) == []
    assert finishes_awaiting_check(running) == []
    audit = AuditEntry.objects.get(action="puzzlecomp.result.looked_at")
    assert audit.data["reasons"] == ["second_look.count_after_finish"]
    with pytest.raises(ResultConflict):
        result_looked_at(round=running, entry=entry, base_version=1)


def test_the_head_judges_verify_and_correction_are_the_second_look(head_judge, running, clock):
    a, b = group_entries(running)[:2]
    finish(running, a, 1800, checked=False)
    finish(running, b, 1800, checked=False)
    head_judge.post(live.live_url("verify", running, b.number), {"base_version": "1"})
    assert looks(running, b) == []
    finish(running, a, 1800, checked=False)  # a judge taps again at the same second
    assert looks(running, a) == ["second_look.same_as_table"]
    result_correct(round=running, entry=a, reason="Tapped at the wrong table",
                   values=ResultValues(status=Status.FINISHED, time_seconds=1790),
                   base_version=2)
    assert looks(running, a) == []


def test_only_a_judges_record_is_looked_at(running, fast_person, clock):
    """Imports and the head judge's own writes are not second-guessed."""
    result_submit(round=running, entry=fast_person, action="record",
                  values=ResultValues(status=Status.FINISHED, time_seconds=1000))
    assert looks(running, fast_person) == []


def test_judges_and_watchers_cannot_keep_a_flagged_result(running, client_as, clock):
    entry = group_entries(running)[0]
    finish(running, entry, 1500, checked=False)
    count(running, entry, 400)
    judge = client_as(running.event.championship, Role.JUDGE)
    response = judge.post(live.live_url("looked_at", running, entry.number),
                          {"base_version": "2"})
    assert response.status_code == 403
    assert looks(running, entry) == ["second_look.count_after_finish"]
