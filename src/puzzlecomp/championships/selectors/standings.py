"""An event's standings and awards: the one read behind the organiser's pages, the ceremony
PDFs, the public page and the API.

Every round with results is ranked as on its own pages; the engine (`rules/standings.py`,
`rules/awards.py`) turns those rankings into places across rounds and into prizes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from django.utils.formats import number_format
from django.utils.translation import gettext as _

from puzzlecomp.championships.engine import round_ranking
from puzzlecomp.championships.models import Event, Result, RoundState
from puzzlecomp.championships.ruleset_texts import ruleset_text
from puzzlecomp.championships.selectors.publishing import public_name, withheld_by_number
from puzzlecomp.rules.awards import AwardLine
from puzzlecomp.rules.conditions import Value
from puzzlecomp.rules.flags import entry_flag
from puzzlecomp.rules.loading import load_ruleset
from puzzlecomp.rules.prizes import (
    PrizeRound,
    category_with_tiebreaker,
    decided_awards,
    decided_tiebreakers,
    held_tiebreakers,
    pending_tiebreakers,
    prize_round,
    tiebreaker_round_id,
)
from puzzlecomp.rules.ranking import RankedEntry
from puzzlecomp.rules.ruleset import Event as EventSpec
from puzzlecomp.rules.ruleset import Ruleset
from puzzlecomp.rules.standings import StandingLine, official_places
from puzzlecomp.rules.standings import event_standings as engine_event_standings
from puzzlecomp.rules.subcategories import OVERALL
from puzzlecomp.rules.tiebreakers import TiebreakerCall
from puzzlecomp.rules.times import format_time


@dataclass(frozen=True)
class Category:
    """Overall or one of the event's subcategories, as the ruleset names it."""

    id: str
    name: str
    # Who may take the category's prizes, in the ruleset's words (translated); empty: anyone.
    prizes_only_for: tuple[str, ...] = ()


@dataclass(frozen=True)
class StandingRow:
    """A line of standings as pages, the API and the PDFs show it (None where blank)."""

    place: int | None
    overall_place: int | None
    # Place in the ruleset's official ranking (a national title); None outside it, or when the
    # ruleset has none.
    official_place: int | None
    entry: int
    # "" when the public may not read it.
    name: str
    flag: str
    round: str
    group: str
    round_rank: int | None
    status: str
    final_seconds: int | None
    final_time: str | None
    pieces: int | None


@dataclass(frozen=True)
class AwardRow:
    """A prize handed to an entrant, as pages, the API and the PDFs show it."""

    category: str
    category_name: str
    place: int
    entry: int
    name: str
    flag: str
    overall_place: int | None
    # The entrant's place in the official ranking (None outside it, or none in the ruleset),
    # and whether this prize follows it (a national title: `place` is then among those the
    # official ranking admits).
    official_place: int | None
    official: bool
    prize: str
    trophy: bool
    money: int | None
    currency: str | None
    items: str


@dataclass(frozen=True)
class TiebreakerToHold:
    """A subcategory tiebreaker the final calls, for the organiser to hold."""

    category: str
    name: str
    open_places: int
    entrants: int


