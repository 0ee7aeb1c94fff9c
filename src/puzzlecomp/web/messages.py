"""Engine and planning refusals in the reader's language: each screen keeps its own table of
translated templates by code, and falls back to the English message it came with."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def translated(table: Mapping[str, Any], code: str, english: str,
               params: Mapping[str, Any]) -> str:
    """The template for `code` filled with `params`; `english` when none fits."""
    template = table.get(code)
    if template is None:
        return english
    try:
        return str(template) % dict(params)
    except (KeyError, TypeError, ValueError):
        return english
