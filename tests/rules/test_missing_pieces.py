"""What a judge is asked about missing pieces follows what each rulebook's penalty reads."""

from __future__ import annotations

import pytest

from puzzlecomp.rules.loading import load_ruleset
from puzzlecomp.rules.missing_pieces import missing_breakdown


@pytest.mark.parametrize(("ruleset", "asked"), [
    # wjpc-2025.txt, penalties: adjacent missing pieces are a defect, not a penalty.
    ("wjpc-2025", ("contiguous",)),
    # australia-state-national.txt: the same reading of adjacent missing pieces.
    ("australia-state", ("contiguous",)),
    ("australia-national", ("contiguous",)),
    # norway-nm-2025.txt: a lost piece costs nothing; a misplaced (found) one costs 5 s.
    ("norway-nm-2025", ("found",)),
    # czech-championship.txt and czech-blind-and-relay.txt: every missing piece costs alike.
    ("czech-championship", ()),
    ("czech-blind-relay", ()),
])
def test_the_judge_is_asked_only_what_the_rulebooks_penalty_reads(ruleset, asked):
    assert missing_breakdown(load_ruleset(ruleset).penalty) == asked
