"""Server-side times of a person page and a ranking list with the sample archive loaded.

Run: .venv/bin/python bench/person_pages.py [--repeat N]

Imports the shipped WJPC 2019-2025 results (7,926 results, 4,647 people) into a temporary
SQLite database (dev settings, DEBUG off) and prints JSON: the median time of Django's test
Client GETting the page of the person with the most results, the world ranking list of the
individual event (its first page of 100), the same list of one country, the records page and
a country page; and the time of the first read of the counted results after a change (the
pages then serve them from memory until a counted result changes; docs/archive.md).
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable

from django_setup import django_on_a_temporary_database, median_ms


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    django_on_a_temporary_database()
    from django.db.models import Count
    from django.test import Client
    from django.urls import reverse

    from puzzlecomp.championships.models import EntryMember, Result
    from puzzlecomp.championships.selectors import careers
    from puzzlecomp.championships.services.archive import archive_import
    from puzzlecomp.cli.archive import SAMPLE
    from puzzlecomp.formats.history_csv import read_history

    start = time.perf_counter()
    archive_import(rows=read_history(SAMPLE.read_text(encoding="utf-8"), source=SAMPLE.name),
                   source=SAMPLE.name, ruleset_id="wjpc-2025", slug_prefix="wjpc",
                   title="WJPC")
    import_seconds = time.perf_counter() - start
    busiest = (EntryMember.objects.values("person_id").annotate(n=Count("entry__results"))
               .order_by("-n", "person_id").first())
    assert busiest is not None
    client = Client()

    def get(url: str) -> Callable[[], object]:
        def run() -> object:
            response = client.get(url)
            assert response.status_code == 200, (url, response.status_code)
            return response

        return run

    def first_read() -> object:
        careers._cached = None  # as after a change of a counted result
        return careers.counted_results()

    ranking = reverse("public:people:ranking", args=["wjpc", "individual"])
    figures = {
        "results": Result.objects.count(),
        "import_seconds": round(import_seconds, 1),
        "counted_results_first_read_ms": median_ms(first_read, max(3, args.repeat // 4)),
        "person_page_ms": median_ms(
            get(reverse("public:people:person", args=[busiest["person_id"]])), args.repeat),
        "person_results": busiest["n"],
        "ranking_list_world_ms": median_ms(get(ranking), args.repeat),
        "ranking_list_national_ms": median_ms(get(ranking + "?country=CZE"), args.repeat),
        "records_page_ms": median_ms(get(reverse("public:people:records")), args.repeat),
        "country_page_ms": median_ms(
            get(reverse("public:people:country", args=["CZE"])), args.repeat),
        "repeat": args.repeat,
    }
    print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
