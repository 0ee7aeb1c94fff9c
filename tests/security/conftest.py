"""Fixtures of the security tests: the web tests' championship, users in roles, clients."""

from __future__ import annotations

from tests.web import conftest as web

make_championship = web.make_championship
championship = web.championship
user_in_role = web.user_in_role
client_as = web.client_as
_empty_cache = web._empty_cache
clock = web.clock
creator = web.creator
submit = web.submit

from tests.web import test_registration_public as registration  # noqa: E402

published = registration.published
wjpc = registration.wjpc

from tests.judging import conftest as judging  # noqa: E402

live_round = judging.live_round
paired = judging.paired
phone = judging.phone