@dataclass(frozen=True)
class EventStandings:
    """An event's overall standings, with the ruleset and settings that place and award them."""

    event: Event
    ruleset: Ruleset
    spec: EventSpec
    settings: Mapping[str, Value]
    # Codes of the rounds ranked, in the event's order.
    rounds: tuple[str, ...]
    overall: list[StandingLine]
    # Entry number -> the name the public may read ("" when withheld).
    public_names: Mapping[int, str]
    round_names: Mapping[str, str]
    # Rounds in the state final: the prize round among them decides titles and prizes.
    final_rounds: tuple[str, ...] = ()
    # The ranking of each subcategory tiebreaker held (a round "tiebreaker-CATEGORY").
    tiebreakers: Mapping[str, Sequence[RankedEntry]] = field(default_factory=dict)

    @property
    def prizes(self) -> PrizeRound:
        """The round that awards the event's prizes, and whether it is final yet."""
        return prize_round(self.spec, self.final_rounds, self.overall)

    @property
    def prize_round_name(self) -> str:
        """The prize round's name as the organiser gave it (or the ruleset's), translated."""
        code = self.spec.prize_round
        return ruleset_text(self.round_names.get(code, code))

    @property
    def still_to_come(self) -> str:
        """Before the prize round is final: which round decides the prizes ("" after)."""
        if self.prizes.decided:
            return ""
        return _("Provisional standings: titles and prizes are decided by the round "
                 "“%(round)s”, which is not final yet.") % {"round": self.prize_round_name}

    @property
    def tiebreakers_to_come(self) -> list[str]:
        """One line per subcategory whose tiebreaker is not final yet: its open places carry no
        prize until it is (rules.prizes.pending_tiebreakers)."""
        if self.still_to_come:
            return []
        notes = []
        for call in pending_tiebreakers(self.overall, self.spec, final_rounds=self.final_rounds,
                                        settings=self.settings):
            code = tiebreaker_round_id(self.spec, call.category)
            name = self.category_name(call.category)
            held = self.round_names.get(code)
            tiebreaker = self.spec.round(code).name
            notes.append(_(
                "%(category)s: the places after the finalists are decided by the round "
                "“%(round)s”, which is not final yet; no prize is named for them.") % {
                "category": name,
                "round": held or f"{ruleset_text(tiebreaker)}: {name}"})
        return notes

    @property
    def official_ranking(self) -> str | None:
        """Who the official ranking admits, in the ruleset's words; None: it has none."""
        official = self.ruleset.official_ranking
        return ruleset_text(official.description) if official is not None else None

    @cached_property
    def official_places(self) -> dict[str, int | None]:
        """Entry id -> place in the official ranking of the event (overall standings)."""
        return official_places(self.overall, self.ruleset.official_ranking,
                               settings=self.settings)

    @property
    def categories(self) -> list[Category]:
        return [Category(OVERALL, _("Overall"), self._prizes_only_for(OVERALL)),
                *(Category(sub.id, ruleset_text(sub.name), self._prizes_only_for(sub.id))
                  for sub in self.spec.subcategories)]

    def _prizes_only_for(self, category: str) -> tuple[str, ...]:
        """The conditions the category's prizes set (official ranking, residence), translated."""
        official = self.ruleset.official_ranking
        found: list[str] = []
        for award in self.spec.awards:
            if award.category != category:
                continue
            conditions = [award.eligible] if award.eligible is not None else []
            if award.official_only and official is not None:
                conditions.append(official)
            found.extend(ruleset_text(c.description) for c in conditions)
        return tuple(dict.fromkeys(found))

    def category_name(self, category: str) -> str:
        return next((c.name for c in self.categories if c.id == category), category)

    def prize(self, award: AwardLine) -> str:
        """What the place brings, in words: trophy, money in the ruleset's currency, items."""
        parts = [_("Trophy")] if award.trophy else []
        if award.money is not None:
            parts.append(f"{number_format(award.money, force_grouping=True)} "
                         f"{self.ruleset.currency}")
        if award.items:
            parts.append(ruleset_text(award.items))
        return " · ".join(parts)

    def held(self) -> dict[str, tuple[TiebreakerCall, Sequence[RankedEntry]]]:
        """The tiebreakers held, checked (RulesError: tiebreaker.not_needed, .not_called)."""
        return held_tiebreakers(self.overall, self.spec, final_rounds=self.final_rounds,
                                tiebreakers=self.tiebreakers, settings=self.settings)

    def tiebreakers_to_hold(self) -> list[TiebreakerToHold]:
        """The subcategory tiebreakers the final calls whose round is not made yet."""
        calls = decided_tiebreakers(self.overall, self.spec, final_rounds=self.final_rounds,
                                    settings=self.settings)
        held = {self.spec.tiebreaker_category(code) for code in self.round_names}
        return [TiebreakerToHold(call.category, self.category_name(call.category),
                                 call.open_places, len(call.entrants))
                for call in calls if call.category not in held]

    def category(self, category: str) -> list[StandingLine]:
        """The category's lines placed among themselves, a held tiebreaker's order deciding
        the places after the finalists; RulesError (category.unknown, tiebreakers)."""
        return category_with_tiebreaker(self.overall, self.spec, category, self.held(),
                                        settings=self.settings)

    def awards(self) -> list[AwardLine]:
        """Every prize of the event, skipping ineligible entrants; none until the prize round is
        final (rules.prizes; RulesError from the engine)."""
        self.held()
        return decided_awards(self.overall, self.spec, self.ruleset,
                              final_rounds=self.final_rounds, settings=self.settings,
                              tiebreakers=self.tiebreakers)

    def flag(self, line: StandingLine | AwardLine) -> str:
        """The country (IOC code) the entrant competes under, or the mixed flag."""
        return entry_flag(line.entry, self.spec)

    def name(self, line: StandingLine | AwardLine, *, public: bool) -> str:
        """The entrant's name; for the public, "" unless every member named consented."""
        if public:
            return self.public_names.get(int(line.entry.id), "")
        return line.entry.name

    def rows(self, category: str, *, public: bool) -> list[StandingRow]:
        """The category's lines as shown; RulesError (category.unknown)."""
        rows = []
        for line in self.category(category):
            score = line.ranked.score
            rows.append(StandingRow(
                place=line.place, overall_place=line.overall_place,
                official_place=self.official_places.get(line.entry.id),
                entry=int(line.entry.id),
                name=self.name(line, public=public), flag=self.flag(line),
                round=ruleset_text(self.round_names.get(line.round_id, line.round_id)),
                group=line.entry.group,
                round_rank=line.round_rank, status=score.status.value,
                final_seconds=score.final_time,
                final_time=format_time(score.final_time) if score.final_time is not None else None,
                pieces=score.pieces))
        return rows

    def award_rows(self, *, public: bool) -> list[AwardRow]:
        """Every prize as shown, categories in the ruleset's order (RulesError from the engine)."""
        return [AwardRow(
            category=award.category, category_name=self.category_name(award.category),
            place=award.place, entry=int(award.entry.id), name=self.name(award, public=public),
            flag=self.flag(award), overall_place=award.overall_place,
            official_place=self.official_places.get(award.entry.id), official=award.official,
            prize=self.prize(award),
            trophy=award.trophy, money=award.money,
            currency=self.ruleset.currency if award.money is not None else None,
            items=award.items) for award in self.awards()]


