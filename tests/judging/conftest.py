"""Fixtures of the judges' phones: a live round seated at tables, a paired device, its client."""

from __future__ import annotations

import pytest
from django.test import Client

from puzzlecomp.championships.models import JudgeDevice, Round
from tests.judging.support import pair_device, seat_round
from tests.web import conftest as web

# The web tests' fixtures: a championship per ruleset, users in roles, signed-in clients.
make_championship = web.make_championship
championship = web.championship
user_in_role = web.user_in_role
client_as = web.client_as
clock = web.clock


@pytest.fixture
def live_round(championship) -> Round:
    """WJPC's individual first round, running for 10 minutes: 4 tables, 2 entries each
    (entries 1-2 at table 1, 3-4 at table 2, ...)."""
    return seat_round(championship, "individual", "first", tables=4)


@pytest.fixture
def paired(championship) -> tuple[JudgeDevice, str]:
    """A device for tables 1-2, paired: the device and its token."""
    return pair_device(championship, 1, 2)


@pytest.fixture
def phone(paired) -> Client:
    """An API client holding the paired device's token."""
    return Client(HTTP_AUTHORIZATION=f"Bearer {paired[1]}")
