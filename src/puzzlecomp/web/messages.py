"""Messages for the reader: engine and planning refusals in the reader's language (each screen
keeps its own table of translated templates by code, and falls back to the English message it
came with), and a posted form's errors."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib import messages
from django.forms import BaseForm
from django.http import HttpRequest


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


def form_errors_to_messages(request: HttpRequest, form: BaseForm) -> None:
    """A posted form's errors as messages for the page it redirects to ("Label: error")."""
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        for error in errors:
            messages.error(request, f"{label}: {error}" if label else error)
