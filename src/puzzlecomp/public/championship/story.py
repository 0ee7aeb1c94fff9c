"""The championship page's story: what is live now with its clocks and latest finishes, the
leaders of each event, the podiums once known, and the schedule.

Every place comes from a round's live snapshot (the engine's ranking, `live.snapshot`) or
from the published standings, as on the results and standings pages; names the public may
not read are withheld there already.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from puzzlecomp.championships.clock_face import ClockView, clock_view
from puzzlecomp.championships.models import Championship, Event, Result, Round
from puzzlecomp.championships.selectors.rounds import (
    GroupTimes,
    group_schedule_get,
    rounds_read_now,
)
from puzzlecomp.championships.selectors.standings import StandingRow, event_standings_get
from puzzlecomp.public.live import broadcast
from puzzlecomp.public.live.display import (
    ResultRow,
    Words,
    duration,
    flag_emoji,
    group_heading,
    result_row,
    state_words,
    status_words,
    withheld_words,
)
from puzzlecomp.public.live.selectors import official_ranking_of, snapshot_now, words_of
from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.loading import load_ruleset
from puzzlecomp.rules.round_life import RoundState
from puzzlecomp.rules.spectating import LIVE_STATES, leaders_round, podium_known
from puzzlecomp.rules.subcategories import OVERALL

# Places shown of each group among an event's leaders.
LEADERS = 3
LATEST = 5


@dataclass(frozen=True)
class Place:
    """An entrant on a short list (leaders, a podium, the latest finishes)."""

    place: int | None
    name: str
    flag: str
    flag_emoji: str
    # What decides the place: the final time, else the pieces counted or how it ended.
    figure: str
    url: str
    # Beside the figure: the group of a finish among the latest finishes.
    note: str = ""


@dataclass(frozen=True)
class GroupPlaces:
    heading: str
    places: list[Place]


@dataclass(frozen=True)
class Clock:
    """A clock of a live round: the round's, or one group's when groups start apart."""

    heading: str
    view: ClockView
    json: dict[str, Any]


@dataclass(frozen=True)
class LiveRound:
    round: Round
    clocks: list[Clock]
    leaders: list[GroupPlaces]
    latest: list[Place]


@dataclass(frozen=True)
class EventLeaders:
    event: Event
    round: Round
    state_words: str
    groups: list[GroupPlaces]


@dataclass(frozen=True)
class Podium:
    event: Event
    places: list[Place]
    # The places of the published standings (else of the final round's results).
    from_standings: bool
    # Who the official ranking admits (the ruleset's words): the podium is then the official
    # ranking's, each with their overall place beside; None: the ruleset has none.
    official: str | None = None


@dataclass(frozen=True)
class NextStart:
    round: Round
    group: str
    at: dt.datetime


@dataclass(frozen=True)
class Story:
    live: list[LiveRound]
    leaders: list[EventLeaders]
    podiums: list[Podium]
    schedule: list[tuple[Round, list[GroupTimes]]]
    next_start: NextStart | None


def championship_story(championship: Championship, *, now: dt.datetime) -> Story:
    """Everything the championship page tells, read once per page."""
    by_event = rounds_by_event(championship, now=now)
    with_results = set(Result.objects.filter(round__event__championship=championship)
                       .values_list("round_id", flat=True).distinct())
    podiums: list[Podium] = []
    leaders: list[EventLeaders] = []
    for rounds in by_event.values():
        podium = event_podium(rounds)
        if podium is not None:
            podiums.append(podium)
            continue
        found = _event_leaders(rounds, with_results)
        if found is not None:
            leaders.append(found)
    schedule = _schedule(by_event, now=now)
    return Story(live=live_now(by_event, now=now), leaders=leaders, podiums=podiums,
                 schedule=schedule, next_start=next_start(schedule, now=now))


def live_story(championship: Championship, *, now: dt.datetime) -> Story:
    """The page's live part only: the live rounds and the next start (after a notice)."""
    by_event = rounds_by_event(championship, now=now)
    schedule = _schedule(by_event, now=now)
    return Story(live=live_now(by_event, now=now), leaders=[], podiums=[], schedule=schedule,
                 next_start=next_start(schedule, now=now))


