"""Every error code the source can raise has a message in the one catalog, translated in every
language (the catalog is `puzzlecomp.championships.messages`).

The codes are collected from the source: a call to any function or class that takes a `code`
argument (`violation`, `PlanningError`, `SetupError`, the services' `_refuse` helpers, ...) with a
literal code in that place, or a `code=` keyword.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import polib
import pytest
from django.utils import translation

import puzzlecomp
from puzzlecomp.championships.messages import MESSAGES
from puzzlecomp.translations import LANGUAGES, catalog_path

SOURCE = Path(puzzlecomp.__file__).parent
CODE = re.compile(r"^[a-z_]+\.[a-z_]+$")


def _trees() -> dict[Path, ast.Module]:
    return {path: ast.parse(path.read_text(encoding="utf-8"))
            for path in sorted(SOURCE.rglob("*.py")) if "migrations" not in path.parts}


def _code_position(arguments: ast.arguments, skip_self: bool) -> int | None:
    names = [a.arg for a in arguments.posonlyargs + arguments.args][1 if skip_self else 0:]
    return names.index("code") if "code" in names else None


def _takers(trees: dict[Path, ast.Module]) -> dict[str, set[int]]:
    """Name of every callable with a `code` parameter -> the positions `code` may take."""
    takers: dict[str, set[int]] = {}
    classes: dict[str, ast.ClassDef] = {}
    callables: set[str] = set()
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and not node.name.startswith("__"):
                method = bool(node.args.args) and node.args.args[0].arg == "self"
                at = _code_position(node.args, skip_self=method)
                if at is not None:
                    takers.setdefault(node.name, set()).add(at)
            elif isinstance(node, ast.ClassDef):
                classes[node.name] = node
    for name, cls in classes.items():
        fields = [s.target.id for s in cls.body
                  if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)]
        for statement in cls.body:
            if isinstance(statement, ast.FunctionDef) and statement.name in ("__init__",
                                                                             "__call__"):
                at = _code_position(statement.args, skip_self=True)
                if at is not None:
                    (callables.add(name) if statement.name == "__call__"
                     else takers.setdefault(name, set()).add(at))
        if "code" in fields and name not in takers:  # a dataclass such as RuleViolation
            takers[name] = {fields.index("code")}
    inherited = True
    while inherited:  # DeviceRefused(DeviceError) takes the code where DeviceError does
        inherited = False
        for name, cls in classes.items():
            for base in cls.bases:
                if isinstance(base, ast.Name) and base.id in takers and name not in takers:
                    takers[name] = set(takers[base.id])
                    inherited = True
    for tree in trees.values():  # refuse = _Refusals(entry); refuse("result.x", ...)
        for node in ast.walk(tree):
            if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                    and isinstance(node.value.func, ast.Name)
                    and node.value.func.id in callables):
                at = _code_position(next(s for s in classes[node.value.func.id].body
                                         if isinstance(s, ast.FunctionDef)
                                         and s.name == "__call__").args, skip_self=True)
                for target in node.targets:
                    if isinstance(target, ast.Name) and at is not None:
                        takers[target.id] = {at}
    return takers


def _raised(trees: dict[Path, ast.Module]) -> Iterator[tuple[str, str]]:
    """(code, where) of every literal code passed where a code goes; "" for a computed one."""
    takers = _takers(trees)
    for path, tree in trees.items():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = (func.id if isinstance(func, ast.Name)
                    else func.attr if isinstance(func, ast.Attribute) else "")
            values = [k.value for k in node.keywords if k.arg == "code"]
            values += [node.args[at] for at in takers.get(name, ()) if 0 <= at < len(node.args)]
            where = f"{path.relative_to(SOURCE)}:{node.lineno}"
            for value in values:
                if isinstance(value, ast.Constant) and isinstance(value.value, str):
                    if CODE.match(value.value):
                        yield value.value, where
                elif isinstance(value, ast.JoinedStr):
                    yield "", where


RAISED = sorted(set(_raised(_trees())))
CODES = sorted({code for code, _ in RAISED if code})


def test_the_scan_finds_the_codes_of_every_layer():
    # Engine, planning, services, devices and the import: if the scan broke, this list shrinks.
    for code in ("result.finish_without_time", "seating.not_enough_tables", "dispute.no_result",
                 "qualifiers.outdated", "device.revoked", "result.already_checked",
                 "membership.last_owner", "import.not_a_date", "registration.team_size",
                 "result.version_conflict", "entry.duplicate", "groups.duplicate_group"):
        assert code in CODES
    assert len(CODES) > 150


def test_every_code_is_a_literal():
    computed = [where for code, where in RAISED if not code]
    assert not computed, f"a code built at run time cannot be checked: {computed}"


def test_every_raised_code_has_a_message():
    missing = [code for code in CODES if code not in MESSAGES]
    assert not missing, f"codes without a message in championships/messages.py: {missing}"


def test_every_message_belongs_to_a_raised_code():
    unraised = sorted(set(MESSAGES) - set(CODES))
    assert not unraised, f"messages of codes nothing raises any more: {unraised}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated(language):
    entries = {e.msgid: e for e in polib.pofile(str(catalog_path(language)))
               if not e.obsolete}
    untranslated = []
    for code in (code for code in CODES if code in MESSAGES):
        with translation.override(None):
            english = str(MESSAGES[code])
        entry = entries.get(english)
        if entry is None or not entry.msgstr or entry.fuzzy or entry.msgstr == english:
            untranslated.append(code)
    assert not untranslated, f"codes without a {language} translation: {untranslated}"
