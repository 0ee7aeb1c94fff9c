"""The judge's phone without the network (issue 31): what the phone keeps, and how soon a tap
shows as waiting on a screen reloaded offline.

Run: .venv/bin/python bench/judge_offline.py [--taps N] [--tables T ...]

Sets up Django (dev settings, DEBUG off) on a temporary SQLite database, seats a running WJPC
first round of two entrants per table, pairs a device for all its tables and serves the ASGI
app with uvicorn on 127.0.0.1 (a secure context). Debian's chromium, phone-sized, opens the
judge's screen, waits until the service worker keeps it, goes offline and reloads. Prints
JSON, per section size:

- `cache_bytes`: the bodies the service worker keeps (Cache Storage: the screen's files and
  the screen), `round_data_bytes`: the round's data and clock offset in localStorage,
  `kept_bytes`: both; `storage_estimate_bytes`: what the browser counts for the site
  (`navigator.storage.estimate()`, with its own overheads). Target: `kept_bytes` under 500 KB.
- `offline_reload_ms`: from the reload to the screen showing its tables and "Offline" (median);
- `tap_to_waiting_ms`: from the tap on TIME to the entrant's line marked waiting to send, on
  the page reloaded offline (median and the slowest of `--taps` taps, one per entrant).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import shutil
import socket
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from django_setup import django_on_a_temporary_database

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]

KEPT = """async () => {
  let cache = 0;
  for (const name of await caches.keys()) {
    const store = await caches.open(name);
    for (const request of await store.keys()) {
      cache += (await (await store.match(request)).arrayBuffer()).byteLength;
    }
  }
  let roundData = 0;
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    roundData += key.length + localStorage.getItem(key).length;
  }
  const estimate = await navigator.storage.estimate();
  return { cache, roundData, estimate: estimate.usage };
}"""

# Tap TIME on one entrant and wait until its line is marked waiting; milliseconds between.
TAP = """(number) => new Promise((resolve) => {
  const card = () => document.querySelector(`article.entry[data-entry="${number}"]`);
  const start = performance.now();
  const observer = new MutationObserver(() => {
    if (card()?.classList.contains("pending")) {
      observer.disconnect();
      resolve(performance.now() - start);
    }
  });
  observer.observe(document.getElementById("tables"), { subtree: true, childList: true,
                                                          attributes: true });
  card().querySelector('button[data-action="tap"]').click();
})"""


def running_round(tables: int) -> tuple[Any, str]:
    """A published WJPC championship whose first round runs: two entrants per table; a device
    paired for every table. Returns the championship and the device's token."""
    from django.utils import timezone

    from puzzlecomp.championships.models import Entry, EntryStatus, Round, RoundState, Seat
    from puzzlecomp.championships.services.devices import device_create, device_pair
    from puzzlecomp.championships.services.rounds import round_state_set
    from puzzlecomp.championships.services.setup import championship_create

    championship = championship_create(ruleset_id="wjpc-2025", name=f"Offline bench {tables}",
                                       venue="Hall",
                                       starts_at=timezone.now() + dt.timedelta(days=1))
    championship.published = True
    championship.save()
    rnd = Round.objects.get(event__championship=championship, event__code="individual",
                            code="first")
    group = rnd.groups[0] if rnd.groups else ""
    number = 0
    for table in range(1, tables + 1):
        for seat in (1, 2):
            number += 1
            entry = Entry.objects.create(event=rnd.event, number=number, name=f"Entrant {number}",
                                         country="CZE", group=group,
                                         status=EntryStatus.CONFIRMED)
            Seat.objects.create(round=rnd, entry=entry, group=group, table=table, seat=seat)
    round_state_set(round=rnd, state=RoundState.RUNNING,
                    starts_at=timezone.now() - dt.timedelta(minutes=10))
    _device, code = device_create(championship=championship, label="Bench", table_from=1,
                                  table_to=tables, user=None)
    _device, token = device_pair(championship=championship, code=code)
    return championship, token


def serve() -> str:
    """The whole ASGI app under uvicorn in a thread; its base URL."""
    import uvicorn

    from puzzlecomp.web.asgi import application

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(application, host="127.0.0.1", port=port,
                                           log_level="warning", lifespan="off"))
    threading.Thread(target=server.run, daemon=True).start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    return f"http://127.0.0.1:{port}"


def wait_until(page: Any, expression: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for: {expression}")
        page.wait_for_timeout(50)


def measure(browser: Any, base: str, tables: int, taps: int, reloads: int) -> dict[str, Any]:
    championship, token = running_round(tables)
    slug = championship.slug
    context = browser.new_context(base_url=base, viewport={"width": 390, "height": 844},
                                  is_mobile=True, has_touch=True)
    context.add_cookies([{"name": f"judge-{slug}", "value": token, "url": base}])
    page = context.new_page()
    page.goto(f"/judge/{slug}/")
    wait_until(page, """caches.keys().then(async (names) => names.length === 1
        && (await (await caches.open(names[0])).keys()).some(
             (r) => new URL(r.url).pathname === location.pathname))""")
    wait_until(page, "localStorage.length > 0")
    kept = page.evaluate(KEPT)

    context.set_offline(True)
    reload_ms = []
    for _ in range(reloads):
        start = time.perf_counter()
        page.reload()
        page.locator('#sync[data-state="offline"]').wait_for()
        page.locator("article.entry").first.wait_for()
        reload_ms.append((time.perf_counter() - start) * 1000)
    tap_ms = []
    for number in range(1, min(taps, 2 * tables) + 1):
        tap_ms.append(page.evaluate(TAP, number))
        page.locator('#sheet-form button[data-submit="later"]').click()
    context.close()
    return {
        "tables": tables, "entrants": 2 * tables,
        "cache_bytes": kept["cache"], "round_data_bytes": kept["roundData"],
        "kept_bytes": kept["cache"] + kept["roundData"],
        "storage_estimate_bytes": kept["estimate"],
        "offline_reload_ms": round(statistics.median(reload_ms), 1),
        "tap_to_waiting_ms": {"median": round(statistics.median(tap_ms), 1),
                              "slowest": round(max(tap_ms), 1), "taps": len(tap_ms)},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--taps", type=int, default=20)
    parser.add_argument("--reloads", type=int, default=5)
    parser.add_argument("--tables", type=int, nargs="+", default=[5, 20, 60])
    args = parser.parse_args()
    django_on_a_temporary_database()
    from django.conf import settings

    settings.ALLOWED_HOSTS.append("127.0.0.1")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    base = serve()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        results = [measure(browser, base, tables, args.taps, args.reloads)
                   for tables in args.tables]
        browser.close()
    print(json.dumps({"target_kept_bytes": 500_000, "sections": results}, indent=2))


if __name__ == "__main__":
    main()
