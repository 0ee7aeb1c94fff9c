"""The streamer's page lists every overlay address of every round and group, with its size and
what it shows; each address it lists is a working overlay."""

from __future__ import annotations

import datetime as dt
import re
from urllib.parse import urlsplit

import pytest
from django.urls import reverse

from puzzlecomp.championships.models import Round, RoundState
from puzzlecomp.championships.services.rounds import round_state_set
from puzzlecomp.public.live.screens import OVERLAYS
from tests.support import round_of
from tests.web.test_public_results import enter, finish


@pytest.fixture
def running(championship) -> Round:
    rnd = round_of(championship, "individual", "first")
    round_state_set(round=rnd, state=RoundState.RUNNING,
                    starts_at=dt.datetime.now(dt.UTC) - dt.timedelta(minutes=10))
    finish(rnd, enter(rnd, 1, "Ana Novak", "CZ", table=1), 600)
    return rnd


def overlay_urls(html: str) -> list[str]:
    return re.findall(r'<code class="overlay-url" id="overlay-[\d-]+">([^<]+)</code>', html)


def test_every_overlay_of_every_round_and_group_is_listed(client, running):
    championship = running.event.championship
    html = client.get(reverse("public:stream", args=[championship.slug])).content.decode()
    urls = overlay_urls(html)
    expected = 0
    for rnd in Round.objects.filter(event__championship=championship):
        groups = len(rnd.groups) if len(rnd.groups) > 1 else 0
        # Every kind for the whole round; each but the lower third also for each group.
        expected += len(OVERLAYS) + (len(OVERLAYS) - 1) * groups
        for kind in OVERLAYS:
            path = reverse("public:live:overlay", args=[championship.slug, rnd.pk, kind])
            assert any(urlsplit(url).path == path for url in urls), (rnd, kind)
    assert len(urls) == expected
    assert "1920 \N{MULTIPLICATION SIGN} 1080" in html
    assert "Browser source" in html


def test_the_addresses_listed_are_absolute_and_each_one_works(client, running):
    championship = running.event.championship
    html = client.get(reverse("public:stream", args=[championship.slug])).content.decode()
    urls = [url for url in overlay_urls(html)
            if f"/results/{running.pk}/" in url]
    assert urls
    assert all(url.startswith("http://testserver/") for url in urls)
    for url in urls:
        parts = urlsplit(url.replace("&amp;", "&"))
        response = client.get(f"{parts.path}?{parts.query}")
        assert response.status_code == 200, url


def test_the_live_round_is_open_and_the_others_folded(client, running):
    championship = running.event.championship
    html = client.get(reverse("public:stream", args=[championship.slug])).content.decode()
    assert f'data-stream-round="{running.pk}" open>' in html
    later = round_of(championship, "individual", "second")
    assert f'data-stream-round="{later.pk}">' in html


def test_the_copy_buttons_appear_only_with_javascript(client, running):
    html = client.get(reverse("public:stream", args=[running.event.championship.slug])
                      ).content.decode()
    assert 'data-copy="overlay-' in html
    assert 'class="secondary copy" data-copy="hall-url" hidden>' in html
    assert "stream.js" in html
