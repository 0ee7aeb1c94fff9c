"""Audited actions are declared once (championships/actions.py), each with a message a person
reads in their language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.utils import translation

import puzzlecomp
from puzzlecomp.championships.actions import (
    ACTIONS,
    GROUP_MOVED,
    SEATS_SWAPPED,
    action_message,
)

SOURCE = Path(puzzlecomp.__file__).parent


def test_no_module_but_the_registry_spells_an_action_code():
    """Migrations keep the codes of their time; everything else names the registry's."""
    spelled = []
    for path in SOURCE.rglob("*.py"):
        if path.name == "actions.py" or "migrations" in path.parts:
            continue
        for code in re.findall(r"[\"'](puzzlecomp\.[a-z_]+\.[a-z_]+)[\"']", path.read_text()):
            if code in ACTIONS:
                spelled.append(f"{path.relative_to(SOURCE)}: {code}")
    assert spelled == []


@pytest.mark.parametrize("language", ["en", "cs", "nb", "es"])
def test_every_action_says_what_happened_with_its_data(language):
    with translation.override("en"):
        english = {code: action_message(code, {}) for code in ACTIONS}
    with translation.override(language):
        for action in ACTIONS.values():
            said = action_message(action.code, {})
            assert said != action.code
            assert language == "en" or said != english[action.code], action.code
        moved = action_message(GROUP_MOVED.code, {"entry": 7, "from_group": "A",
                                                  "to_group": "C", "reason": "family"})
        assert all(part in moved for part in ("7", "A", "C"))
    assert action_message(SEATS_SWAPPED.code, {}) == "Seats swapped in group -"


def test_an_action_of_an_older_version_shows_its_code():
    assert action_message("puzzlecomp.something.retired", {"x": 1}) == (
        "puzzlecomp.something.retired")


def test_the_audit_log_is_written_by_the_unit_of_work_and_never_read_back():
    """Facts live in their tables; the audit log records what happened (the admin lists it)."""
    # The championship file names the audit log only to leave it out (LEFT_OUT).
    allowed = {"championships/models.py", "championships/services/work.py",
               "championships/admin.py", "championships/services/interchange.py"}
    readers = [str(path.relative_to(SOURCE)) for path in SOURCE.rglob("*.py")
               if "AuditEntry" in path.read_text() and "migrations" not in path.parts
               and str(path.relative_to(SOURCE)) not in allowed]
    assert readers == []
