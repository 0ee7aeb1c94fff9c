"""Translation catalogs: compile .po to .mo without system gettext, and check completeness."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import polib

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
LANGUAGES = ("cs", "nb", "es")
_PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]|\{\w*\}")
_NPLURALS = re.compile(r"nplurals\s*=\s*(\d+)")


@dataclass(frozen=True)
class CatalogProblem:
    language: str
    msgid: str
    problem: str

    def __str__(self) -> str:
        return f"{self.language}: {self.problem}: {self.msgid!r}"


def catalog_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / "django.po"


def compile_catalogs() -> list[Path]:
    """Write django.mo beside every django.po; returns the files written."""
    written = []
    for language in LANGUAGES:
        source = catalog_path(language)
        if source.exists():
            target = source.with_suffix(".mo")
            polib.pofile(str(source)).save_as_mofile(str(target))
            written.append(target)
    return written


def check_catalogs(expected_msgids: set[str] | None = None) -> list[CatalogProblem]:
    """Every language present, every string translated, not fuzzy, with the same placeholders
    and as many plural forms as the language has; and, when `expected_msgids` (from the
    sources) is given, none of them missing."""
    problems = []
    for language in LANGUAGES:
        path = catalog_path(language)
        if not path.exists():
            problems.append(CatalogProblem(language, "", f"no catalog at {path}"))
            continue
        catalog = polib.pofile(str(path))
        active = [e for e in catalog if not e.obsolete]
        found = _NPLURALS.search(catalog.metadata.get("Plural-Forms", ""))
        forms = int(found.group(1)) if found else 2
        for entry in active:
            translations = [entry.msgstr] if not entry.msgid_plural else list(
                entry.msgstr_plural.values())
            if "fuzzy" in entry.flags:
                problems.append(CatalogProblem(language, entry.msgid, "fuzzy"))
            elif not all(translations):
                problems.append(CatalogProblem(language, entry.msgid, "untranslated"))
            elif entry.msgid_plural and len(translations) != forms:
                # gettext refuses the catalog (msgfmt -c); Django would pick a missing form.
                problems.append(CatalogProblem(language, entry.msgid,
                                               f"{len(translations)} plural forms, not {forms}"))
            elif sorted(_PLACEHOLDER.findall(entry.msgid)) != sorted(
                    _PLACEHOLDER.findall(translations[0])):
                problems.append(CatalogProblem(language, entry.msgid, "placeholders differ"))
        if expected_msgids is not None:
            present = {e.msgid for e in active}
            problems.extend(CatalogProblem(language, msgid, "missing from the catalog")
                            for msgid in sorted(expected_msgids - present))
    return problems