def event_standings_get(*, event: Event) -> EventStandings:
    """The event's standings across every round that has results.

    Raises RulesError when a round's results cannot be ranked.
    """
    championship = event.championship
    ruleset = load_ruleset(championship.ruleset_id)
    spec = ruleset.event(event.code)
    with_results = set(Result.objects.filter(round__event=event)
                       .values_list("round_id", flat=True).distinct())
    rankings: dict[str, Sequence[RankedEntry]] = {}
    tiebreakers: dict[str, Sequence[RankedEntry]] = {}
    for rnd in event.rounds.order_by("position"):
        if rnd.pk in with_results:
            rnd.event = event
            category = spec.tiebreaker_category(rnd.code)
            (tiebreakers if category else rankings)[category or rnd.code] = \
                round_ranking(rnd).lines
    overall = engine_event_standings(rankings, spec)
    withheld = withheld_by_number(event_id=event.pk)
    names = {int(line.entry.id): public_name(line.entry.name, withheld.get(int(line.entry.id), ()))
             for line in overall}
    round_names = dict(event.rounds.values_list("code", "name"))
    final = tuple(event.rounds.filter(state=RoundState.FINAL).values_list("code", flat=True))
    return EventStandings(event, ruleset, spec, championship.settings, tuple(rankings), overall,
                          names, round_names, final, tiebreakers)
