"""Who goes to the next round: places per group, national and foreign quotas, country play-off.

The rules and every default chosen where a rulebook is silent are in docs/qualification.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import groupby
from operator import itemgetter

from puzzlecomp.rules.errors import RulesError, RuleViolation, violation
from puzzlecomp.rules.flags import entry_flag
from puzzlecomp.rules.group_maxima import group_maximum
from puzzlecomp.rules.ranking import RankedEntry, competition_ranks
from puzzlecomp.rules.results import Entry, Status
from puzzlecomp.rules.rounds import RoundRules
from puzzlecomp.rules.ruleset import Playoff, Qualification
from puzzlecomp.rules.scoring import SortKey


class QualifyReason(StrEnum):
    PLACE = "place"
    # In a tied block that reaches past the last place.
    TIE = "tie"
    PLAYOFF = "playoff"
    NATIONAL = "national"
    FOREIGN = "foreign"


@dataclass(frozen=True, slots=True)
class Qualifier:
    """An entry going to the next round: its rank in its own group, where it goes and why."""

    entry: Entry
    rank: int
    to_group: str
    reason: QualifyReason
    # How a tie at a maximum was settled to let this entry in (Qualification.tie_at_cap); "" when
    # the entry went without one.
    tie_settled_by: str = ""


# A group's qualifier, why it goes, and how a tie at a maximum let it in ("" when none did).
_Chosen = tuple[RankedEntry, QualifyReason, str]
# ((scope, flag), the country's best-placed entrants) in the play-off.
_Country = tuple[tuple[str, str], list[RankedEntry]]


def qualification_rules(rules: RoundRules) -> Qualification:
    """The round's qualification; raises RulesError when the round is the event's last."""
    qualification = rules.round.qualification
    if qualification is None:
        raise RulesError(
            violation(
                "qualification.last_round",
                f"round {rules.round.id} is the last round of the event",
                field="round",
            )
        )
    return qualification


def qualify_for_next_round(ranking: Sequence[RankedEntry], rules: RoundRules) -> list[Qualifier]:
    """The qualifiers of a ranked round, ordered by next-round group, group and rank.

    Takes the ranking from `rank_round` (its official ranks decide the national quota).
    Raises RulesError when a group has no next-round group or a quota has no official ranking.
    """
    qualification = qualification_rules(rules)
    groups = _by_group(ranking)
    to_group = _destinations(groups, rules)
    qualifiers = [
        Qualifier(line.entry, _rank(line), to_group[group], reason, settled)
        for group, lines in groups.items()
        for line, reason, settled in _group_qualifiers(lines, qualification, rules)
    ]
    if qualification.playoff is not None:
        qualifiers.extend(_playoff(groups, qualifiers, to_group, qualification.playoff, rules))
    return sorted(qualifiers, key=lambda q: (q.to_group, q.entry.group, q.rank, q.entry.id))


def replacement_for(
    withdrawn_entry_id: str,
    ranking: Sequence[RankedEntry],
    qualifiers: Sequence[Qualifier],
    rules: RoundRules,
) -> Qualifier | None:
    """The entrant who takes the place of a qualifier who withdraws; None when nobody is left.

    A place (or tie) goes to the best entrant of the same group not yet qualified, a quota place
    to the best such entrant of the same quota, a play-off place to the next best entrant of the
    same country within the play-off scope. Tied candidates are taken in ranking order.
    """
    withdrawn = next((q for q in qualifiers if q.entry.id == withdrawn_entry_id), None)
    if withdrawn is None:
        raise RulesError(
            violation(
                "qualification.not_a_qualifier",
                f"entry {withdrawn_entry_id} is not a qualifier",
                entry=withdrawn_entry_id,
            )
        )
    taken = {q.entry.id for q in qualifiers}
    free = [line for line in ranking if line.rank is not None and line.entry.id not in taken]
    reason = withdrawn.reason
    if reason is QualifyReason.PLAYOFF:
        flag = entry_flag(withdrawn.entry, rules.event)
        to_group = _destinations(_by_group(ranking), rules)
        playoff = qualification_rules(rules).playoff
        assert playoff is not None
        candidates = [
            line
            for line in free
            if _playoff_candidate(line)
            and entry_flag(line.entry, rules.event) == flag
            and (playoff.scope == "next_round" or to_group[line.entry.group] == withdrawn.to_group)
        ]
    else:
        candidates = [
            line
            for line in free
            if line.entry.group == withdrawn.entry.group
            and (reason is not QualifyReason.NATIONAL or line.eligible is True)
            and (reason is not QualifyReason.FOREIGN or line.eligible is False)
        ]
        if reason is QualifyReason.TIE:
            reason = QualifyReason.PLACE
    if not candidates:
        return None
    best = min(candidates, key=lambda line: (_placing(line), line.entry.id))
    return Qualifier(best.entry, _rank(best), withdrawn.to_group, reason)


def _group_qualifiers(
    lines: list[RankedEntry], qualification: Qualification, rules: RoundRules
) -> list[_Chosen]:
    ranked = [line for line in lines if line.rank is not None]
    if qualification.per_group is not None:
        ranks = [_rank(line) for line in ranked]
        return _cutoff(ranked, ranks, qualification.per_group, qualification, None)
    if rules.ruleset.official_ranking is None:
        raise RulesError(
            violation(
                "qualification.quota_without_official_ranking",
                f"{rules.ruleset.id} gives quotas but no official_ranking to decide them",
                field="qualification",
            )
        )
    chosen: list[_Chosen] = []
    for quota in qualification.quotas:
        members = [line for line in ranked if line.eligible is (quota.reason == "national")]
        # Ranks among the quota's own entrants: for nationals these are the official ranks.
        ranks = competition_ranks([line.score.sort_key for line in members])
        reason = QualifyReason(quota.reason)
        if quota.maximum:
            chosen.extend(_capped(members, ranks, quota.per_group, qualification.tie_at_cap,
                                  reason))
        else:
            chosen.extend(_cutoff(members, ranks, quota.per_group, qualification, reason))
    return chosen


def _capped(
    lines: list[RankedEntry], ranks: list[int], places: int, settle: str, reason: QualifyReason
) -> list[_Chosen]:
    """The best lines, never more than `places`: a tied block that does not fit is settled by
    `settle` (czech-championship.txt: "a maximum of 5 foreign competitors")."""
    chosen: list[_Chosen] = []
    for _, tied in groupby(zip(lines, ranks, strict=True), key=itemgetter(1)):
        block = [line for line, _ in tied]
        free = places - len(chosen)
        if len(block) <= free:
            chosen.extend((line, reason, "") for line in block)
            continue
        if settle == "raw_time":
            taken: list[RankedEntry] = []
            for _, faster in groupby(sorted(block, key=_raw_time), key=_raw_time):
                sub = list(faster)
                if len(taken) + len(sub) > free:
                    break
                taken.extend(sub)
            chosen.extend((line, reason, settle) for line in taken)
        break
    return chosen


def _raw_time(line: RankedEntry) -> int:
    """The time before penalties of a finisher; 0 for the others, whom it cannot separate."""
    score = line.score
    if score.final_time is None:
        return 0
    return score.final_time - score.penalty_seconds


def _cutoff(
    lines: list[RankedEntry],
    ranks: list[int],
    places: int,
    qualification: Qualification,
    quota: QualifyReason | None,
) -> list[_Chosen]:
    """Lines within `places`, with their tied block; competition ranks mark where a block starts."""
    block_end = {rank: position for position, rank in enumerate(ranks, start=1)}
    chosen = []
    for line, rank in zip(lines, ranks, strict=True):
        past_cutoff = block_end[rank] > places
        if rank > places or (past_cutoff and qualification.ties_at_cutoff == "none"):
            continue
        reason = quota or (QualifyReason.TIE if past_cutoff else QualifyReason.PLACE)
        chosen.append((line, reason, ""))
    return chosen


def _playoff(
    groups: dict[str, list[RankedEntry]],
    direct: list[Qualifier],
    to_group: dict[str, str],
    playoff: Playoff,
    rules: RoundRules,
) -> list[Qualifier]:
    """Each country with no direct qualifier in the scope sends its best-placed entrants."""
    mixed = rules.event.nationality.mixed_flag

    def scope(group: str) -> str:
        return to_group[group] if playoff.scope == "next_group" else ""

    qualified = {(scope(q.entry.group), entry_flag(q.entry, rules.event)) for q in direct}
    candidates: dict[tuple[str, str], list[RankedEntry]] = {}
    for group, lines in groups.items():
        for line in lines:
            key = (scope(group), entry_flag(line.entry, rules.event))
            if key[1] != mixed and key not in qualified and _playoff_candidate(line):
                candidates.setdefault(key, []).append(line)
    sent: list[_Country] = []
    for key, lines in candidates.items():
        best = min(_rank(line) for line in lines)
        sent.append((key, [line for line in lines if line.rank == best]))
    # Countries in order of their best entrant's place and score; the country code only orders
    # identical scores, which the maxima below treat as the tie they are.
    sent.sort(key=lambda item: (_country_placing(item), item[0][1]))
    scopes: dict[str, list[_Country]] = {}
    for item in sent:
        scopes.setdefault(item[0][0], []).append(item)
    room = _room_left(direct, to_group, playoff, rules)
    return [
        Qualifier(line.entry, _rank(line), to_group[line.entry.group], QualifyReason.PLAYOFF,
                  settled)
        for countries in scopes.values()
        for (_, lines), settled in _within_maxima(countries, playoff, rules,
                                                  room, to_group)
        for line in lines
    ]


def _room_left(direct: list[Qualifier], to_group: dict[str, str], playoff: Playoff,
               rules: RoundRules) -> dict[str, int] | None:
    """Places each next-round group's maximum leaves the play-off after the direct qualifiers
    (`within_group_maximum`); None when the play-off is bounded by its own maxima alone.

    wjpc-2025.txt: a semifinal of "a maximum of 180 pairs per group (160 by direct
    qualification and 20 by country play-off)" while "the first 85 pairs classified in each
    group" go directly: the play-off takes what the 180 leaves, at most 20.
    """
    if not playoff.within_group_maximum:
        return None
    maximum = group_maximum(rules.event, qualification_rules(rules).to_round)
    assert maximum is not None  # the ruleset's validation requires it
    direct_in = Counter(q.to_group for q in direct)
    return {group: max(0, maximum - direct_in[group]) for group in set(to_group.values())}


# How a country's own tie still unsettled at a play-off maximum picks the one it sends.
ENTRY_ORDER = "entry_order"


def _within_maxima(
    countries: list[_Country], playoff: Playoff, rules: RoundRules,
    room: dict[str, int] | None, to_group: dict[str, str],
) -> list[tuple[_Country, str]]:
    """The countries of one scope that send entrants, best first, within the play-off's maxima.

    wjpc-2025.txt: "up to a maximum of 5 countries" (teams), "max 15 by play-off" per
    semifinal, and with `room` the places each next-round group's maximum leaves. Ties that
    would pass a maximum are settled by the qualification's tie_at_cap,
    never let past it: first within a country (its own entrants tied on one place), then
    between countries. Places a settled tie leaves free go on to the next countries in order:
    no play-off place stays empty while a country that fits waits (docs/qualification.md).
    """
    settle = qualification_rules(rules).tie_at_cap
    taken: list[tuple[_Country, str]] = []

    def fits(more: list[_Country]) -> bool:
        chosen = [country for country, _ in taken] + more
        entrants = sum(len(lines) for _, lines in chosen)
        if room is not None:
            sent_to = Counter(to_group[line.entry.group] for _, lines in chosen for line in lines)
            if any(count > room[group] for group, count in sent_to.items()):
                return False
        return (playoff.max_countries is None or len(chosen) <= playoff.max_countries) and (
            playoff.max_entrants is None or entrants <= playoff.max_entrants
        )

    def within(country: _Country) -> tuple[_Country, str] | None:
        """The country with as many of its own tied entrants as fit, settled by tie_at_cap;
        still tied (or with leave_out), its best score, then the first by group and entry: the
        place is the country's, so its tie never hands it to a worse-placed country."""
        if fits([country]):
            return country, ""
        key, lines = country
        if len(lines) < 2:
            return None
        kept: list[RankedEntry] = []
        if settle == "raw_time":
            for _, faster in groupby(sorted(lines, key=_raw_time), key=_raw_time):
                more = list(faster)
                if not fits([(key, kept + more)]):
                    break
                kept += more
        if kept:
            return (key, kept), settle
        first = min(lines, key=lambda line: (_placing(line), line.entry.group, line.entry.id))
        return ((key, [first]), ENTRY_ORDER) if fits([(key, [first])]) else None

    for _, tied in groupby(countries, key=_country_placing):
        block = [found for found in map(within, tied) if found is not None]
        if fits([country for country, _ in block]):
            taken.extend(block)
            continue
        if settle != "raw_time":
            continue  # leave_out: the tied countries stay out; the next may fit
        by_raw_time = sorted(block, key=lambda found: _country_raw_time(found[0]))
        for _, faster in groupby(by_raw_time, key=lambda found: _country_raw_time(found[0])):
            sub = [country for country, _ in faster]
            if fits(sub):
                taken.extend((country, settle) for country in sub)
    return taken


