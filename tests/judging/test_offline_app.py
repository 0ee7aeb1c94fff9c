"""Issue 31: the judges' service worker and web app manifest as the server serves them: the
worker's scope and release, the files it keeps (everything the screen loads, nothing else),
a new release for any change to them, and the manifest of a paired screen."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

from puzzlecomp import __version__
from puzzlecomp.judging.offline_app import RELEASE_HEADER, release, screen_assets

pytestmark = pytest.mark.django_db

WORKER_URL = "/judge/service-worker.js"


def worker_settings(response) -> dict:
    """The settings line the view puts in front of the worker's code."""
    first = response.content.decode().split("\n", 1)[0]
    match = re.fullmatch(r"const JUDGE_APP = (\{.*\});", first)
    assert match, first
    return json.loads(match.group(1))


def screen_of(championship, token: str) -> Client:
    client = Client()
    client.cookies[f"judge-{championship.slug}"] = token
    return client


def test_the_worker_is_served_from_judge_with_its_scope_and_never_from_a_cache(client):
    response = client.get(WORKER_URL)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/judge/"
    assert response["Cache-Control"] == "no-cache"
    # The worker runs under the site's content security policy like every page.
    assert "script-src 'self'" in response["Content-Security-Policy"]
    config = worker_settings(response)
    assert config["scope"] == "/judge/"
    assert config["release"] == release()
    assert config["releaseHeader"] == RELEASE_HEADER
    assert "self.addEventListener(\"fetch\"" in response.content.decode()


def test_the_release_is_the_apps_version_and_a_digest_of_the_kept_files():
    assert re.fullmatch(rf"{re.escape(__version__)}-[0-9a-f]{{12}}", release())
    assert release() == release()


def test_any_change_to_a_kept_file_is_a_new_release(settings, tmp_path, client):
    before = release()
    changed = tmp_path / "puzzlecomp"
    changed.mkdir()
    original = Path(settings.STATICFILES_DIRS[0]) / "puzzlecomp" / "live.js"
    shutil.copy(original, changed / "live.js")
    with (changed / "live.js").open("a", encoding="utf-8") as file:
        file.write("\n// the next release\n")
    settings.STATICFILES_DIRS = [tmp_path, *settings.STATICFILES_DIRS]
    after = release()
    assert after != before
    assert worker_settings(client.get(WORKER_URL))["release"] == after


def test_the_screen_names_its_release_for_the_worker(championship, paired, live_round):
    _device, token = paired
    response = screen_of(championship, token).get(f"/judge/{championship.slug}/")
    assert response.status_code == 200
    assert response[RELEASE_HEADER] == release()
    page = response.content.decode()
    assert f'data-release="{release()}"' in page
    assert f'data-worker-url="{WORKER_URL}"' in page
    assert (f'<link rel="manifest" href="/judge/{championship.slug}/manifest.webmanifest" '
            'crossorigin="use-credentials">') in page


def test_the_worker_keeps_every_file_the_screen_loads_and_each_is_served(
        championship, paired, live_round):
    _device, token = paired
    page = screen_of(championship, token).get(f"/judge/{championship.slug}/").content.decode()
    loaded = set(re.findall(r'(?:src|href)="(/static/[^"]+)"', page))
    kept = set(screen_assets())
    # The icons are the manifest's (the browser fetches them when it installs the screen).
    assert {url for url in loaded if "judge-icon" not in url} <= kept
    # And the modules the scripts import by name; each kept file exists.
    for url in kept:
        source = finders.find(url.removeprefix("/static/"))
        assert source, url
        if url.endswith(".js"):
            for imported in re.findall(r'from "\./([\w.-]+)"', Path(source).read_text()):
                assert f"/static/puzzlecomp/{imported}" in kept, (url, imported)
    assert len(kept) == len(screen_assets())


def test_the_manifest_opens_the_paired_screen_standalone(championship, paired):
    _device, token = paired
    response = screen_of(championship, token).get(
        f"/judge/{championship.slug}/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="cs")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    screen = f"/judge/{championship.slug}/"
    assert (manifest["start_url"], manifest["scope"], manifest["id"]) == (screen, screen, screen)
    assert manifest["display"] == "standalone"
    assert manifest["theme_color"] == "#1d2430"
    assert manifest["name"] == f"Rozhodčí · {championship.name}"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        assert finders.find(urlsplit(icon["src"]).path.removeprefix("/static/")), icon


def test_an_unpublished_championships_manifest_is_for_its_paired_phones_only(
        make_championship):
    from tests.judging.support import pair_device

    hidden = make_championship("wjpc-2025", name="Hidden Open")
    _device, token = pair_device(hidden, 1, 2)
    url = f"/judge/{hidden.slug}/manifest.webmanifest"
    assert Client().get(url).status_code == 404
    assert screen_of(hidden, token).get(url).status_code == 200
