"""Server-side times of the planning pages with the demo championship (1,200 individuals).

Run: .venv/bin/python bench/web_pages.py [--repeat N]

Loads the demo into a temporary SQLite database (dev settings, DEBUG off), signs in as the
demo organiser with Django's test Client and prints JSON: the median render time of the
individual first round's list of 1,200 entries (with group and table), of the registrations'
participant list of the same 1,200 (when that screen exists) and of the floor map of 108
tables, and the time of assigning the groups and then seating all 1,200 entries by
POSTing to the same views the buttons use.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable

from django_setup import django_on_a_temporary_database, median_ms


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    django_on_a_temporary_database()
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.urls import NoReverseMatch, reverse

    from puzzlecomp.championships.demo import DEMO_SLUG, DEMO_USER, demo_load
    from puzzlecomp.championships.models import Entry, Round, RoundState, Seat

    start = time.perf_counter()
    demo_load()
    demo_seconds = time.perf_counter() - start
    client = Client()
    client.force_login(get_user_model().objects.get(username=DEMO_USER))
    first = Round.objects.get(event__championship__slug=DEMO_SLUG, event__code="individual",
                              code="first")
    entries = Entry.objects.filter(event=first.event).count()
    groups_url = reverse("control:planning:groups", args=[DEMO_SLUG, first.pk])
    seating_url = reverse("control:planning:seating", args=[DEMO_SLUG, first.pk]) + "?group=A"

    def get(url: str) -> Callable[[], object]:
        def run() -> object:
            response = client.get(url)
            assert response.status_code == 200, (url, response.status_code)
            return response

        return run

    pages = {"group_list_1200_entries": median_ms(get(groups_url), args.repeat),
             "floor_map_108_tables": median_ms(get(seating_url), args.repeat)}
    try:  # The registrations' participant list, when that screen exists.
        registrations_url = reverse("control:registrations:event", args=[DEMO_SLUG, "individual"])
    except NoReverseMatch:
        pass
    else:
        try:
            pages["participant_list_1200_entries"] = median_ms(get(registrations_url),
                                                               args.repeat)
        except Exception as error:  # another area's page: report its failure, measure the rest
            pages["participant_list_1200_entries"] = f"failed: {error}"

    # The demo has started this round; the bench puts it back before the start to plan it again.
    Round.objects.filter(pk=first.pk).update(state=RoundState.PLANNED, groups_published=False)
    assign_url = reverse("control:planning:groups_assign", args=[DEMO_SLUG, first.pk])
    seat_url = reverse("control:planning:seating_assign", args=[DEMO_SLUG, first.pk])
    seed = iter(range(1, 10_000))

    def plan() -> object:
        # Drawn and seated again each time: confirmed, as the confirmation page asks.
        for url, data in ((assign_url, {"seed": next(seed), "confirmed": "1"}),
                          (seat_url, {"group": "", "confirmed": "1"})):
            response = client.post(url, data)
            assert response.status_code == 302, (url, response.status_code)
        assert Seat.objects.filter(round=first).count() == entries
        return None

    plan_ms = median_ms(plan, max(3, args.repeat // 3))
    print(json.dumps({
        "database": "SQLite (temporary file, WAL)",
        "demo_load_s": round(demo_seconds, 2),
        "entries": entries,
        "pages_ms": pages,
        "groups_and_seating_1200_entries_ms": plan_ms,
        "targets": {"pages_ms": 300, "groups_and_seating_ms": 3000},
    }, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
