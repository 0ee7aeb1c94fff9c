"""JSON objects that remember a key given twice, so a reader can refuse a setting with two
values instead of taking the last one silently (json.loads keeps the last)."""

from __future__ import annotations

from typing import Any


class JsonObject(dict[str, Any]):
    """A decoded JSON object; `repeated` holds (key, first value, later value) for every key
    given twice with different values."""

    repeated: tuple[tuple[str, Any, Any], ...] = ()


def json_object(pairs: list[tuple[str, Any]]) -> JsonObject:
    """`object_pairs_hook` for json.loads: the object, with its repeated keys noted."""
    found = JsonObject()
    repeated = []
    for key, value in pairs:
        if key in found and found[key] != value:
            repeated.append((key, found[key], value))
        found[key] = value
    if repeated:
        found.repeated = tuple(repeated)
    return found


def repeated_keys(value: Any) -> tuple[tuple[str, Any, Any], ...]:
    """The keys a decoded object was given twice with different values (none for other values)."""
    return value.repeated if isinstance(value, JsonObject) else ()


def given_twice(name: str, first: Any, later: Any) -> str:
    """The message for a setting given twice with different values."""
    return f"setting {name} is given twice, as {first!r} and as {later!r}; give it once"
