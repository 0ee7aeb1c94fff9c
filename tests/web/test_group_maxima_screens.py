"""The organiser's groups screen warns when a group passes the rulebook's maximum
(wjpc-2025.txt, Individual First Round: "a maximum of 200 participants per group"), naming the
group and its count (docs/qualification.md, Group maxima)."""

from __future__ import annotations

import html

import pytest

from puzzlecomp.championships.models import Role
from tests.web.test_groups import add_entries, first_round

pytestmark = pytest.mark.django_db


def test_the_groups_screen_names_a_group_past_its_maximum(make_championship, client_as):
    championship = make_championship("wjpc-2025")
    rnd = first_round(championship)
    entries = add_entries(rnd.event, {"CZE": 201, "SVK": 3})
    for n, entry in enumerate(entries):
        entry.group = "A" if n < 201 else "B"
        entry.save(update_fields=["group"])
    client = client_as(championship, Role.ORGANISER)
    page = html.unescape(client.get(
        f"/control/{championship.slug}/planning/{rnd.pk}/groups/").content.decode())
    assert ("Group A of First round has 201 entrants, past the rulebook's maximum of 200 per "
            "group.") in page
    assert "Group B of" not in page
