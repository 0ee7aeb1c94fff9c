"""An entry's name is withheld when it names a member who did not consent to publication
(Person.consent_publish: "publish name, nationality and age category")."""

from __future__ import annotations

import pytest

from puzzlecomp.championships.selectors.publishing import public_name


@pytest.mark.parametrize(("name", "withheld", "shown"), [
    # An individual's entry is their own name.
    ("Ana Novak", [("Ana", "Novak")], ""),
    # A pair named after its members, one of whom did not consent.
    ("Ana Novak & Ben Berg", [("Ben", "Berg")], ""),
    # Registration may shorten it to last names (the demo's teams).
    ("Novak & Berg", [("Ben", "Berg")], ""),
    ("novak & BERG", [("Ben", "Berg")], ""),
    # A team name of the team's own choosing does not name anyone.
    ("Puzzle Queens", [("Ben", "Berg")], "Puzzle Queens"),
    # Whole words only: "Al" is not in "Alchemists".
    ("The Alchemists", [("Al", "Li")], "The Alchemists"),
    # Everybody consented.
    ("Ana Novak", [], "Ana Novak"),
])
def test_a_name_naming_a_member_without_consent_is_withheld(name, withheld, shown):
    assert public_name(name, withheld) == shown
