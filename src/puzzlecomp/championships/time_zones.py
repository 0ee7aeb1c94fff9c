"""A championship's time zone: where it is held decides every time shown, printed, emailed or
exported, and the local midnight at which a rulebook's registration window closes.

The zone is an IANA name (`Europe/Madrid`), read with the standard library's zoneinfo. Its
default comes from the host country through the IANA database's own table of countries and
zones (zone.tab, shipped with the system's time zone data or the `tzdata` package): the zone
its comment calls the country's "most areas" or "mainland", else the first it lists (Australia:
Sydney, the United States: New York, Spain: Madrid). zone1970.tab is not used: it shares one
zone among countries, Norway's among them under Europe/Berlin. An organiser sets another.
"""

from __future__ import annotations

import datetime as dt
import functools
import zoneinfo
from importlib import resources
from pathlib import Path

from django.conf import settings
from django.utils import timezone

from puzzlecomp.championships.models import Championship

_TABLES = ("zone.tab",)


@functools.cache
def time_zone_names() -> tuple[str, ...]:
    """Every IANA zone name this system knows, sorted (the choices of the setup forms)."""
    return tuple(sorted(name for name in zoneinfo.available_timezones()
                        if "/" in name and not name.startswith(("Etc/", "SystemV/", "posix/",
                                                                "right/"))) + ["UTC"])


def is_time_zone(name: str) -> bool:
    """True for an IANA zone name zoneinfo can load."""
    if not name or name != name.strip():
        return False
    try:
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return False
    return True


@functools.cache
def _country_zones() -> dict[str, str]:
    """ISO 3166 alpha-2 code -> the first zone the IANA table lists for that country."""
    for text in _tables():
        found: dict[str, str] = {}
        main: dict[str, str] = {}
        for line in text.splitlines():
            if not line or line.startswith("#"):
                continue
            columns = line.split("\t")
            if len(columns) < 3:
                continue
            country, zone = columns[0].strip().upper(), columns[2].strip()
            found.setdefault(country, zone)
            comment = columns[3].casefold() if len(columns) > 3 else ""
            if "most" in comment or "mainland" in comment:
                main.setdefault(country, zone)
        if found:
            return {**found, **main}
    return {}


def _tables() -> list[str]:
    texts = []
    for directory in zoneinfo.TZPATH:
        for name in _TABLES:
            path = Path(directory) / name
            if path.is_file():
                texts.append(path.read_text(encoding="utf-8"))
    for name in _TABLES:  # the tzdata package where the system has no database (Windows)
        try:
            texts.append(resources.files("tzdata").joinpath("zoneinfo", name)
                         .read_text(encoding="utf-8"))
        except (ModuleNotFoundError, FileNotFoundError, OSError):
            continue
    return texts


def zone_of_country(country: str) -> str | None:
    """The default time zone of a host country (ISO alpha-2), e.g. ES -> Europe/Madrid."""
    zone = _country_zones().get(country.strip().upper()) if country else None
    return zone if zone and is_time_zone(zone) else None


def default_time_zone(country: str = "") -> str:
    """The host country's zone, else the site's `TIME_ZONE` setting."""
    return zone_of_country(country) or settings.TIME_ZONE


def championship_zone(championship: Championship) -> zoneinfo.ZoneInfo:
    """The championship's zone (the site's `TIME_ZONE` for a name this system lacks)."""
    name = championship.time_zone if is_time_zone(championship.time_zone) else settings.TIME_ZONE
    return zoneinfo.ZoneInfo(name)


def local(instant: dt.datetime | None, championship: Championship) -> dt.datetime | None:
    """An instant in the championship's local time, with its offset (None stays None)."""
    if instant is None:
        return None
    return timezone.localtime(instant, championship_zone(championship))
