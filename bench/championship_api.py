"""A whole WJPC-size championship driven through the HTTP API as judges' phones would
(figures in docs/performance.md, "Whole championship through the API").

    .venv/bin/python bench/championship_api.py      # --individuals 1200 --pairs 800 --teams 400
    .venv/bin/python bench/championship_api.py --individuals 120 --pairs 80 --teams 40
    .venv/bin/python bench/championship_api.py --database-url postgres://postgres@127.0.0.1:5432/postgres

Seeds a published wjpc-2025 championship in a temporary SQLite file (or, with
`--database-url`, in a fresh PostgreSQL database created for the run and dropped after it):
confirmed entries in the three events, first-round groups assigned and every group seated
(each group of a round from table 1 of the 108-table hall). Starts the ASGI app under uvicorn
in a subprocess and pairs one judges' device per section of `--tables-per-device` tables.

Then every round of every event, in order: the round is set running with its start one time
limit ago (so every finish time is already past and the first write moves it to counting, as
the clock would); `--judges` concurrent tasks record every seated entry through
`POST /api/v1/device/results` with the device token of its table (tap + verify for
finishers, multi-puzzle rounds tap/verify/authorise per puzzle, count for the rest, a few
disqualifications); the round moves through provisional and published by the services the
head judge's screen calls, then to final without waiting out the 4-hour dispute window
(`round_state_set`); the qualifiers are confirmed and the next round created and seated.

At the end the standings of each event are built twice: from the engine's ranking of every
round, and from the public API's ranking of every round
(`GET /api/v1/championships/{slug}/rounds/{id}/ranking`); they must be identical. Prints
JSON: total and per-phase times, API writes with p50/p99, and the baseline `GET /live/time`
(no database) sent at the same concurrency to the same server in the same run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import json
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from live_spectators import django_env, fresh_postgres, server

EVENTS = (("individual", "individuals", 1), ("pairs", "pairs", 2), ("teams", "teams", 4))
SEED = 2025


@dataclass(frozen=True)
class Device:
    token: str
    table_from: int
    table_to: int


@dataclass
class Timings:
    """Seconds per phase, in the order they ran."""

    phases: dict[str, float] = field(default_factory=dict)

    @contextlib.contextmanager
    def phase(self, name: str) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            self.phases[name] = round(time.perf_counter() - start, 2)


def entries_create(event: Any, count: int, size: int, countries: int,
                   rng: random.Random) -> None:
    """`count` confirmed entries of `size` people each, every entry of one country."""
    from puzzlecomp.championships.demo import COUNTRIES
    from puzzlecomp.championships.engine import ioc_of_code
    from puzzlecomp.championships.models import Entry, EntryMember, EntryStatus, Person

    chosen = [rng.choice(COUNTRIES[:countries]) for _ in range(count)]
    people = Person.objects.bulk_create(
        Person(first_name=f"P{n}-{i}", last_name=f"{event.code} {n}", nationality=country,
               residence=country, birth_date=dt.date(1960 + n % 45, 1 + n % 12, 1 + n % 28),
               consent_publish=True)
        for n, country in enumerate(chosen, start=1) for i in range(size))
    entries = Entry.objects.bulk_create(
        Entry(event=event, number=n, name=f"{event.code} {n}", status=EntryStatus.CONFIRMED,
              country=ioc_of_code(country) or country)
        for n, country in enumerate(chosen, start=1))
    EntryMember.objects.bulk_create(
        EntryMember(entry=entry, person=person, position=i % size)
        for i, (entry, person) in enumerate(zip(
            (e for e in entries for _ in range(size)), people, strict=True)))


def seed(counts: dict[str, int], tables_per_device: int,
         countries: int) -> tuple[str, list[Device]]:
    """The championship with its entries grouped and seated, and the paired devices."""
    from django.core.management import call_command
    from django.utils import timezone

    from puzzlecomp.championships.selectors.planning import floor_plan_of
    from puzzlecomp.championships.services.devices import device_create, device_pair
    from puzzlecomp.championships.services.groups import groups_assign
    from puzzlecomp.championships.services.seating import seating_assign
    from puzzlecomp.championships.services.setup import championship_create

    call_command("migrate", interactive=False, verbosity=0)
    championship = championship_create(ruleset_id="wjpc-2025", name="Bench championship",
                                       starts_at=timezone.now() - dt.timedelta(hours=1))
    championship.published = True
    championship.save(update_fields=["published"])
    rng = random.Random(SEED)
    for code, _option, size in EVENTS:
        event = championship.events.get(code=code)
        entries_create(event, counts[code], size, countries, rng)
        first = event.rounds.order_by("position").first()
        assert first is not None
        groups_assign(round=first, seed=SEED)
        seating_assign(round=first)
    tables = floor_plan_of(championship).table_count
    devices = []
    for first_table in range(1, tables + 1, tables_per_device):
        last = min(tables, first_table + tables_per_device - 1)
        _created, code = device_create(championship=championship,
                                     label=f"tables {first_table}-{last}",
                                     table_from=first_table, table_to=last, user=None)
        _device, token = device_pair(championship=championship, code=code)
        devices.append(Device(token, first_table, last))
    return championship.slug, devices


# ------------------------------------------------------------------ what the judges record
def single_puzzle_writes(rng: random.Random, limit: int, pieces: int) -> list[dict[str, Any]]:
    """One entry's actions in a one-puzzle round: most finish, the rest are counted."""
    roll = rng.random()
    if roll < 0.01:
        return [{"action": "dsq", "values": {"note": "bench: talked to a neighbour"}}]
    if roll < 0.85:
        missing = rng.choice((0, 0, 0, 0, 1, 2, 3))
        contiguous = 2 if missing >= 2 and rng.random() < 0.3 else 0
        return [
            {"action": "tap", "values": {"time_seconds": rng.randint(limit // 3, limit - 1)}},
            {"action": "verify", "values": {
                "missing": missing, "missing_contiguous": contiguous,
                "missing_found": rng.randint(0, missing - contiguous),
                "complete_and_correct": True, "competitor_confirmed": True}},
        ]
    if rng.random() < 0.5:
        return [{"action": "count", "values": {"pieces": rng.randint(pieces // 3, pieces - 1)}}]
    return [{"action": "count", "values": {"remaining": rng.randint(1, pieces // 2)}}]


def multi_puzzle_writes(rng: random.Random, limit: int,
                        sizes: list[int]) -> list[dict[str, Any]]:
    """One entry's actions in a round of puzzles opened one after another: tap, verify and
    authorise the next while they finish, then the open puzzle is counted."""
    roll = rng.random()
    if roll < 0.01:
        return [{"action": "dsq", "values": {"note": "bench: a wrong puzzle box opened"}}]
    finished = len(sizes) if roll < 0.6 else rng.randrange(len(sizes))
    writes: list[dict[str, Any]] = []
    time_at = limit // 4
    for number, size in enumerate(sizes, start=1):
        if number > 1:
            writes.append({"action": "authorise", "puzzle": number})
        if number > finished:
            writes.append({"action": "count", "puzzle": number,
                           "values": {"pieces": rng.randint(size // 4, size - 1)}})
            break
        share = (limit - 1 - time_at) // (len(sizes) - number + 1)
        time_at += rng.randint(1, max(1, share))
        writes += [
            {"action": "tap", "puzzle": number, "values": {"time_seconds": time_at}},
            {"action": "verify", "puzzle": number, "values": {
                "missing": rng.choice((0, 0, 0, 1)), "complete_and_correct": True,
                "competitor_confirmed": True}},
        ]
    return writes


@dataclass(frozen=True)
class EntryPlan:
    entry: int
    token: str
    writes: list[dict[str, Any]]


@dataclass
class Answers:
    waits: list[float] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)


async def record_entries(port: int, round_id: int, plans: list[EntryPlan], judges: int,
                         answers: Answers) -> None:
    """`judges` tasks take entries off one queue; each entry's writes go in order, each on
    the version the previous answer returned."""
    queue: asyncio.Queue[EntryPlan] = asyncio.Queue()
    for plan in plans:
        queue.put_nowait(plan)
    limits = httpx.Limits(max_connections=judges, max_keepalive_connections=judges)
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", limits=limits,
                                 timeout=60) as client:

        async def judge() -> None:
            while not queue.empty():
                plan = queue.get_nowait()
                version = 0
                for write in plan.writes:
                    body = {"client_id": str(uuid.uuid4()), "round_id": round_id,
                            "entry": plan.entry, "base_version": version, "puzzle": None,
                            "values": {}, **write}
                    start = time.perf_counter()
                    response = await client.post(
                        "/api/v1/device/results", json=body,
                        headers={"Authorization": f"Bearer {plan.token}"})
                    answers.waits.append(time.perf_counter() - start)
                    answers.statuses[response.status_code] += 1
                    if response.status_code != 200:
                        answers.errors.append(f"entry {plan.entry} {write['action']}: "
                                              f"{response.status_code} {response.text[:300]}")
                        break
                    version = response.json()["result"]["version"]

        await asyncio.gather(*(judge() for _ in range(judges)))


async def baseline(port: int, requests: int, judges: int) -> list[float]:
    """Answer times of `GET /live/time` (no database) at the judges' concurrency."""
    waits: list[float] = []
    left = iter(range(requests))
    limits = httpx.Limits(max_connections=judges, max_keepalive_connections=judges)
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", limits=limits,
                                 timeout=60) as client:

        async def caller() -> None:
            for _ in left:
                start = time.perf_counter()
                response = await client.get("/live/time")
                response.raise_for_status()
                waits.append(time.perf_counter() - start)

        await asyncio.gather(*(caller() for _ in range(judges)))
    return waits


def percentiles(waits: list[float]) -> dict[str, float]:
    cuts = statistics.quantiles(waits, n=100)
    return {"p50_ms": round(cuts[49] * 1000, 1), "p99_ms": round(cuts[98] * 1000, 1)}


# ------------------------------------------------------------------ one round, start to end
def round_plans(rnd: Any, devices: list[Device], rng: random.Random) -> list[EntryPlan]:
    from puzzlecomp.championships.engine import round_rules
    from puzzlecomp.championships.models import Seat

    rules = round_rules(rnd)
    sizes = list(rules.puzzle_sizes)
    limit = rules.time_limit_seconds
    plans = []
    seats = Seat.objects.filter(round=rnd, no_show=False).order_by("group", "table", "seat")
    for number, table in seats.values_list("entry__number", "table"):
        device = next(d for d in devices if d.table_from <= table <= d.table_to)
        writes = (multi_puzzle_writes(rng, limit, sizes) if len(sizes) > 1
                  else single_puzzle_writes(rng, limit, rules.total_pieces))
        plans.append(EntryPlan(number, device.token, writes))
    # Judges of every section work at once, not table by table.
    rng.shuffle(plans)
    return plans


def round_start(rnd: Any) -> None:
    """Running, started one time limit ago: every finish time is in the past, and the first
    write moves the round to counting by its clock."""
    from django.utils import timezone

    from puzzlecomp.championships.engine import round_rules
    from puzzlecomp.championships.models import RoundState
    from puzzlecomp.championships.services.rounds import round_state_set

    limit = round_rules(rnd).time_limit_seconds
    round_state_set(round=rnd, state=RoundState.RUNNING,
                    starts_at=timezone.now() - dt.timedelta(seconds=limit + 5))


def round_close(rnd: Any) -> None:
    """Counting -> provisional -> published by the head judge's moves; final at once (the
    dispute window is not waited out)."""
    from puzzlecomp.championships.models import RoundState
    from puzzlecomp.championships.services.rounds import round_move, round_state_set

    for state in (RoundState.PROVISIONAL, RoundState.PUBLISHED):
        rnd = round_move(round=rnd, to=state)
    round_state_set(round=rnd, state=RoundState.FINAL)


def qualify(rnd: Any) -> int:
    from puzzlecomp.championships.services.qualifiers import next_round_create, qualifiers_confirm

    qualifiers_confirm(round=rnd)
    return next_round_create(round=rnd).seated


# ------------------------------------------------------------------ standings, twice
Comparable = tuple[Any, ...]


def standing_keys(lines: list[Any]) -> list[Comparable]:
    return [(line.place, line.overall_place, line.round_id, line.entry.id, line.entry.group,
             line.round_rank, str(line.ranked.score.status), line.ranked.score.final_time,
             line.ranked.score.pieces)
            for line in lines]


def engine_standings(event: Any) -> list[Comparable]:
    from puzzlecomp.championships.engine import round_ranking, ruleset_of
    from puzzlecomp.rules.standings import event_standings

    rounds = list(event.rounds.order_by("position"))
    rankings = {rnd.code: round_ranking(rnd).lines for rnd in rounds}
    return standing_keys(event_standings(rankings, ruleset_of(rounds[0]).event(event.code)))


def api_ranked(line: dict[str, Any]) -> Any:
    """An engine ranking line rebuilt from a public API line.

    The sort key only has to order and tie as the engine's: finishes by final time, then
    unfinished by pieces, then dnf.
    """
    from puzzlecomp.rules.ranking import RankedEntry
    from puzzlecomp.rules.results import Entry, Result, Status
    from puzzlecomp.rules.scoring import Score

    status = Status(line["status"])
    key = {Status.FINISHED: line["final_seconds"],
           Status.UNFINISHED: 10**9 - (line["pieces"] or 0),
           Status.DNF: 2 * 10**9}.get(status)
    score = Score(status, line["final_seconds"], line["penalty_seconds"] or 0,
                  line["pieces"] if status is Status.UNFINISHED else None, key)
    return RankedEntry(Entry(id=str(line["entry"]), name=line["name"], group=line["group"]),
                       Result(status=status), score, line["rank"], line["official_rank"],
                       line["eligible"])


def public_standings(port: int, slug: str, event: Any) -> list[Comparable]:
    from puzzlecomp.championships.engine import ruleset_of
    from puzzlecomp.rules.standings import event_standings

    rounds = list(event.rounds.order_by("position"))
    rankings = {}
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as client:
        for rnd in rounds:
            response = client.get(f"/api/v1/championships/{slug}/rounds/{rnd.pk}/ranking")
            response.raise_for_status()
            rankings[rnd.code] = [api_ranked(line) for line in response.json()["lines"]]
    return standing_keys(event_standings(rankings, ruleset_of(rounds[0]).event(event.code)))


# ------------------------------------------------------------------ the run
def run(args: argparse.Namespace, data_dir: Path) -> dict[str, Any]:
    timings = Timings()
    started = time.perf_counter()
    os.environ.update(django_env(data_dir))
    (data_dir / "static").mkdir()
    import django

    django.setup()
    from puzzlecomp.championships.models import Championship

    counts = {code: getattr(args, option) for code, option, _size in EVENTS}
    with timings.phase("seed"):
        slug, devices = seed(counts, args.tables_per_device, args.countries)
    championship = Championship.objects.get(slug=slug)
    rng = random.Random(SEED)
    answers = Answers()
    rounds_out = []
    log = data_dir / "server.log"
    with server(data_dir, log=log) as (port, _pid):
        with timings.phase("baseline"):
            base_waits = asyncio.run(baseline(port, args.baseline_requests, args.judges))
        for event in championship.events.order_by("position"):
            rounds = list(event.rounds.order_by("position"))
            for index, rnd in enumerate(rounds):
                name = f"{event.code}/{rnd.code}"
                # The previous round's next_round_create set this one's groups.
                rnd.refresh_from_db()
                round_start(rnd)
                plans = round_plans(rnd, devices, rng)
                mine = Answers()
                with timings.phase(f"{name} recording"):
                    asyncio.run(record_entries(port, rnd.pk, plans, args.judges, mine))
                answers.waits += mine.waits
                answers.statuses.update(mine.statuses)
                answers.errors += mine.errors
                rnd.refresh_from_db()
                with timings.phase(f"{name} close"):
                    round_close(rnd)
                seated = None
                if index < len(rounds) - 1:
                    with timings.phase(f"{name} qualification and next round"):
                        seated = qualify(rnd)
                rounds_out.append({"round": name, "entries": len(plans),
                                   "writes": len(mine.waits),
                                   "writes_per_second": round(
                                       len(mine.waits) / timings.phases[f"{name} recording"], 1),
                                   **percentiles(mine.waits), "next_round_seated": seated})
        with timings.phase("standings"):
            identical = {}
            for event in championship.events.order_by("position"):
                identical[event.code] = (engine_standings(event)
                                         == public_standings(port, slug, event))
    server_log = log.read_text(errors="replace")
    writes = percentiles(answers.waits)
    base = percentiles(base_waits)
    return {
        "sizes": counts, "countries": args.countries,
        "database": "postgresql" if args.database_url else "sqlite",
        "judges": args.judges, "devices": len(devices),
        "total_seconds": round(time.perf_counter() - started, 1),
        "phases_seconds": timings.phases,
        "rounds": rounds_out,
        "writes": {"requests": len(answers.waits),
                   "statuses": {str(k): v for k, v in answers.statuses.items()},
                   "errors": answers.errors[:10], **writes},
        "baseline_live_time": {"requests": len(base_waits), **base},
        "writes_vs_baseline": {"p50": round(writes["p50_ms"] / base["p50_ms"], 1),
                               "p99": round(writes["p99_ms"] / base["p99_ms"], 1)},
        "database_is_locked_in_server_log": server_log.count("database is locked"),
        "standings_identical": identical,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url", default=None,
                        help="a PostgreSQL server URL: the run creates and drops its own database")
    parser.add_argument("--individuals", type=int, default=1200)
    parser.add_argument("--pairs", type=int, default=800)
    parser.add_argument("--teams", type=int, default=400)
    parser.add_argument("--judges", type=int, default=20, help="concurrent judges' tasks")
    parser.add_argument("--tables-per-device", type=int, default=6)
    # With 64 countries the country play-off fills the pairs' semifinal groups past the hall's
    # 102 competition tables (190 pairs, 8 of each previous group alone at a table).
    parser.add_argument("--countries", type=int, default=20,
                        help="entrants come from the first N of the demo's 64 countries")
    parser.add_argument("--baseline-requests", type=int, default=2000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="puzzlecomp-championship-") as tmp, \
            fresh_postgres(args.database_url, "championship") as url:
        if url is not None:
            os.environ["DATABASE_URL"] = url
        figures = run(args, Path(tmp))
    print(json.dumps(figures, indent=2))
    same = all(figures["standings_identical"].values())
    print(f"standings identical: {'yes' if same else 'no'}")
    return 0 if same and not figures["writes"]["errors"] else 1


if __name__ == "__main__":
    sys.exit(main())
