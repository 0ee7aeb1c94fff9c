"""Reads behind the public results: the rounds of a championship, a round's snapshot, an entrant.

Every rank shown comes from the round's live snapshot (`live.snapshot`), the engine's ranking.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from puzzlecomp.championships.engine import flag_of, ioc, ruleset_of
from puzzlecomp.championships.models import (
    Championship,
    Entry,
    EntryMember,
    Event,
    Round,
    RoundState,
    Seat,
)
from puzzlecomp.championships.ruleset_texts import ruleset_text
from puzzlecomp.championships.selectors.publishing import (
    entry_public_name,
    groups_public,
    member_named,
    tables_public,
)
from puzzlecomp.championships.selectors.rounds import rounds_read_now
from puzzlecomp.live.snapshot import Snapshot, round_snapshot_cached
from puzzlecomp.public.live.display import (
    ResultRow,
    Words,
    flag_emoji,
    page_words,
    result_row,
    state_words,
)
from puzzlecomp.rules.errors import RulesError

# Rounds whose results move while spectators watch.
LIVE_STATES = (RoundState.RUNNING, RoundState.COUNTING)


def published_rounds(slug: str) -> QuerySet[Round]:
    """Rounds of published championships only: anything else is not public."""
    return Round.objects.select_related("event__championship").filter(
        event__championship__slug=slug, event__championship__published=True)


@dataclass(frozen=True)
class RoundLink:
    round: Round
    state_words: str
    live: bool


@dataclass(frozen=True)
class EventRounds:
    event: Event
    rounds: list[RoundLink]


def results_index(championship: Championship) -> list[EventRounds]:
    """Each event with its rounds in order and the state each is in."""
    states = state_words()
    rounds: dict[int, list[RoundLink]] = {}
    for rnd in rounds_read_now(Round.objects.filter(event__championship=championship)
                               .select_related("event__championship").order_by("position")):
        rounds.setdefault(rnd.event_id, []).append(
            RoundLink(rnd, states.get(rnd.state, rnd.state), rnd.state in LIVE_STATES))
    return [EventRounds(event, rounds.get(event.pk, [])) for event in championship.events.all()]


def live_rounds(championship: Championship) -> list[Round]:
    """The rounds running or being counted now, for a "live now" link."""
    return list(Round.objects.select_related("event")
                .filter(event__championship=championship, state__in=LIVE_STATES)
                .order_by("event__position", "position"))


def next_round_of(rnd: Round) -> Round | None:
    return rnd.event.rounds.filter(position__gt=rnd.position).order_by("position").first()


def words_of(rnd: Round) -> Words:
    """The words of the round's results lines; a group-less qualifier goes to the next round."""
    following = next_round_of(rnd)
    return page_words(next_round=following.display_name if following else "")


def official_ranking_of(rnd: Round) -> str | None:
    """What the official ranking is (the ruleset's words); None when the ruleset has none."""
    official = ruleset_of(rnd).official_ranking
    return ruleset_text(official.description) if official else None


def snapshot_now(rnd: Round) -> tuple[Snapshot, dict[str, Any]]:
    """The round's current snapshot, as cached bytes and as values (RulesError when the
    round's rules are incomplete)."""
    snapshot = round_snapshot_cached(rnd)
    return snapshot, json.loads(snapshot.body)


@dataclass(frozen=True)
class Member:
    """A member of a pair or team as the public sees them: the name and flag, if published."""

    name: str
    flag: str
    flag_emoji: str
    published: bool
    # The person's id for their page across championships (None when not published).
    person: int | None = None


@dataclass(frozen=True)
class EntrantRound:
    round: Round
    state_words: str
    group: str
    table: int | None
    # None while the entrant has no result in the round.
    row: ResultRow | None


@dataclass(frozen=True)
class Entrant:
    entry: Entry
    # The entry's name, "" when it names a member who did not consent to publication.
    name: str
    flag: str
    flag_emoji: str
    members: list[Member]
    # The first round's group once the organiser has published the groups, else "".
    group: str
    rounds: list[EntrantRound]
    # The ruleset ranks some entrants officially (its official place column is shown).
    official_ranking: bool


def entrant_get(entry: Entry) -> Entrant:
    """The entrant's public page: flag, members and every round they sat or have a result in."""
    members = list(EntryMember.objects.filter(entry=entry).select_related("person"))
    spec = ruleset_of(entry).event(entry.event.code)
    codes = [m.represents.code or m.person.nationality.code for m in members]
    flag = flag_of(spec, codes, country=entry.country)[0]
    first = entry.event.rounds.order_by("position").first()
    return Entrant(
        entry=entry, name=entry_public_name(entry, members), flag=flag,
        flag_emoji=flag_emoji(flag),
        members=[_member(m) for m in members],
        group=entry.group if first is not None and groups_public(first) else "",
        rounds=_entrant_rounds(entry),
        official_ranking=ruleset_of(entry).official_ranking is not None,
    )


def _member(member: EntryMember) -> Member:
    person = member.person
    if not member_named(member):
        return Member(name="", flag="", flag_emoji="", published=False)
    flag = ioc(member.represents) or ioc(person.nationality) or ""
    return Member(name=f"{person.first_name} {person.last_name}", flag=flag,
                  flag_emoji=flag_emoji(flag), published=True, person=person.pk)


def _entrant_rounds(entry: Entry) -> list[EntrantRound]:
    seats = {s.round_id: s for s in Seat.objects.filter(entry=entry)}
    with_result = set(entry.results.values_list("round_id", flat=True))
    states = state_words()
    rounds = []
    for rnd in entry.event.rounds.order_by("position"):
        seat = seats.get(rnd.pk)
        if seat is None and rnd.pk not in with_result:
            continue
        rnd.event = entry.event
        row = _row_of(rnd, entry) if rnd.pk in with_result else None
        group = row.group if row else (seat.group if seat else entry.group)
        # Drafts stay private until the organiser publishes them (or the round begins).
        rounds.append(EntrantRound(
            round=rnd, state_words=states.get(rnd.state, rnd.state),
            group=group if groups_public(rnd) else "",
            table=seat.table if seat and not seat.no_show and tables_public(rnd) else None,
            row=row))
    return rounds


def _row_of(rnd: Round, entry: Entry) -> ResultRow | None:
    """The entrant's line of the round's snapshot, as printed."""
    try:
        _, snapshot = snapshot_now(rnd)
    except RulesError:  # the round's rules were left incomplete: no ranking to show
        return None
    line = next((line for line in snapshot["lines"] if line["entry"] == entry.number), None)
    return result_row(line, words_of(rnd)) if line else None
