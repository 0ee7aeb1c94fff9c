"""English, Czech, Norwegian Bokmål and Spanish: catalogs compile, cover every source string,
and leave nothing untranslated."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest
from django.test import Client
from django.utils import translation

from puzzlecomp.translations import LANGUAGES, LOCALE_DIR, check_catalogs, compile_catalogs


def source_msgids(tmp_path: Path) -> set[str]:
    """The msgids makemessages extracts from the sources now (needs GNU gettext)."""
    if not shutil.which("xgettext"):
        if os.environ.get("CI"):
            pytest.fail("GNU gettext (xgettext) is needed in CI: apt-get install gettext")
        pytest.skip("GNU gettext (xgettext) not installed")
    package = Path(LOCALE_DIR).parent
    copy = tmp_path / "puzzlecomp"
    shutil.copytree(package, copy, ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
    shutil.rmtree(copy / "locale")
    (copy / "locale").mkdir()
    subprocess.run(
        [sys.executable, "-m", "django", "makemessages", "-l", "cs", "--no-location"],
        cwd=copy, check=True, capture_output=True,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "puzzlecomp.settings.test"},
    )
    return {e.msgid for e in polib.pofile(str(copy / "locale/cs/LC_MESSAGES/django.po"))}


def test_every_source_string_is_translated_in_every_language(tmp_path):
    problems = check_catalogs(source_msgids(tmp_path))
    assert [str(p) for p in problems] == []


def test_catalogs_compile():
    written = compile_catalogs()
    assert sorted(p.parent.parent.name for p in written) == sorted(LANGUAGES)


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "word"), [("cs", "Přihlásit"), ("nb", "Logg inn"),
                                                ("es", "Iniciar sesión")])
def test_a_visitor_switches_language(language, word):
    compile_catalogs()
    translation.trans_real._translations = {}  # reload the freshly compiled catalogs
    client = Client()
    client.post("/i18n/setlang/", {"language": language, "next": "/"})
    assert word in client.get("/accounts/login/").content.decode()
