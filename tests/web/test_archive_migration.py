"""The upgrade makes a stored archive true (issue 30): 0018 gives imported rounds the rules'
puzzles and archived entry members their debutant fact."""

from __future__ import annotations

import pytest

from puzzlecomp.championships.models import EntryMember, Puzzle
from tests.web.test_archive_truth import imported, pieces
from tests.web.test_migrations import migrate

BEFORE = [("championships", "0017_official_time_zone")]


@pytest.mark.django_db(transaction=True)
def test_an_archive_stored_with_the_sources_sizes_and_no_debutants_is_corrected():
    """wjpc-2025.txt: pairs first rounds are 500 pieces; a debutant has not competed in the
    category at a previous edition."""
    imported()
    try:
        migrate(BEFORE)
        # As an earlier version stored it: the source's guess, no debutant fact.
        Puzzle.objects.filter(round__event__code="pairs").update(pieces=1000)
        EntryMember.objects.update(debutant=None)
    finally:
        migrate()
    assert pieces(2023, "pairs", "first") == [500]
    assert pieces(2023, "pairs", "final") == [1000]
    assert EntryMember.objects.get(entry__event__championship__slug="wjpc-2023",
                                   entry__event__code="pairs", person__archive_id="Pa").debutant
    assert not EntryMember.objects.get(entry__event__championship__slug="wjpc-2024",
                                       entry__event__code="pairs",
                                       person__archive_id="Pa").debutant
