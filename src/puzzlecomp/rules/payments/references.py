"""Payment references that a bank carries from the payer to the organiser's statement.

Every entry has one number, the same in every currency: its event's position and its entry
number, digits only, closed by a Luhn check digit (so a mistyped digit is caught). Each currency
dresses it as its banks expect:

- CZK: the Czech variable symbol ("variabilní symbol"), at most ten digits: the number itself.
- EUR: an ISO 11649 creditor reference, "RF" + two check digits (ISO 7064 MOD 97-10) + the number.
- NOK: a Norwegian KID, whose last digit is a MOD10 (Luhn) check digit: the number itself.
- anything else (AUD): the number itself as a plain reference.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from stdnum import iso11649, luhn
from stdnum.iso7064 import mod_97_10

# Czech variable symbols carry at most ten digits; the event (2) and entry (5) numbers and the
# check digit make eight.
_EVENT_DIGITS = 2
_ENTRY_DIGITS = 5
# A creditor reference may be written in groups of four; a variable symbol stands alone.
_CREDITOR_REFERENCE = re.compile(r"RF\d\d(?: ?[0-9A-Z]){1,21}")
_DIGITS = re.compile(r"(?<![0-9])[0-9]{6,10}(?![0-9])")


@dataclass(frozen=True)
class EntryKey:
    """Which entry a reference names: the event's position in its championship and the entry's
    number in the event."""

    event_position: int
    number: int


def reference_digits(key: EntryKey) -> str:
    """The entry's reference number: event position, entry number, Luhn check digit."""
    if not 0 <= key.event_position < 10**_EVENT_DIGITS:
        raise ValueError(f"an event position out of range: {key.event_position}")
    if not 0 < key.number < 10**_ENTRY_DIGITS:
        raise ValueError(f"an entry number out of range: {key.number}")
    body = f"{key.event_position:0{_EVENT_DIGITS}d}{key.number:0{_ENTRY_DIGITS}d}"
    return body + luhn.calc_check_digit(body)


def payment_reference(key: EntryKey, currency: str) -> str:
    """The reference a payer types (or their banking app reads from the QR code) for the entry."""
    digits = reference_digits(key)
    if currency == "EUR":
        return "RF" + mod_97_10.calc_check_digits(digits + "RF") + digits
    return digits


def reference_kind(currency: str) -> str:
    """What the banks of a currency call the reference (shown beside it)."""
    return {"CZK": "variable_symbol", "EUR": "creditor_reference", "NOK": "kid"}.get(
        currency, "reference")


def entry_key_of(text: str) -> EntryKey | None:
    """The entry a reference names, read from what a bank carried; None when it holds no valid
    reference of ours (a wrong check digit counts as none: the line is matched otherwise)."""
    upper = text.upper()
    candidates = [_creditor_reference(found.group(0).replace(" ", ""))[4:]
                  for found in _CREDITOR_REFERENCE.finditer(upper)]
    candidates += [found.group(0) for found in _DIGITS.finditer(upper)]
    for candidate in candidates:
        if not candidate.isdigit():
            continue
        digits = candidate.lstrip("0").rjust(_EVENT_DIGITS + _ENTRY_DIGITS + 1, "0")
        if len(digits) != _EVENT_DIGITS + _ENTRY_DIGITS + 1 or not luhn.is_valid(digits):
            continue
        number = int(digits[_EVENT_DIGITS:-1])
        if number:
            return EntryKey(event_position=int(digits[:_EVENT_DIGITS]), number=number)
    return None


def _creditor_reference(text: str) -> str:
    """The longest valid creditor reference that `text` starts with ("RF46 0100 1254 NOVAK"
    holds "RF4601001254"); "" when none."""
    for end in range(len(text), 4, -1):
        if iso11649.is_valid(text[:end]):
            return text[:end]
    return ""
