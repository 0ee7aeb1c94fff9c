"""The words of a ruleset people read are marked as such in the ruleset's shape: a new
field of names or descriptions is found by the catalog test without being listed there."""

from __future__ import annotations

from puzzlecomp.rules.loading import parse_ruleset
from puzzlecomp.rules.texts import shown_texts

RULESET = """
id = "club"
name = "Club Cup"
rulebook = "club.txt"

[penalty]
seconds_per_piece = 10
charge = "all"

[facts.region]
description = "Region of residence"
kind = "choice"
values = [{ value = "N", name = "North" }, { value = "S" }]

[official_ranking]
description = "Lives in the north"
when = { field = "region", equals = "N" }

[[events]]
id = "solo"
name = "Solo"
kind = "individual"

[[events.rounds]]
id = "heat"
name = "Heat"
groups = ["A"]
puzzles = [{ pieces = 500, brand = "Trefl" }]

[[events.awards]]
from_place = 1
to_place = 1
official_only = true
items = "a cake"
"""


def test_names_conditions_prizes_and_choices_are_words_and_ids_brands_and_codes_are_not():
    texts = shown_texts(parse_ruleset(RULESET, filename="club.toml"))
    assert texts == {"Club Cup", "Region of residence", "North", "Lives in the north", "Solo",
                     "Heat", "a cake"}
