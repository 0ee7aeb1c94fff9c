"""What a public results page of 200 entries weighs, and how soon its rows show on slow 3G.

Run: .venv/bin/python bench/page_weight.py [--runs N] [--port P]

Starts `puzzlecomp serve --demo` (dev settings, DEBUG off) on a temporary SQLite database and
opens group A of the demo's individual first round (200 entries) in Debian's chromium, with the
network emulated through the DevTools protocol (`Network.emulateNetworkConditions`: 400 kbit/s
each way, 400 ms round trip) and an empty cache on every run. Prints JSON:

- `transferred_bytes`: every response the page loads (HTML, CSS, JS, the clock's time samples),
  as they travelled: compressed bodies and headers (`encodedDataLength`); the live notice stream
  is left out, it stays open and carries only the notices;
- `resources`: each one's body as served with `Accept-Encoding: gzip`, and uncompressed;
- `rows_shown_ms`: from the start of navigation until the 200th row is laid out on screen
  (median of the runs), `first_contentful_paint_ms`, and when the HTML's first and last bytes
  arrived (`html_first_byte_ms`: the 400 ms round trip plus the server's time).

Targets (issue 16): under 100 KB compressed with everything it loads; rows within 1.5 s.

The same network then loads the other long public pages (issue 24), each `--runs` times:
the demo's individual standings, a ranking list, the records and a person page. For each,
`pages` gives `transferred_bytes` and `loaded_ms` (median time to the load event). Targets:
under 100 KB and 3 s each.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SLOW_3G = {"offline": False, "latency": 400, "downloadThroughput": 400_000 / 8,
           "uploadThroughput": 400_000 / 8}
ROWS = 200
STREAM = "/events"


def environment(data_dir: Path) -> dict[str, str]:
    return {**os.environ, "PUZZLECOMP_DATA_DIR": str(data_dir), "DEBUG": "0",
           "ALLOWED_HOSTS": "127.0.0.1,localhost",
           "DJANGO_SETTINGS_MODULE": "puzzlecomp.settings.dev"}


def serve(port: int, env: dict[str, str]) -> subprocess.Popen[bytes]:
    server = subprocess.Popen(
        [str(ROOT / ".venv/bin/puzzlecomp"), "serve", "--demo", "--port", str(port)],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300  # loading the demo takes a minute or two
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2)
            return server
        except OSError:
            time.sleep(1)
    server.terminate()
    raise SystemExit("the server did not start")


# Counts the demo's unfinished entrants of group A (it records only the first finishes), so
# that the page shows a line for each of its 200 entries.
FILL_GROUP = """
import django
django.setup()
from puzzlecomp.championships.models import Entry, Result, Round
from puzzlecomp.championships.services.results import ResultValues, result_submit
from puzzlecomp.rules.results import Status
rnd = Round.objects.filter(event__championship__slug="demo-wjpc-2025",
                           event__code="individual").order_by("position").first()
done = Result.objects.filter(round=rnd).values_list("entry_id", flat=True)
for i, entry in enumerate(Entry.objects.filter(event=rnd.event, group="A")
                          .exclude(pk__in=list(done)).order_by("number")):
    result_submit(round=rnd, entry=entry, action="verify",
                  values=ResultValues(status=Status.UNFINISHED, pieces=200 + i))
"""


def fill_group(env: dict[str, str]) -> None:
    subprocess.run([str(ROOT / ".venv/bin/python"), "-c", FILL_GROUP], env=env, check=True)


def page_url(base: str) -> str:
    """Group A of the individual first round: the demo's group of 200."""
    index = urllib.request.urlopen(f"{base}/c/demo-wjpc-2025/results/").read().decode()
    start = index.index('href="/c/demo-wjpc-2025/results/') + len('href="')
    end = index.index('"', start)
    return f"{base}{index[start:end]}?group=A"


def served_size(url: str) -> dict[str, Any]:
    request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request) as response:
        body = response.read()
        encoding = response.headers.get("Content-Encoding", "")
    plain = gzip.decompress(body) if encoding == "gzip" else body
    return {"encoding": encoding or "none", "served_bytes": len(body),
            "uncompressed_bytes": len(plain)}


# The other long public pages of the demo (issue 24): standings, a ranking list, the records.
OTHER_PAGES = {"standings": "/c/demo-wjpc-2025/standings/individual/",
               "ranking": "/rankings/wjpc/individual/", "records": "/records/"}


