"""Issue 14, finding 1 and the low findings on files: every number of the championship file and
of the organiser's forms has a bound from the domain, a deeply nested file is refused with a
clear message, and importing a championship needs a role that may create one."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from puzzlecomp.championships.models import Championship, Role
from puzzlecomp.championships.services.interchange import championship_export
from puzzlecomp.formats.interchange import (
    InterchangeError,
    field_path,
    load_json,
    parse_championship_file,
)

UPLOAD = "/control/import/"


def upload(client: Client, document: object, slug: str = "hostile"):
    content = json.dumps(document).encode() if not isinstance(document, bytes) else document
    return client.post(UPLOAD, {"file": SimpleUploadedFile("c.json", content), "slug": slug})


@pytest.fixture
def exported(championship) -> dict:
    return championship_export(championship)


@pytest.mark.parametrize("role", [Role.COMPETITOR, Role.JUDGE, Role.HEAD_JUDGE])
def test_a_competitor_or_judge_may_not_import_a_championship(championship, exported,
                                                             client_as, role):
    client = client_as(championship, role)
    assert upload(client, exported).status_code == 403
    assert client.post("/control/new/", {}).status_code == 403
    assert not Championship.objects.filter(slug="hostile").exists()


def test_an_organiser_may_import_a_championship(championship, exported, client_as):
    response = upload(client_as(championship, Role.ORGANISER), exported)
    assert response.status_code == 302
    assert Championship.objects.filter(slug="hostile").exists()


@pytest.mark.parametrize(("path", "value"), [
    (("championship", "floor_rows"), [2_000_000]),
    (("championship", "floor_rows"), [500] * 11),
    (("championship", "floor_rows"), [1] * 201),
    (("championship", "guest_tables"), 10**9),
    (("events", 0, "capacity"), 10**12),
    (("events", 0, "members_max"), 10**6),
    (("events", 0, "rounds", 0, "time_limit_minutes"), 10**9),
    (("events", 0, "rounds", 0, "puzzles"), [{"pieces": 10**9}]),
])
def test_a_number_beyond_the_domain_is_refused_naming_its_place(exported, path, value):
    document = json.loads(json.dumps(exported))
    target = document
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(InterchangeError) as refused:
        parse_championship_file(document)
    assert any(p.path.startswith(field_path(path)) for p in refused.value.problems)


def test_a_hostile_floor_plan_is_refused_on_upload(championship, exported, client_as):
    exported["championship"]["floor_rows"] = [2_000_000]
    response = upload(client_as(championship, Role.ORGANISER), exported)
    assert response.status_code == 200
    assert "floor_rows" in response.content.decode()
    assert not Championship.objects.filter(slug="hostile").exists()


@pytest.mark.parametrize(("field", "value"), [
    ("rows", "2000000"), ("rows", ",".join(["1"] * 201)), ("guest_tables", "1000000"),
])
def test_the_floor_plan_form_refuses_a_hall_beyond_the_domain(championship, client_as,
                                                             field, value):
    client = client_as(championship, Role.ORGANISER)
    data = {"rows": "6,8", "guest_tables": "0", field: value}
    response = client.post(f"/control/{championship.slug}/setup/floor-plan/", data)
    assert response.status_code == 200
    championship.refresh_from_db()
    assert max(championship.floor_rows) <= 500  # rules/limits.py
    assert championship.guest_tables <= 5_000


def test_a_deeply_nested_file_gets_a_clear_error(championship, exported, client_as):
    deep = b'{"format": "puzzlecomp-championship", "version": 1, "x": ' + b"[" * 100_000 \
        + b"]" * 100_000 + b"}"
    with pytest.raises(InterchangeError, match="nested more than"):
        parse_championship_file(load_json(deep))
    exported["championship"]["settings"] = {"a": json.loads("[" * 200 + "]" * 200)}
    with pytest.raises(InterchangeError, match="nested more than"):
        parse_championship_file(exported)
    response = upload(client_as(championship, Role.ORGANISER), deep)
    assert response.status_code == 200
    assert "nested more than" in response.content.decode()


def test_text_with_a_nul_character_is_refused_in_a_file(exported):
    exported["championship"]["venue"] = "Hall\x00"
    with pytest.raises(InterchangeError, match="control characters"):
        parse_championship_file(exported)
