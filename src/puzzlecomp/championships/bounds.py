"""The domain's bounds (rules/limits.py) as the form fields and validators of every form that
takes money or a name, so a value past its bound is refused where it is typed."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from puzzlecomp.championships.messages import MESSAGES
from puzzlecomp.rules import limits


def money_field(label: Any, *, min_value: Decimal = Decimal(0), **kwargs: Any) -> forms.Field:
    """An amount of money: two decimal places, at most limits.MAX_MONEY (a million)."""
    return forms.DecimalField(label=label, min_value=min_value, max_value=limits.MAX_MONEY,
                              decimal_places=2, **kwargs)


def one_line(value: str) -> None:
    """A name is one line: it heads pages and an email's subject."""
    if limits.has_line_break(value):
        raise ValidationError(MESSAGES["name.line_break"], code="line_break")
    if limits.has_line_control_characters(value):
        raise ValidationError(MESSAGES["name.control_character"], code="control_character")
