"""Championship settings as the organiser gives them, checked against the ruleset's declarations.

Names and values are accepted in any letter case and returned in the ruleset's own spelling;
a setting with a default may be left out. Every layer (CLI, setup screens, import) calls this.
"""

from __future__ import annotations

from collections.abc import Mapping

from puzzlecomp.rules.conditions import Value
from puzzlecomp.rules.errors import RulesError, RuleViolation, violation
from puzzlecomp.rules.ruleset import Ruleset


def championship_settings(ruleset: Ruleset, given: Mapping[str, object]) -> dict[str, Value]:
    """Every declared setting's value, defaults filled in.

    Raises RulesError listing every unknown name (setting.unknown), value the setting does not
    take (setting.value_unknown), setting given twice with different values in any letter case
    (setting.twice) and setting given no value (setting.required).
    """
    names = {name.casefold(): name for name in ruleset.settings}
    problems: list[RuleViolation] = settings_given_twice(given)
    chosen: dict[str, Value] = {}
    for raw_name, raw_value in given.items():
        name = names.get(raw_name.strip().casefold())
        if name is None:
            known = ", ".join(ruleset.settings) or "none"
            problems.append(violation(
                "setting.unknown",
                f"{ruleset.id} has no setting {raw_name!r}; known: {known}",
                field=raw_name, setting=raw_name, known=known,
            ))
            continue
        value = str(raw_value).strip()
        if not value:
            continue
        values = {choice.value.casefold(): choice.value for choice in ruleset.setting_values(name)}
        if value.casefold() not in values:
            allowed = ", ".join(values.values())
            problems.append(violation(
                "setting.value_unknown",
                f"setting {name} takes {allowed}, not {value!r}",
                field=name, setting=name, value=value, allowed=allowed,
            ))
            continue
        chosen[name] = values[value.casefold()]
    for name, spec in ruleset.settings.items():
        if name not in chosen and spec.default is not None:
            chosen[name] = spec.default
        elif name not in chosen and not any(p.field == name for p in problems):
            problems.append(violation(
                "setting.required",
                f"{ruleset.id} needs setting {name}: {spec.description}",
                field=name, setting=name,
            ))
    if problems:
        raise RulesError(problems)
    return chosen


def settings_given_twice(given: Mapping[str, object]) -> list[RuleViolation]:
    """A setting named twice (names differing only in letter case) with two different values
    (setting.twice), one violation per repetition. Check each source of settings on its own
    before another overrides it: an override must not hide a document's contradiction."""
    first: dict[str, tuple[str, str]] = {}
    problems = []
    for raw_name, raw_value in given.items():
        key, value = raw_name.strip().casefold(), str(raw_value).strip()
        if key not in first:
            first[key] = (raw_name, value)
            continue
        earlier_name, earlier = first[key]
        if earlier.casefold() != value.casefold():
            problems.append(violation(
                "setting.twice",
                f"setting {earlier_name} is given twice, as {earlier!r} and as {value!r} "
                f"({raw_name}); give it once",
                field=raw_name, setting=earlier_name, first=earlier, second=value,
            ))
    return problems


def settings_overridden(base: Mapping[str, object],
                        over: Mapping[str, object]) -> dict[str, object]:
    """`base` with every setting of `over` in its place, names compared in any letter case
    (a --setting replaces a document's setting of the same name, it does not repeat it).
    A setting `base` gives twice is hidden here: check `base` with settings_given_twice first."""
    replaced = {name.strip().casefold() for name in over}
    return {**{n: v for n, v in base.items() if n.strip().casefold() not in replaced}, **over}
