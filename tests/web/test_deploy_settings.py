"""The production settings pass Django's deployment checklist (issue 6, deployment)."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_check(**env: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "puzzlecomp.settings.prod", **env}
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "check", "--deploy", "--fail-level", "WARNING"],
        env=environment, capture_output=True, text=True, timeout=120, check=False)


def test_check_deploy_passes_on_the_production_settings():
    done = run_check(SECRET_KEY=secrets.token_urlsafe(50), ALLOWED_HOSTS="puzzles.example.org",
                     DATABASE_URL="postgresql://puzzlecomp@db.example.org/puzzlecomp")
    assert done.returncode == 0, done.stdout + done.stderr


def test_production_refuses_to_start_without_a_secret_key():
    env = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"}
    done = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "check"],
        env={**env, "DJANGO_SETTINGS_MODULE": "puzzlecomp.settings.prod"},
        capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode != 0
    assert "SECRET_KEY must be set in production" in done.stderr
