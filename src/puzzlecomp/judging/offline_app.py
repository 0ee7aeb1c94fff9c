"""The judge's screen as an installable offline app: its service worker and web app manifest.

The service worker (static/puzzlecomp/judge-sw.js, served from /judge/ so that its scope is the
judges' pages) keeps the screen and the files it runs on in one cache named after the release;
the release is the app's version and a digest of those files, so any change to them is a new
release, and a phone never mixes the files of two (docs/judging.md, "Without the network").
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from puzzlecomp import __version__
from puzzlecomp.championships.models import Championship

SCOPE = "/judge/"
WORKER = "puzzlecomp/judge-sw.js"
# What the screen loads (screen.html, phone_base.html) and the modules judge.js imports.
SCREEN_FILES = (
    "puzzlecomp.css",
    "puzzlecomp/judge.css",
    "puzzlecomp/judge.js",
    "puzzlecomp/live.js",
    "puzzlecomp/judge-outbox.js",
    "puzzlecomp/judge-offline.js",
    "puzzlecomp/favicon.svg",
)
# judge.js imports these by their plain names ("./live.js"): hashed file names in production
# do not reach into module imports, so both names are kept.
IMPORTED_BY_NAME = ("puzzlecomp/live.js", "puzzlecomp/judge-outbox.js",
                    "puzzlecomp/judge-offline.js")
ICONS = (("puzzlecomp/judge-icon-192.png", "192x192"), ("puzzlecomp/judge-icon-512.png",
                                                        "512x512"))
THEME_COLOR = "#1d2430"
BACKGROUND_COLOR = "#eef0f3"
RELEASE_HEADER = "X-Puzzlecomp-Release"


def _source(name: str) -> Path:
    found = finders.find(name)
    if not isinstance(found, str):
        raise LookupError(f"static file {name} not found")
    return Path(found)


def _stamp() -> tuple[tuple[str, float, int], ...]:
    """The files' places, times and sizes: a new release changes at least one of them."""
    stamps = []
    for name in (*SCREEN_FILES, WORKER):
        path = _source(name)
        stat = path.stat()
        stamps.append((str(path), stat.st_mtime, stat.st_size))
    return tuple(stamps)


@lru_cache(maxsize=4)
def _release_of(stamp: tuple[tuple[str, float, int], ...]) -> str:
    digest = hashlib.sha256()
    for path, _mtime, _size in stamp:
        digest.update(Path(path).read_bytes())
    return f"{__version__}-{digest.hexdigest()[:12]}"


def release() -> str:
    """The screen's release: the app's version and a digest of every file the phone keeps."""
    return _release_of(_stamp())


def screen_assets() -> list[str]:
    """The addresses the service worker keeps for the screen, in a stable order."""
    urls = [static(name) for name in SCREEN_FILES]
    plain = [f"{static('')}{name}" for name in IMPORTED_BY_NAME]
    return list(dict.fromkeys([*urls, *plain]))


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The judges' service worker: its settings (release, files) ahead of its code."""
    settings_line = "const JUDGE_APP = " + json.dumps({
        "release": release(), "scope": SCOPE, "assets": screen_assets(),
        "releaseHeader": RELEASE_HEADER,
    }) + ";\n"
    code = _source(WORKER).read_text(encoding="utf-8")
    response = HttpResponse(settings_line + code,
                            content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = SCOPE
    # The browser compares the worker byte for byte on each check: never an old copy.
    response["Cache-Control"] = "no-cache"
    return response


def manifest_of(championship: Championship) -> dict[str, object]:
    """The web app manifest of one championship's judge's screen (add to the home screen)."""
    screen = reverse("judging:home", args=[championship.slug])
    return {
        "id": screen,
        "name": _("Judge · %(championship)s") % {"championship": championship.name},
        "short_name": _("Judge"),
        "description": _("Record the results of your tables, with or without the network."),
        "start_url": screen,
        "scope": screen,
        "display": "standalone",
        "orientation": "portrait",
        "theme_color": THEME_COLOR,
        "background_color": BACKGROUND_COLOR,
        "icons": [
            {"src": static("puzzlecomp/favicon.svg"), "sizes": "any", "type": "image/svg+xml"},
            *({"src": static(name), "sizes": sizes, "type": "image/png"}
              for name, sizes in ICONS),
        ],
    }
