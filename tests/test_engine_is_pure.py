"""The rules engine and the planning code import no framework, database or I/O."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import puzzlecomp

PURE_PACKAGES = ("rules", "planning")
FORBIDDEN_MODULES = {
    "django", "ninja", "sqlite3", "psycopg", "psycopg2", "redis", "socket", "http", "urllib",
    "requests", "subprocess", "os", "pathlib", "shutil", "io", "csv", "tempfile", "asyncio",
    "puzzlecomp.cli", "puzzlecomp.formats",
}
FORBIDDEN_CALLS = {"open", "print", "input", "exec", "eval"}
SOURCE = Path(puzzlecomp.__file__).parent


def pure_files() -> list[Path]:
    return sorted(f for package in PURE_PACKAGES for f in (SOURCE / package).rglob("*.py"))


@pytest.mark.parametrize("path", pure_files(), ids=lambda p: str(p.relative_to(SOURCE)))
def test_pure_module_imports_nothing_that_does_io(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        for name in names:
            top = {name.split(".")[0], ".".join(name.split(".")[:2])}
            assert not top & FORBIDDEN_MODULES, f"{path.name} imports {name}"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in FORBIDDEN_CALLS, f"{path.name} calls {node.func.id}()"


def test_importing_the_engine_loads_no_framework_or_database():
    code = (
        "import sys, puzzlecomp.rules, puzzlecomp.planning, pkgutil, importlib\n"
        "for pkg in (puzzlecomp.rules, puzzlecomp.planning):\n"
        "    for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + '.'):\n"
        "        importlib.import_module(m.name)\n"
        "print('\\n'.join(sorted(sys.modules)))\n"
    )
    loaded = set(subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                                text=True).stdout.split())
    # (socket does load: pydantic reads its package metadata through the email package.)
    for module in ("django", "sqlite3", "psycopg", "redis", "puzzlecomp.cli", "puzzlecomp.formats"):
        assert module not in loaded
