"""The people behind an entry, as far as the rules care about them."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Person:
    """One competitor's rule-relevant facts; None means not given."""

    nationality: str | None = None
    residence: str | None = None
    # State or territory of residence (Australia), e.g. "NSW", "NT".
    region: str | None = None
    years_resident: int | None = None
    birth_year: int | None = None
    debutant: bool | None = None
    first_state_competition_of_year: bool | None = None


def split_members(value: str | None, count: int) -> tuple[str | None, ...]:
    """Split a "CZE/GER" member list; a single value applies to every member."""
    if value is None or value == "":
        return (None,) * count
    parts = [p.strip() for p in value.split("/")]
    if len(parts) == 1:
        return (parts[0],) * count
    return tuple(p or None for p in parts)
