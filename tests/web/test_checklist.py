"""The first-run checklist on the championship overview (issue 24, 13): published, fees and
window, floor plan, each round's limit and puzzle size, seating published, judges' phones
paired, each with a link to where it is set; read-only, for organisers."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.utils import timezone

from puzzlecomp.championships.models import (
    AuditEntry,
    Championship,
    JudgeDevice,
    Role,
    Round,
)
from puzzlecomp.championships.selectors.checklist import first_run_checklist


@pytest.fixture
def norway(make_championship) -> Championship:
    """norway-nm-2025.txt names no fee, window, hall, time limit or puzzle: all to set."""
    return make_championship("norway-nm-2025")


def items(html: str) -> dict[str, tuple[str, str]]:
    """data-check -> (state class, link) of every checklist line."""
    return {key: (state, link) for state, key, link in re.findall(
        r'<li class="(done|todo)" data-check="([^"]+)">.*?<a href="([^"]+)">', html, re.S)}


def test_a_new_norwegian_championship_has_everything_to_do_each_with_its_link(norway,
                                                                               client_as):
    organiser = client_as(norway, Role.ORGANISER)
    html = organiser.get(f"/control/{norway.slug}/").content.decode()
    found = items(html)
    rounds = Round.objects.filter(event__championship=norway).order_by("event__position")
    expected = {"published", "fees_window", "floor_plan", "phones",
                *(f"round_rules_{r.pk}" for r in rounds),
                *(f"seating_{r.pk}" for r in rounds)}
    assert set(found) == expected
    assert {state for state, _ in found.values()} == {"todo"}
    # Every link opens the screen where the thing is set.
    for _, link in found.values():
        assert organiser.get(link, follow=True).status_code == 200, link
    assert found["floor_plan"][1] == f"/control/{norway.slug}/setup/floor-plan/"
    assert found["phones"][1] == f"/control/{norway.slug}/judges/"
    assert "No fee for Individual, Pairs, Teams." in html
    assert "set the round&#x27;s time limit first" in html
    assert "set the round&#x27;s pieces first" in html


def test_once_everything_is_set_the_checklist_says_so(norway, client_as):
    norway.published = True
    norway.floor_rows = [6, 6]
    norway.registration_closes_at = norway.starts_at - dt.timedelta(days=5)
    norway.save()
    norway.events.update(fee_amount=250)
    for rnd in Round.objects.filter(event__championship=norway):
        rnd.time_limit_minutes = 120
        rnd.seating_published = True
        rnd.save()
        rnd.puzzles.update(pieces=1000)
    JudgeDevice.objects.create(championship=norway, label="Row 1", table_from=1, table_to=12,
                               pairing_hash="p1", token_hash="t1", paired_at=timezone.now(),
                               expires_at=timezone.now() + dt.timedelta(days=2))
    assert all(item.done for item in first_run_checklist(norway))
    html = client_as(norway, Role.ORGANISER).get(f"/control/{norway.slug}/").content.decode()
    assert "Everything is set." in html
    assert "12 tables" in html


def test_a_phone_created_but_not_paired_is_still_to_do(norway):
    JudgeDevice.objects.create(championship=norway, label="Row 1", table_from=1, table_to=12,
                               pairing_hash="p1", expires_at=timezone.now())
    (phones,) = [item for item in first_run_checklist(norway) if item.key == "phones"]
    assert not phones.done
    assert phones.detail == "0 of 1 phones paired."


def test_the_wjpc_rulebook_sets_fees_window_hall_and_rounds_itself(make_championship):
    """wjpc-2025.txt names fees, the window, the hall and every round's puzzle and limit."""
    done = {item.key: item.done for item in first_run_checklist(make_championship())}
    assert done["fees_window"]
    assert done["floor_plan"]
    assert all(value for key, value in done.items() if key.startswith("round_rules_"))


def test_judges_do_not_get_the_organisers_checklist_and_reading_it_writes_nothing(
        norway, client_as):
    audits = AuditEntry.objects.count()
    judge = client_as(norway, Role.JUDGE).get(f"/control/{norway.slug}/").content.decode()
    assert 'id="checklist"' not in judge
    client_as(norway, Role.ORGANISER).get(f"/control/{norway.slug}/")
    assert AuditEntry.objects.count() == audits


def test_under_way_an_event_nobody_entered_asks_nothing_and_a_started_round_was_seated(
        norway, client_as):
    """Review of issue 24: an individuals-only NM could never complete the list (its pairs and
    teams come from the ruleset), and a running round still asked for its seating."""
    from tests.judging.support import seat_round

    final = Round.objects.get(event__championship=norway, event__code="individual")
    final.time_limit_minutes = 120
    final.save()
    final.puzzles.update(pieces=1000)
    seat_round(norway, "individual", final.code, tables=2)
    keys = {item.key: item.done for item in first_run_checklist(norway)}
    assert keys[f"seating_{final.pk}"] is True
    assert keys[f"round_rules_{final.pk}"] is True
    assert not any(k.startswith(("seating_", "round_rules_")) and k not in (
        f"seating_{final.pk}", f"round_rules_{final.pk}") for k in keys)


def test_a_missing_puzzle_size_links_to_the_puzzles_page(norway):
    final = Round.objects.get(event__championship=norway, event__code="individual")
    final.time_limit_minutes = 120
    final.save()
    item = next(i for i in first_run_checklist(norway) if i.key == f"round_rules_{final.pk}")
    assert (item.url_name, item.url_args) == ("control:setup:puzzle", ("individual", "final", 0))