def _schedule(by_event: dict[Event, list[Round]], *,
              now: dt.datetime) -> list[tuple[Round, list[GroupTimes]]]:
    """Every round in order with the start of each of its groups (rounds of several whose
    groups start apart; a round started as a whole has its one start)."""
    schedule = []
    for rnd in (rnd for rounds in by_event.values() for rnd in rounds):
        groups = group_schedule_get(rnd, now=now)
        together = rnd.starts_at is not None and all(g.started_at == rnd.starts_at
                                                     for g in groups)
        schedule.append((rnd, [] if together else groups))
    return schedule


def rounds_by_event(championship: Championship, *,
                    now: dt.datetime) -> dict[Event, list[Round]]:
    """The championship's events in order, each with its rounds in order, every round in the
    state it reads as now (a running round past its limit is counting)."""
    found: dict[Event, list[Round]] = {event: [] for event in championship.events.all()}
    by_pk = {event.pk: event for event in found}
    for rnd in (Round.objects.filter(event__championship=championship)
                .order_by("event__position", "position")):
        rnd.event = by_pk[rnd.event_id]
        rnd.event.championship = championship
        found[rnd.event].append(rnd)
    for rounds in found.values():
        rounds_read_now(rounds, now=now)
    return found


def live_now(by_event: dict[Event, list[Round]], *, now: dt.datetime) -> list[LiveRound]:
    """Each round running or being counted, with its clocks, leaders and latest finishes."""
    found = []
    for rnd in (rnd for rounds in by_event.values() for rnd in rounds
                if rnd.state in LIVE_STATES):
        try:
            _, data = snapshot_now(rnd)
        except RulesError:  # the round's rules are incomplete: it has no clock to show
            continue
        words = words_of(rnd)
        found.append(LiveRound(
            round=rnd, clocks=_clocks(data, now=now),
            leaders=_group_places(broadcast.top_rows(data, words, group=None, count=LEADERS),
                                  rnd.event),
            latest=[_place(row, rnd.event, grouped=True)
                    for row in broadcast.latest_finishes(data, words, count=LATEST)]))
    return found


def _clocks(data: dict[str, Any], *, now: dt.datetime) -> list[Clock]:
    """The round's clock, or each group's when the groups share the tables and start apart."""
    groups = data.get("group_clocks") or {}
    if groups:
        return [Clock(group_heading(group), clock_view(clock, now=now), clock)
                for group, clock in groups.items()]
    return [Clock("", clock_view(data["clock"], now=now), data["clock"])]


def _event_leaders(rounds: Sequence[Round], with_results: set[int]) -> EventLeaders | None:
    """The leaders of the event's last round with results, unless that round is live (the
    live part of the page shows it, and keeps it up to date)."""
    index = leaders_round([(rnd.state, rnd.pk in with_results) for rnd in rounds])
    if index is None or rounds[index].state in LIVE_STATES:
        return None
    rnd = rounds[index]
    try:
        _, data = snapshot_now(rnd)
    except RulesError:
        return None
    groups = _group_places(broadcast.top_rows(data, words_of(rnd), group=None, count=LEADERS),
                           rnd.event)
    if not groups:
        return None
    return EventLeaders(rnd.event, rnd, state_words().get(rnd.state, rnd.state), groups)


def event_podium(rounds: Sequence[Round]) -> Podium | None:
    """The event's first three once its final's results are published: the published
    standings' places, else the final round's. Where the ruleset has an official ranking (a
    national title), the first three of the official ranking, their overall place beside. A
    subcategory tiebreaker held after the final is not the final."""
    if rounds:
        spec = load_ruleset(rounds[0].event.championship.ruleset_id).event(rounds[0].event.code)
        rounds = [rnd for rnd in rounds if spec.tiebreaker_category(rnd.code) is None]
    if not podium_known([rnd.state for rnd in rounds]):
        return None
    final = rounds[-1]
    event = final.event
    if event.standings_published_at is not None:
        try:
            found = event_standings_get(event=event)
            rows = found.rows(OVERALL, public=True)
        except RulesError:
            rows = []
        else:
            places = _standing_podium(rows, event, official=found.official_ranking is not None)
            if places:
                return Podium(event, places, from_standings=True,
                              official=found.official_ranking)
    try:
        _, data = snapshot_now(final)
    except RulesError:
        return None
    words = words_of(final)
    if data["round"].get("official_ranking"):
        official = official_ranking_of(final)
        places = [_place(row, event, official=True) for row in official_podium(data, words)]
        return Podium(event, places, from_standings=False, official=official) if places else None
    places = [_place(row, event) for group in broadcast.podium(data, words, group=None)
              for row in group.rows]
    return Podium(event, places, from_standings=False) if places else None


