"""Creating a championship from a ruleset, and the organiser's first screens."""

from __future__ import annotations

import pytest
from django.urls import reverse

from puzzlecomp.championships.models import AuditEntry, Membership, Role
from puzzlecomp.rules.loading import ruleset_ids


@pytest.mark.parametrize("ruleset_id", ruleset_ids())
def test_a_championship_is_created_from_any_ruleset(make_championship, ruleset_id):
    championship = make_championship(ruleset_id)
    events = {e.code: [r.code for r in e.rounds.all()] for e in championship.events.all()}
    assert events
    assert AuditEntry.objects.filter(action="puzzlecomp.championship.created").exists()


def test_wjpc_2025_gets_its_rounds_groups_puzzles_and_hall(make_championship):
    """wjpc-2025.txt: groups A-F, 500 pieces, 108 tables with 6 for guests."""
    championship = make_championship("wjpc-2025")
    first = championship.events.get(code="individual").rounds.get(code="first")
    assert first.groups == ["A", "B", "C", "D", "E", "F"]
    assert [p.pieces for p in first.puzzles.all()] == [500]
    teams = championship.events.get(code="teams").rounds.get(code="first")
    assert [p.models_to_choose_from for p in teams.puzzles.all()] == [4, 4]
    assert sum(championship.floor_rows) == 108
    assert championship.guest_tables == 6


def test_the_creator_becomes_owner(client, creator):
    user = creator
    client.force_login(user)
    response = client.post(reverse("control:championship_new"), {
        "ruleset_id": "czech-championship", "name": "MČR 2026",
        "starts_at": "2026-05-01T09:00", "venue": "Praha",
    })
    assert response.status_code == 302
    membership = Membership.objects.get(user=user)
    assert membership.role == Role.OWNER
    assert client.get(response["Location"]).status_code == 200
