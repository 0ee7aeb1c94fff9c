"""The words of a ruleset that people read: names, descriptions, prizes.

A field typed `Text` holds English (or the ruleset's own language) that the web layer shows in
the visitor's language; ids, codes and brands are plain `str` and are never translated. The
catalogs carry every `Text` of every bundled ruleset (tests/test_ruleset_texts.py).
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel


class _Shown:
    """Marks a string field as words a person reads."""


SHOWN = _Shown()
Text = Annotated[str, SHOWN]

# The translation context of ruleset words in the catalogs: "Final" the round is not "Final"
# the state of a round.
CONTEXT = "ruleset"


def shown_texts(model: object) -> set[str]:
    """Every non-empty `Text` value in a ruleset (or any part of one), nested parts included."""
    found: set[str] = set()
    if isinstance(model, BaseModel):
        for name, info in type(model).model_fields.items():
            value = getattr(model, name)
            if SHOWN in info.metadata and isinstance(value, str):
                if value:
                    found.add(value)
            else:
                found |= shown_texts(value)
    elif isinstance(model, (tuple, list)):
        for item in model:
            found |= shown_texts(item)
    elif isinstance(model, dict):
        for item in model.values():
            found |= shown_texts(item)
    return found
