"""Tests: SQLite by default; TEST_DATABASE_URL runs the same suite on PostgreSQL."""

import os
import tempfile
from pathlib import Path

from puzzlecomp.settings.base import *  # noqa: F403
from puzzlecomp.settings.base import DATABASES

if os.environ.get("TEST_DATABASE_URL"):
    os.environ["DATABASE_URL"] = os.environ["TEST_DATABASE_URL"]
    from puzzlecomp.settings.base import database_from_env

    DATABASES["default"] = database_from_env(DATABASES["default"]["NAME"])  # type: ignore[arg-type]
else:
    DATABASES["default"]["NAME"] = ":memory:"
    DATABASES["default"]["TEST"] = {"NAME": ":memory:"}

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
STORAGES = {
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# WhiteNoise serves collected files; tests use Django's own static handling instead.
MIDDLEWARE = [m for m in MIDDLEWARE if not m.startswith("whitenoise")]  # noqa: F405

# Tests sign results packages with a key of their own run, never the developer's (./var).
RESULTS_KEY_FILE = Path(tempfile.mkdtemp(prefix="puzzlecomp-test-key-")) / "results-signing-key"
