"""Browser tests: Debian's chromium driven by Playwright against the live Django server.

Skipped (and reported as skipped) where chromium is absent; `.ci/run` installs it and sets
PUZZLECOMP_BROWSER_TESTS=required, which turns a missing browser into a failure.
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-output" / "screenshots"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]


@pytest.fixture(scope="session")
def browser(live_server) -> Iterator[object]:
    """Chromium, started after the live server and closed before it (see below)."""
    if not Path(CHROMIUM).exists():
        if os.environ.get("PUZZLECOMP_BROWSER_TESTS") == "required":
            pytest.fail(f"chromium not found at {CHROMIUM}")
        pytest.skip("browser tests need Debian's chromium (apt-get install chromium)")
    # Playwright's sync API runs an event loop in this thread; the test code still touches
    # the database synchronously, which Django allows only when told.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()
    _live_server_requests_finish()


def _live_server_requests_finish(timeout: float = 10.0) -> None:
    """Wait for the live server's request threads to see chromium's connections close.

    A thread still holding a keep-alive connection when the live server stops sharing the
    in-memory test database fails to close that connection's socket (Django's close_request
    raises first), which pytest then reports as an unclosed socket at the end of the run.
    """
    deadline = time.monotonic() + timeout
    while any(thread.name.endswith("(process_request_thread)")
              for thread in threading.enumerate()):
        if time.monotonic() > deadline:
            raise AssertionError("the live server's request threads did not finish")
        time.sleep(0.02)


@pytest.fixture
def page(browser, live_server):
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def screenshot(page, name: str) -> Path:
    """Keep a picture of the page under test-output/screenshots."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


@pytest.fixture
def asgi_server(live_server) -> Iterator[str]:
    """The whole ASGI app (live notices included) served by uvicorn in a thread; its base URL.

    `live_server` is Django's threaded WSGI server, which cannot stream server-sent events;
    asking for it still makes the test database visible to other threads.
    """
    import socket

    import uvicorn
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    from puzzlecomp.live.reads import reads_wait
    from puzzlecomp.web.asgi import application

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(ASGIStaticFilesHandler(application), host="127.0.0.1", port=port,
                            log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)
    # A cancelled request's read may still hold the in-memory database's table lock.
    reads_wait(10)


@pytest.fixture
def live_page(browser, asgi_server):
    """A desktop-sized page against the ASGI server (`page` uses the WSGI live server)."""
    context = browser.new_context(base_url=asgi_server, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


@pytest.fixture
def phone_page(browser, asgi_server):
    """A phone-sized touch page against the ASGI server, as a judge holds it."""
    context = browser.new_context(base_url=asgi_server, viewport={"width": 390, "height": 844},
                                  is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def wait_until(page, expression: str, timeout: float = 15.0) -> None:
    """Poll a JavaScript expression from the test until it is true.

    Playwright's `wait_for_function` keeps polling inside the page by evaluating the string,
    which the content security policy forbids (no 'unsafe-eval'); evaluating from here is not.
    """
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for: {expression}")
        page.wait_for_timeout(50)