def _standing_podium(rows: Sequence[StandingRow], event: Event, *,
                     official: bool) -> list[Place]:
    if official:
        return [_standing_place(row, event, official=True) for row in rows
                if row.official_place is not None
                and row.official_place <= broadcast.PODIUM_PLACES]
    return [_standing_place(row, event) for row in rows
            if row.place is not None and row.place <= broadcast.PODIUM_PLACES]


def official_podium(data: dict[str, Any], words: Words) -> list[ResultRow]:
    """The finishers placed first to third in the round's official ranking (every group's
    official ranking together: a final has one group)."""
    return [result_row(line, words) for line in data["lines"]
            if line.get("official_rank") is not None and line["status"] == "finished"
            and line["official_rank"] <= broadcast.PODIUM_PLACES]


def overall_words(place: int | None) -> str:
    """The overall place beside an official one."""
    return _("overall %(place)s") % {"place": place} if place is not None else ""


def next_start(schedule: Sequence[tuple[Round, Sequence[GroupTimes]]], *,
               now: dt.datetime) -> NextStart | None:
    """The next planned start of a round or group still waiting, if the organiser gave one."""
    coming = []
    for rnd, groups in schedule:
        if groups:
            coming += [NextStart(rnd, g.group, g.planned_at) for g in groups
                       if g.state == RoundState.PLANNED and g.planned_at and g.planned_at > now]
        elif rnd.state == RoundState.PLANNED and rnd.starts_at and rnd.starts_at > now:
            coming.append(NextStart(rnd, "", rnd.starts_at))
    return min(coming, key=lambda start: start.at, default=None)


def _group_places(groups: list[broadcast.GroupRows], event: Event) -> list[GroupPlaces]:
    """Groups that have places, as short lists."""
    return [GroupPlaces(group.heading, [_place(row, event) for row in group.rows])
            for group in groups if group.rows]


def _entrant_url(event: Event, number: int) -> str:
    return reverse("public:live:entrant",
                   args=[event.championship.slug, event.code, number])


def _place(row: ResultRow, event: Event, *, grouped: bool = False,
           official: bool = False) -> Place:
    figure = row.final or row.status_words
    if row.pieces is not None:
        figure = _pieces(row.pieces)
    if official:
        return Place(row.official_rank, row.name, row.flag, row.flag_emoji, figure,
                     _entrant_url(event, row.entry), overall_words(row.rank))
    return Place(row.rank, row.name, row.flag, row.flag_emoji, figure,
                 _entrant_url(event, row.entry),
                 group_heading(row.group) if grouped and row.group else "")


def _standing_place(row: StandingRow, event: Event, *, official: bool = False) -> Place:
    if row.final_seconds is not None:
        figure = duration(row.final_seconds)
    elif row.pieces is not None and row.status == "unfinished":
        figure = _pieces(row.pieces)
    else:
        figure = status_words().get(row.status, "")
    if official:
        return Place(row.official_place, row.name or withheld_words(), row.flag,
                     flag_emoji(row.flag), figure, _entrant_url(event, row.entry),
                     overall_words(row.overall_place))
    return Place(row.place, row.name or withheld_words(), row.flag, flag_emoji(row.flag),
                 figure, _entrant_url(event, row.entry))


def _pieces(count: int) -> str:
    return ngettext("%(counter)s piece", "%(counter)s pieces", count) % {"counter": count}
