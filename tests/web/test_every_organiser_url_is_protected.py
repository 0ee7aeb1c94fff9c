"""Every organiser URL, walked with every role: anonymous visitors are sent to sign in, roles
weaker than the view's requirement get 403, and roles strong enough get through."""

from __future__ import annotations

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from puzzlecomp.championships.models import Role

ROLES = [None, *Role]


def organiser_patterns() -> list[tuple[str, object]]:
    """(route, view) of every pattern below /control/<slug>/ (routes with only a slug arg)."""
    found: list[tuple[str, object]] = []

    def walk(patterns, prefix: str) -> None:
        for pattern in patterns:
            route = prefix + str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, route)
            elif isinstance(pattern, URLPattern) and route.startswith("control/<slug:slug>/"):
                found.append((route, pattern.callback))

    walk(get_resolver().url_patterns, "")
    return found


def test_every_organiser_view_declares_the_role_it_needs():
    missing = [route for route, view in organiser_patterns()
               if not hasattr(view, "required_role")]
    assert missing == []


def fill(route: str, slug: str) -> str:
    """A concrete URL for a route: the slug, and 1 for any other converter."""
    import re

    url = route.replace("<slug:slug>", slug)
    return "/" + re.sub(r"<(?:\w+:)?\w+>", "1", url)


@pytest.mark.parametrize("role", ROLES, ids=lambda r: "anonymous" if r is None else r.name)
def test_every_organiser_url_with_every_role(championship, client_as, role):
    client = client_as(championship, role)
    for route, view in organiser_patterns():
        url = fill(route, championship.slug)
        response = client.get(url)
        needed = view.required_role
        if role is None:
            assert response.status_code == 302, url
            assert "/accounts/login/" in response["Location"], url
        elif role > needed:
            assert response.status_code == 403, (url, role)
        else:
            assert response.status_code in (200, 302, 404, 405), (url, role, response.status_code)


def test_a_member_of_one_championship_has_no_role_in_another(make_championship, client_as):
    mine = make_championship("wjpc-2025", name="Mine")
    other = make_championship("czech-championship", name="Other")
    client = client_as(mine, Role.OWNER)
    assert client.get(f"/control/{other.slug}/").status_code == 403
