"""`{{ words|ruleset_text }}`: a ruleset's words (kept as plain strings, e.g. in the archive's
cached rows) in the reader's language, through the one function that translates them."""

from __future__ import annotations

from django import template

from puzzlecomp.championships.ruleset_texts import ruleset_text as translated

register = template.Library()


@register.filter
def ruleset_text(words: str) -> str:
    return translated(words)
