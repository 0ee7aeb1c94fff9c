"""schemathesis against the API's OpenAPI document: generated requests to the public reads and
the judges' device writes never cause a server error, and every answer has a status, content
type and body the document declares."""

from __future__ import annotations

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from puzzlecomp.championships.models import Round
from puzzlecomp.championships.services.results import result_record
from puzzlecomp.rules.results import Status
from tests.judging.support import pair_device, seat_round

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance]
# Enough to reach every declared answer in well under a minute on the CI machine.
EXAMPLES = 50


@pytest.fixture(autouse=True)
def _keep_the_test_connection():
    """The WSGI app is called in the test's own thread and transaction: as Django's test
    client does, keep the request's start and end from closing that connection (a real
    close on PostgreSQL; SQLite's in-memory database is never closed)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def seeded(championship) -> tuple[Round, str]:
    """A running round with results at two of its four tables and a device for tables 1-2."""
    rnd = seat_round(championship, "individual", "first", tables=4)
    for seat in rnd.seats.select_related("entry").filter(table__lte=2):
        result_record(round=rnd, entry=seat.entry, status=Status.FINISHED, time_seconds=600)
    _device, token = pair_device(championship, 1, 2)
    return rnd, token


def operations():
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", get_wsgi_application())
    for result in schema.get_all_operations():
        yield result.ok()


def aim(case, rnd: Round) -> None:
    """Point a generated request at the seeded championship and round (random values mostly
    miss and only ever see 404)."""
    path = case.path_parameters or {}
    if "slug" in path:
        path["slug"] = rnd.event.championship.slug
    if "round_id" in path:
        path["round_id"] = rnd.pk
    if "event_code" in path:
        path["event_code"] = rnd.event.code
    if isinstance(case.body, dict) and "round_id" in case.body:
        case.body["round_id"] = rnd.pk


def exercise(operation, rnd: Round, token: str) -> None:
    """Generated requests to one operation, half of them aimed at the seeded data."""
    # The in-process WSGI client does not undo Content-Encoding as an HTTP client would, so
    # ask for the snapshot's plain bytes.
    headers = {"Accept-Encoding": "identity"}
    if operation.path.startswith("/api/v1/device/"):
        headers["Authorization"] = f"Bearer {token}"

    @given(case=operation.as_strategy(), aimed=st.booleans())
    @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    def run(case, aimed: bool) -> None:
        if aimed:
            aim(case, rnd)
        case.call_and_validate(headers=headers, checks=CHECKS)

    run()


def test_the_api_keeps_to_its_openapi_document(seeded):
    rnd, token = seeded
    checked = []
    for operation in operations():
        exercise(operation, rnd, token)
        checked.append(f"{operation.method.upper()} {operation.path}")
    assert "POST /api/v1/device/results" in checked
    assert "GET /api/v1/championships/{slug}/rounds/{round_id}/ranking" in checked
