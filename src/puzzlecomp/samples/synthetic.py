"""Synthetic but plausible entries and results, deterministic for a seed."""

from __future__ import annotations

import random

from puzzlecomp.rules.people import Person
from puzzlecomp.rules.results import NO_MISSING, Entry, MissingPieces, Result, Status

# A spread of IOC codes, weighted towards the countries that send many entrants.
COUNTRIES = (
    "ESP ESP ESP ESP CZE CZE CZE USA USA USA GBR GBR FRA FRA GER GER ITA POL POL NOR "
    "NED BEL POR SUI AUT SWE FIN DEN IRL CAN MEX ARG BRA CHI COL AUS NZL JPN KOR CHN "
    "TPE IND TUR GRE HUN SVK SLO CRO SRB ROU BUL UKR LTU LAT EST ISL ISR RSA EGY MAR "
    "PER URU VEN ECU CRC PAN GUA DOM PUR CUB PHI THA MAS SGP INA VIE KAZ GEO ARM AZE"
).split()


def synthetic_round(
    count: int,
    *,
    seed: int = 1,
    groups: tuple[str, ...] = ("",),
    time_limit: int = 5400,
    pieces: int = 500,
) -> list[tuple[Entry, Result]]:
    """`count` entries over the groups: most finish, some count pieces, a few dnf/dns/dsq."""
    rng = random.Random(seed)
    rows = []
    for index in range(count):
        country = rng.choice(COUNTRIES)
        entry = Entry(
            id=f"E{index + 1:06d}",
            name=f"Competitor {index + 1}",
            country=country,
            group=groups[index % len(groups)],
            members=(
                Person(nationality=country, residence=country, birth_year=rng.randint(1945, 2012)),
            ),
        )
        rows.append((entry, _result(rng, time_limit, pieces)))
    return rows


def _result(rng: random.Random, time_limit: int, pieces: int) -> Result:
    roll = rng.random()
    if roll < 0.01:
        return Result(Status.DNS)
    if roll < 0.015:
        return Result(Status.DSQ)
    if roll < 0.02:
        return Result(Status.DNF)
    time = int(rng.gauss(time_limit * 0.7, time_limit * 0.2))
    if time <= time_limit:
        missing = rng.choice((0, 0, 0, 0, 0, 1, 2))
        return Result(
            Status.FINISHED,
            time=max(time, int(time_limit * 0.35)),
            missing=MissingPieces(missing, 2 if missing == 2 else 0) if missing else NO_MISSING,
        )
    return Result(Status.UNFINISHED, pieces=rng.randint(pieces // 3, pieces - 1))
