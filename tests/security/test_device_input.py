"""Issue 14, findings 4 and 7: the device API refuses text with control characters with 422 on
every backend (a NUL answered 500 on PostgreSQL), and takes no JSON `true` as a time."""

from __future__ import annotations

import pytest

from puzzlecomp.championships.models import Result, ResultChange
from tests.judging.support import elapsed, write


@pytest.mark.parametrize("note", ["Help\x00from a spectator", "bell\x07", "escape\x1b[2J"])
def test_a_note_with_control_characters_is_refused_with_422(phone, live_round, note):
    response = write(phone, live_round, 1, "dsq", note=note)
    assert response.status_code == 422
    assert not Result.objects.exists()
    assert not ResultChange.objects.exists()


def test_a_note_with_line_breaks_is_text(phone, live_round):
    response = write(phone, live_round, 1, "dsq", note="Help from\na spectator")
    assert response.status_code == 200


@pytest.mark.parametrize("value", [True, False, "60", 60.5])
def test_a_time_must_be_a_whole_number(phone, live_round, value):
    response = write(phone, live_round, 1, "tap", time_seconds=value)
    assert response.status_code == 422
    assert not Result.objects.exists()


@pytest.mark.parametrize(("field", "value"), [
    # Bounds of rules/limits.py: a day of seconds, 100,000 pieces.
    ("time_seconds", 24 * 60 * 60 + 1), ("missing", 10**12), ("pieces", 10**12),
    ("remaining", 2**63),
])
def test_numbers_beyond_the_domain_are_refused(phone, live_round, field, value):
    values = {"time_seconds": elapsed(live_round), field: value}
    response = write(phone, live_round, 1, "tap", **values)
    assert response.status_code == 422
    assert not Result.objects.exists()
