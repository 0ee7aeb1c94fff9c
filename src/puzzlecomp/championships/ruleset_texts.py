"""A ruleset's words in the visitor's language: the one place that translates them.

The rules engine keeps the words as the ruleset file writes them (`rules/texts.py`); every page,
PDF and form shows them through `ruleset_text`, at render time, in the active language. The
catalogs hold them under the context "ruleset", apart from the interface's own words.
"""

from __future__ import annotations

from django.utils.translation import pgettext

from puzzlecomp.rules.texts import CONTEXT


def ruleset_text(text: str) -> str:
    """The ruleset's words in the active language; as written when the catalogs lack them
    (an organiser's own name for an event or round stays as the organiser typed it)."""
    return pgettext(CONTEXT, text) if text else text
