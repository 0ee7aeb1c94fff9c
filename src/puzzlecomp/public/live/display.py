"""How a round's snapshot reads on a public page: formatted times, flags and human words.

The server renders these for browsers without JavaScript; `static/puzzlecomp/results.js`
draws the same cells from the same snapshot (the browser tests compare the two).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django_countries.ioc_data import IOC_TO_ISO

from puzzlecomp.championships.clock_face import duration, state_words


def status_words() -> dict[str, str]:
    return {"dnf": _("Did not finish"), "dsq": _("Disqualified"), "dns": _("Did not start"),
            "assisted": _("Helped to finish: no time recorded"),
            "outside_help": _("Outside help: no time")}


def reason_words() -> dict[str, str]:
    """Why an entry goes on, as the public reads it (codes of rules.qualification)."""
    return {"place": _("by place"), "tie": _("tied at the cut-off"),
            "playoff": _("country play-off"), "national": _("national quota"),
            "foreign": _("foreign quota")}


def record_words() -> dict[str, str]:
    """The records a live result breaks (snapshot `record`), spelled out for the badge."""
    return {"WR": _("World record"), "NR": _("National record")}


@functools.cache
def flag_emoji(code: str) -> str:
    """The emoji flag of an IOC code ("" for the mixed flag and codes of no country)."""
    iso = IOC_TO_ISO.get(code.upper(), "")
    if len(iso) != 2:
        return ""
    return "".join(chr(0x1F1E6 + ord(letter) - ord("A")) for letter in iso.upper())


@functools.cache
def all_flag_emoji() -> dict[str, str]:
    """IOC code -> emoji for every country: results.js draws flags of new lines with it."""
    return {code: flag_emoji(code) for code in sorted(IOC_TO_ISO) if flag_emoji(code)}


@dataclass(frozen=True)
class Qualification:
    destination: str
    reason: str
    # False while it is the engine's forecast, before the organiser confirms the qualifiers.
    confirmed: bool
    # Certain whatever the entrants still puzzling and the pending checks do (rules/clinching).
    clinched: bool = False


@dataclass(frozen=True)
class ResultRow:
    """One line of a round's results, every cell ready to print."""

    entry: int
    name: str
    flag: str
    flag_emoji: str
    group: str
    table: int | None
    rank: int | None
    official_rank: int | None
    status: str
    status_words: str
    time: str
    penalty: str
    final: str
    pieces: int | None
    pieces_per_minute: str
    awaiting_check: bool
    qualification: Qualification | None
    version: int
    # "WR" or "NR" when the time breaks a record, and the record's name; "" otherwise.
    record: str = ""
    record_words: str = ""
    # Withdrawn after the round began: kept as history, struck through.
    withdrawn: bool = False


@dataclass(frozen=True)
class Words:
    """The translated words of results lines, looked up once per page."""

    statuses: dict[str, str]
    reasons: dict[str, str]
    # Where qualifiers of a round without next-round groups go: the next round's name.
    next_round: str
    # In place of a name its person did not consent to publish.
    withheld: str
    records: dict[str, str]


def withheld_words() -> str:
    return str(_("Name not published"))


def page_words(*, next_round: str) -> Words:
    return Words(status_words(), reason_words(), next_round, withheld_words(), record_words())


def result_row(line: dict[str, Any], words: Words) -> ResultRow:
    """A snapshot line as printed."""
    status = line["status"]
    finished = status == "finished"
    qualified = line.get("qualified")
    penalty = line.get("penalty_seconds") or 0
    ppm = line.get("pieces_per_minute")
    return ResultRow(
        entry=line["entry"],
        name=line["name"] or words.withheld,
        flag=line.get("flag") or "",
        flag_emoji=flag_emoji(line.get("flag") or ""),
        group=line.get("group") or "",
        table=line.get("table"),
        rank=line.get("rank"),
        official_rank=line.get("official_rank"),
        status=status,
        status_words=words.statuses.get(status, ""),
        time=duration(line.get("time_seconds")) if finished else "",
        penalty=f"+{duration(penalty)}" if finished and penalty else "",
        final=duration(line.get("final_seconds")) if finished else "",
        pieces=line.get("pieces") if status == "unfinished" else None,
        pieces_per_minute=number_format(ppm, 2) if ppm is not None else "",
        awaiting_check=finished and not line.get("checked", True),
        qualification=Qualification(
            destination=qualified.get("to_group") or words.next_round,
            reason=words.reasons.get(qualified["reason"], qualified["reason"]),
            confirmed=bool(qualified.get("confirmed")),
            clinched=line.get("certainty") == "clinched",
        ) if qualified else None,
        version=line.get("version") or 0,
        record=line.get("record") or "",
        record_words=words.records.get(line.get("record") or "", ""),
        withdrawn=bool(line.get("withdrawn")),
    )


@dataclass(frozen=True)
class GroupTable:
    group: str
    heading: str
    rows: list[ResultRow]


def group_heading(group: str) -> str:
    return _("Group %(group)s") % {"group": group} if group else ""


def group_tables(snapshot: dict[str, Any], *, group: str | None,
                 words: Words) -> list[GroupTable]:
    """The snapshot's lines as one table per group (only `group` when given), in the round's
    group order; groups with no line yet still get their (empty) table."""
    by_group: dict[str, list[ResultRow]] = {g: [] for g in snapshot["round"]["groups"]}
    for line in snapshot["lines"]:
        by_group.setdefault(line.get("group") or "", []).append(
            result_row(line, words))
    return [GroupTable(g, group_heading(g), rows) for g, rows in by_group.items()
            if group is None or g == group]


# The page words the clock needs as it runs (drawClock of results.js).
CLOCK_WORDS = ("states", "waiting", "timeLeft", "timeLimit", "endedAt", "timeZone")


def page_labels(*, next_round: str) -> dict[str, Any]:
    """The words results.js and projector.js need, in the page's language."""
    return {
        "status": status_words(),
        "reasons": reason_words(),
        "states": state_words(),
        "group": _("Group %(group)s"),
        "awaitingCheck": _("awaiting check"),
        "withdrawn": _("withdrawn"),
        "expected": _("expected"),
        "expectedTitle": _("Expected from the results so far; not yet confirmed."),
        "clinched": _("qualified"),
        "clinchedTitle": _("Certain whatever the entrants still puzzling and the pending "
                           "checks do."),
        "nextRound": next_round,
        "timeLeft": _("Time left"),
        "timeLimit": _("Time limit"),
        "endedAt": _("Ended at"),
        "waiting": _("Waiting"),
        "timeZone": timezone.get_current_timezone_name(),
        "live": _("Live"),
        "reconnecting": _("Reconnecting…"),
        "noResults": _("No results yet."),
        "withheld": withheld_words(),
        "records": record_words(),
        "page": _("Page %(page)s of %(pages)s"),
        "flags": all_flag_emoji(),
        # A phone folds these away under each row (results.js moreCell).
        "detailsOf": _("Details of %(name)s"),
        "columns": {"table": _("Table"), "time": _("Time"), "penalty": _("Penalty"),
                    "result": _("Result"), "pieces": _("Pieces"),
                    "piecesPerMinute": _("Pieces per minute"), "nextRound": _("Next round"),
                    "group": _("Group")},
    }


def following_words() -> dict[str, str]:
    """The words following.js needs: the stars' names and what it says when a followed
    entrant finishes or qualifies."""
    return {
        "follow": _("Follow %(name)s"),
        "followShort": _("Follow"),
        "finished": _("%(name)s finished"),
        "qualified": _("%(name)s is in a qualifying place"),
    }