def _country_placing(country: _Country) -> tuple[int, SortKey]:
    return min(map(_placing, country[1]))


def _country_raw_time(country: _Country) -> int:
    return _raw_time(min(country[1], key=_placing))


def _playoff_candidate(line: RankedEntry) -> bool:
    # A dnf has no placing to compare, so it never takes a play-off place.
    return line.rank is not None and line.score.status is not Status.DNF


def _placing(line: RankedEntry) -> tuple[int, SortKey]:
    """Order across groups: the rank number in the entry's own group, then the score itself."""
    assert line.score.sort_key is not None
    return (_rank(line), line.score.sort_key)


def _rank(line: RankedEntry) -> int:
    assert line.rank is not None
    return line.rank


def _by_group(ranking: Sequence[RankedEntry]) -> dict[str, list[RankedEntry]]:
    groups: dict[str, list[RankedEntry]] = {}
    for line in ranking:
        groups.setdefault(line.entry.group, []).append(line)
    return groups


def group_problems(entries: Sequence[Entry], rules: RoundRules) -> list[RuleViolation]:
    """Every entry whose group has no next-round group (qualification.group_unknown), one
    violation per entry, so an input file is told all its misplaced rows in one run."""
    qualification = qualification_rules(rules)
    next_groups = rules.event.round(qualification.to_round).groups
    known = tuple(qualification.to_group) or tuple(rules.round.groups)
    problems = []
    for entry in entries:
        if qualification.to_group:
            goes = entry.group in qualification.to_group
        else:
            goes = len(next_groups) <= 1
        if goes:
            continue
        where = (f"group {entry.group!r} is not a group of round {rules.round.id}" if entry.group
                 else f"no group given: round {rules.round.id} is played in groups")
        problems.append(violation(
            "qualification.group_unknown",
            f"{where} ({', '.join(known)}), so it has no group in round "
            f"{qualification.to_round} ({rules.ruleset.id})",
            field="group", entry=entry.id,
        ))
    return problems


def _destinations(groups: dict[str, list[RankedEntry]], rules: RoundRules) -> dict[str, str]:
    """The next-round group of each group; "" when the next round is not split into groups."""
    qualification = qualification_rules(rules)
    next_groups = rules.event.round(qualification.to_round).groups
    destinations: dict[str, str] = {}
    problems = []
    for group, lines in groups.items():
        if qualification.to_group:
            destination = qualification.to_group.get(group)
        elif len(next_groups) <= 1:
            destination = next_groups[0] if next_groups else ""
        else:
            destination = None
        if destination is None:
            problems.append(
                violation(
                    "qualification.group_unknown",
                    f"group {group!r} of round {rules.round.id} has no group in round "
                    f"{qualification.to_round} ({rules.ruleset.id})",
                    field="group",
                    entry=lines[0].entry.id,
                )
            )
        else:
            destinations[group] = destination
    if problems:
        raise RulesError(problems)
    return destinations
