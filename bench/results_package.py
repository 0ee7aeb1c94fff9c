"""Writing and signing the results package of the whole WJPC demo, and verifying it.

Run: .venv/bin/python bench/results_package.py [--repeat N]

Loads the demo (1,200 individuals, 400 pairs, 100 teams: 1,700 entries) into a temporary
SQLite database (dev settings, DEBUG off), gives every seated entrant of every round a result
and publishes those rounds, then prints JSON: the median seconds of building and signing the
package of the whole championship (`results_package_issue`, every round with results, a new
package each time), of verifying it (`package_load` + `package_verify`: schema, every result's
code, the signature), its size and its number of results. Issue 29 asks each under 2 s.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from django_setup import django_on_a_temporary_database


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    django_on_a_temporary_database()
    from puzzlecomp.championships.demo import DEMO_SLUG, demo_load
    from puzzlecomp.championships.models import Championship, Result, Round, RoundState, Seat
    from puzzlecomp.championships.services.results_package import results_package_issue
    from puzzlecomp.formats.results_package.document import package_load, package_verify

    demo_load()
    championship = Championship.objects.get(slug=DEMO_SLUG)
    rng = random.Random(29)
    seated = Round.objects.filter(event__championship=championship, seats__isnull=False,
                                  event__code="individual").distinct()
    for rnd in seated:
        done = set(Result.objects.filter(round=rnd).values_list("entry_id", flat=True))
        limit = (rnd.time_limit_minutes or 120) * 60
        Result.objects.bulk_create(
            Result(round=rnd, entry_id=s.entry_id, status="finished", checked=True,
                   time_seconds=rng.randint(limit // 3, limit - 1))
            for s in Seat.objects.filter(round=rnd, no_show=False) if s.entry_id not in done)
    Round.objects.filter(pk__in=[r.pk for r in seated]).update(state=RoundState.PUBLISHED)
    Round.objects.filter(event__championship=championship, state__in=(
        RoundState.RUNNING, RoundState.COUNTING)).update(state=RoundState.PUBLISHED)

    build, verify = [], []
    content = ""
    changed = Result.objects.filter(round__event__championship=championship,
                                    status="finished").order_by("pk").first()
    assert changed is not None
    for n in range(args.repeat):
        # A result changes between runs, so every run builds and signs a new package.
        Result.objects.filter(pk=changed.pk).update(missing=n)
        start = time.perf_counter()
        content = results_package_issue(championship=championship).content
        build.append(time.perf_counter() - start)
        start = time.perf_counter()
        document = package_verify(package_load(content))
        verify.append(time.perf_counter() - start)
    results = sum(len(r["results"]) for e in document["events"] for r in e["rounds"])
    entries = sum(len(e["entries"]) for e in document["events"])
    print(json.dumps({
        "entries": entries, "results": results, "bytes": len(content.encode()),
        "package_seconds": round(statistics.median(build), 3),
        "verify_seconds": round(statistics.median(verify), 3),
    }, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