def slow_phone(browser: Any) -> tuple[Any, Any, dict[str, str], dict[str, int]]:
    """A 390 px page on slow 3G with an empty cache, and the bytes each response took."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    cdp.send("Network.emulateNetworkConditions", SLOW_3G)
    urls: dict[str, str] = {}
    transferred: dict[str, int] = {}
    cdp.on("Network.requestWillBeSent",
           lambda event: urls.__setitem__(event["requestId"], event["request"]["url"]))
    cdp.on("Network.loadingFinished", lambda event: transferred.__setitem__(
        event["requestId"], int(event["encodedDataLength"])))
    return context, page, urls, transferred


def page_load(browser: Any, url: str) -> dict[str, Any]:
    """One load of a page without a live stream: bytes and time to its load event."""
    context, page, urls, transferred = slow_phone(browser)
    page.goto(url, wait_until="load")
    loaded = page.evaluate('performance.getEntriesByType("navigation")[0].loadEventEnd')
    page.wait_for_timeout(500)
    sizes = [size for key, size in transferred.items()
             if key in urls and STREAM not in urls[key]]
    context.close()
    return {"loaded_ms": round(loaded), "transferred_bytes": sum(sizes)}


def person_page(base: str) -> str:
    """The first person of the individual ranking list."""
    listing = urllib.request.urlopen(f"{base}{OTHER_PAGES['ranking']}").read().decode()
    start = listing.index('href="/people/') + len('href="')
    return listing[start:listing.index('"', start)]


def one_load(browser: Any, url: str) -> dict[str, Any]:
    context, page, urls, transferred = slow_phone(browser)
    page.goto(url, wait_until="commit")
    page.wait_for_function(
        f"""() => {{
          const rows = document.querySelectorAll("tr[data-entry]");
          return rows.length >= {ROWS} && rows[{ROWS - 1}].getBoundingClientRect().height > 0
            && [...document.styleSheets].length > 0;
        }}""", polling="raf", timeout=30_000)
    shown = page.evaluate("performance.now()")
    page.wait_for_load_state("load")
    page.wait_for_timeout(3000)  # the clock's time samples and the stream come after load
    paint = page.evaluate(
        "performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null")
    html = page.evaluate("""() => {
      const [entry] = performance.getEntriesByType("navigation");
      return [entry.responseStart, entry.responseEnd];
    }""")
    loaded = {urls[key]: size for key, size in transferred.items()
              if key in urls and STREAM not in urls[key]}
    context.close()
    return {"rows_shown_ms": round(shown), "first_contentful_paint_ms": round(paint or 0),
            "html_first_byte_ms": round(html[0]), "html_complete_ms": round(html[1]),
            "transferred": loaded}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--port", type=int, default=8791)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    data_dir = Path(tempfile.mkdtemp(prefix="puzzlecomp-weight-"))
    env = environment(data_dir)
    server = serve(args.port, env)
    base = f"http://127.0.0.1:{args.port}"
    try:
        fill_group(env)
        url = page_url(base)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=shutil.which("chromium") or "/usr/bin/chromium",
                args=["--no-sandbox"])
            one_load(browser, url)  # warm-up: the server builds the round's snapshot once
            runs = [one_load(browser, url) for _ in range(args.runs)]
            others = {**OTHER_PAGES, "person": person_page(base)}
            pages = {}
            for name, path in others.items():
                page_load(browser, base + path)  # warm-up
                loads = [page_load(browser, base + path) for _ in range(args.runs)]
                pages[name] = {"page": path,
                               "transferred_bytes": loads[-1]["transferred_bytes"],
                               "loaded_ms": statistics.median(x["loaded_ms"] for x in loads),
                               "loaded_ms_runs": [x["loaded_ms"] for x in loads],
                               **served_size(base + path)}
            browser.close()
        last = runs[-1]["transferred"]
        report = {
            "page": url.removeprefix(base),
            "network": SLOW_3G,
            "transferred_bytes": sum(last.values()),
            "resources": {address.removeprefix(base): {"transferred_bytes": size,
                                                       **served_size(address)}
                          for address, size in sorted(last.items())},
            "rows_shown_ms": statistics.median(run["rows_shown_ms"] for run in runs),
            "rows_shown_ms_runs": [run["rows_shown_ms"] for run in runs],
            "first_contentful_paint_ms": statistics.median(
                run["first_contentful_paint_ms"] for run in runs),
            # The page's own share: its first byte (latency and the server's time) and last.
            "html_first_byte_ms": statistics.median(run["html_first_byte_ms"] for run in runs),
            "html_complete_ms": statistics.median(run["html_complete_ms"] for run in runs),
            "pages": pages,
        }
    finally:
        server.terminate()
        server.wait(timeout=30)
        shutil.rmtree(data_dir, ignore_errors=True)
    json.dump(report, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
