"""A country as every page shows it: its IOC code (stored values are ISO 3166 alpha-2)."""

from __future__ import annotations

from django import template

from puzzlecomp.championships.engine import ioc_of_code

register = template.Library()


@register.filter(name="ioc")
def ioc_code(country: str) -> str:
    """The IOC code of a stored country ("CZ" -> "CZE"); the value itself when it has none."""
    return ioc_of_code(country) or country
