"""Load and validate the ruleset files shipped in puzzlecomp/rules/rulesets."""

from __future__ import annotations

import functools
import tomllib
from importlib import resources

from pydantic import ValidationError

from puzzlecomp.rules.errors import RulesetError, violation
from puzzlecomp.rules.ruleset import Ruleset

_PACKAGE = "puzzlecomp.rules.rulesets"


def ruleset_ids() -> list[str]:
    """The ids of every bundled ruleset, sorted."""
    files = resources.files(_PACKAGE).iterdir()
    return sorted(f.name.removesuffix(".toml") for f in files if f.name.endswith(".toml"))


@functools.cache
def load_ruleset(ruleset_id: str) -> Ruleset:
    """The bundled ruleset with this id, validated; raises RulesetError naming file and field."""
    if ruleset_id not in ruleset_ids():
        raise RulesetError(
            violation(
                "ruleset.unknown",
                f"unknown ruleset {ruleset_id!r}; known: {', '.join(ruleset_ids())}",
                field="ruleset",
                ruleset=ruleset_id,
            )
        )
    source = resources.files(_PACKAGE).joinpath(f"{ruleset_id}.toml")
    return parse_ruleset(source.read_text(encoding="utf-8"), filename=f"{ruleset_id}.toml")



def parse_ruleset(text: str, *, filename: str) -> Ruleset:
    """Validate ruleset TOML text; every problem names the file and the dotted field path."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesetError(
            violation("ruleset.syntax", f"{filename}: {exc}", field="", file=filename)
        ) from exc
    try:
        return Ruleset.model_validate(data)
    except ValidationError as exc:
        problems = []
        for error in exc.errors():
            where = _field_path(data, error["loc"])
            problems.append(
                violation(
                    "ruleset.invalid",
                    f"{filename}: {where or '(top level)'}: {error['msg']}",
                    field=where,
                    file=filename,
                )
            )
        raise RulesetError(problems) from exc


def _field_path(data: object, loc: tuple[int | str, ...]) -> str:
    """A readable path such as events[individual].rounds[first].time_limit_minutes."""
    parts: list[str] = []
    node = data
    for key in loc:
        if isinstance(key, int) and isinstance(node, list) and key < len(node):
            node = node[key]
            label = node.get("id") if isinstance(node, dict) else None
            parts[-1] += f"[{label if isinstance(label, str) else key}]"
        else:
            parts.append(str(key))
            node = node.get(key) if isinstance(node, dict) else None
    return ".".join(parts)
