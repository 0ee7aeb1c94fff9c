"""Countries by name in the reader's language, as every picker and list shows them."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils import translation
from django_countries import countries

from puzzlecomp.rules.collation import collation_key


def by_name(pairs: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """(code, name) pairs sorted by name as a reader of the active language expects."""
    language = translation.get_language() or "en"
    return sorted(pairs, key=lambda pair: collation_key(pair[1], language))


def country_choices() -> list[tuple[str, str]]:
    """Every country as (ISO code, name in the active language), by name."""
    return by_name((code, str(name)) for code, name in countries)
