"""A ruleset in plain words, for `puzzlecomp rulesets show` and the organisers' screens."""

from __future__ import annotations

from puzzlecomp.rules.conditions import Condition
from puzzlecomp.rules.ruleset import AwardRule, Event, Qualification, Round, Ruleset

_CHARGE = {
    "all": "every missing piece",
    "not_contiguous": "every missing piece not in a cluster of two or more adjacent missing "
    "pieces (such clusters are a manufacturing defect)",
    "found_only": "every missing piece later found outside the puzzle (misplaced); a piece that "
    "is truly gone costs nothing",
}

_AGE_DAY = {
    "competition_start": "on the competition's first day",
    "previous_year_end": "on 31 December before the competition year",
    "year_end": "on 31 December of the competition year",
}


def describe_ruleset(ruleset: Ruleset) -> list[str]:
    """Lines describing events, rounds, limits, puzzle sizes and rules in plain words."""
    p = ruleset.penalty
    lines = [
        f"{ruleset.name} ({ruleset.id}), from rulebook {ruleset.rulebook}",
        f"Penalty: {p.seconds_per_piece} s for {_CHARGE[p.charge]}.",
        _counting(ruleset),
    ]
    if ruleset.counting.wrong_piece_means_unfinished:
        lines.append("A finish with a wrongly placed piece counts as not finished.")
    if ruleset.official_ranking:
        lines.append(
            f"Official ranking: only {ruleset.official_ranking.description}; "
            "everyone else keeps a place in the full ranking."
        )
    if ruleset.assistance:
        prize = ("may take a prize no unaided entrant claims" if ruleset.assisted_take_prizes
                 else "takes no prize")
        lines.append("Assistance: help asked for finishes with no time recorded (ranked after "
                     f"every unaided entrant; {prize}); outside help, no time and no place.")
    age = ruleset.registration.age
    if age.alone_from is not None or age.accompanied_below is not None:
        rules = [f"alone from {age.alone_from}" if age.alone_from is not None else "",
                 f"under {age.accompanied_below} only with an accompanying adult"
                 if age.accompanied_below is not None else ""]
        lines.append(f"Ages ({'; '.join(r for r in rules if r)}): by birth date "
                     f"{_AGE_DAY[age.reckoned]}.")
    if any(len(rnd.puzzle_sizes) > 1 for event in ruleset.events for rnd in event.rounds):
        lines.append("A puzzle that starts after another is checked finishes at least "
                     f"{ruleset.next_finish_after_seconds} s after it.")
    lines.append("Time credits: in every round." if ruleset.time_credits == "every_round"
                 else "Time credits: in every round but the event's final.")
    if ruleset.dispute_window_hours:
        lines.append(f"Disputes: within {ruleset.dispute_window_hours} hours of publication.")
    for field, fact in ruleset.facts.items():
        values = f" ({', '.join(c.value for c in fact.values)})" if fact.values else ""
        lines.append(f"Person fact {field}: {fact.description}, {fact.kind}{values}.")
    for name, spec in ruleset.settings.items():
        values = ", ".join(c.value for c in ruleset.setting_values(name))
        default = f"; default {spec.default}" if spec.default is not None else "; required"
        lines.append(f"Setting {name}: {spec.description} ({values}{default}).")
    for event in ruleset.events:
        lines.extend(["", *_event(event, ruleset.currency)])
    return lines


def _counting(ruleset: Ruleset) -> str:
    c = ruleset.counting
    how = (
        "the judge counts the pieces left over in piles of 10; placed = puzzle size - remaining"
        if c.record == "remaining"
        else "the judge counts the placed pieces"
    )
    return f"At the limit: only groups of {c.min_cluster} or more joined pieces count; {how}."


def _event(event: Event, currency: str) -> list[str]:
    size = (
        f"{event.members_min}"
        if event.members_min == event.members_max
        else f"{event.members_min}-{event.members_max}"
    )
    head = f"Event {event.id}: {event.name} ({event.kind}, {size} per entry"
    if event.capacity:
        head += f", at most {event.capacity} {event.capacity_unit}"
    lines = [head + ")"]
    if event.drawn_teams:
        lines.append("  Teams are drawn at random by the organiser from individual registrations.")
    if event.fee:
        fee = event.fee
        if fee.early:
            lines.append(
                f"  Fee: {fee.early.amount} {currency} per {fee.per} until "
                f"{fee.early.until} ({fee.early.discount_percent} % early discount)."
            )
        else:
            lines.append(f"  Fee: {fee.amount} {currency} per {fee.per}.")
    for rnd in event.rounds:
        lines.extend(_round(rnd))
    for sub in event.subcategories:
        lines.append(f"  Subcategory {sub.id}: {sub.name} ({describe_condition(sub.when)}).")
    if event.subcategory_tiebreaker:
        rule = event.subcategory_tiebreaker
        lines.append(f"  A subcategory with too few finalists for its prizes holds a tiebreaker "
                     f"of its best {rule.entrants} eliminated earlier:")
        lines.extend(_round(rule.round))
    lines.extend(f"  Award: {_award(award, currency)}" for award in event.awards)
    return lines


def _round(rnd: Round) -> list[str]:
    limit = f"{rnd.time_limit_minutes} min" if rnd.time_limit_minutes else "limit set by organiser"
    puzzles = ", ".join(
        f"{size} pieces" if size else "size set by organiser" for size in rnd.puzzle_sizes
    )
    line = f"  Round {rnd.id} ({rnd.name}): {limit}; puzzles: {puzzles}"
    if rnd.groups:
        line += f"; groups {', '.join(rnd.groups)}"
    lines = [line + "."]
    for part in rnd.relay_parts:
        rotate = (
            f", rotating every {part.rotate_every_minutes} min" if part.rotate_every_minutes else ""
        )
        lines.append(
            f"    Part {part.name}: {part.puzzles} x {part.pieces} pieces, {part.workers}{rotate}."
        )
    if rnd.seating.solo_top_per_previous_group:
        lines.append(
            f"    The best {rnd.seating.solo_top_per_previous_group} of each earlier "
            "group sit alone at a table; the rest share."
        )
    q = rnd.qualification
    if q:
        if q.per_group is not None:
            who = f"the first {q.per_group} of each group"
        else:
            who = " and ".join(
                f"the best {quota.per_group} {quota.reason} entrants of each group"
                + (" (a maximum)" if quota.maximum else "")
                for quota in q.quotas
            )
        ties = (
            "everyone tied at the cut-off goes too"
            if q.ties_at_cutoff == "all"
            else "ties at the cut-off stay out"
        )
        dest = ""
        if q.to_group:
            dest = " (" + ", ".join(f"{a}->{b}" for a, b in q.to_group.items()) + ")"
        lines.append(f"    Qualify to {q.to_round}: {who}; {ties}{dest}.")
        if q.playoff:
            scope = "its next-round group" if q.playoff.scope == "next_group" else "the next round"
            caps = [f"{n} {what}" for n, what in ((q.playoff.max_countries, "countries"),
                                                    (q.playoff.max_entrants, "entrants"))
                    if n]
            if q.playoff.within_group_maximum:
                caps.append("the places the next round's group maximum leaves")
            cap = f", at most {' and '.join(caps)}" if caps else ""
            lines.append(
                f"    Country play-off: every country with no direct qualifier in {scope} "
                f"sends its best-placed entrant (ties all go){cap}; mixed entries excluded."
            )
        if _caps_in(q):
            lines.append(f"    A tie at a maximum: {_TIE_AT_CAP[q.tie_at_cap]}.")
    if len(rnd.puzzle_sizes) > 1:
        lines.append(f"    {_PUZZLE_ORDER[rnd.puzzle_order]}")
    return lines


_TIE_AT_CAP = {
    "raw_time": "the faster time before penalties goes first; those still tied stay out",
    "leave_out": "the whole tied block stays out",
}
_PUZZLE_ORDER = {
    "listed": "Puzzles (or parts) in order, each finished and checked before the next starts.",
    "chosen": "One puzzle on the table at a time, in the order the entry chooses.",
}


def _caps_in(q: Qualification) -> bool:
    """True when the qualification has a maximum a tie could pass."""
    playoff = q.playoff
    return any(quota.maximum for quota in q.quotas) or (
        playoff is not None and bool(playoff.max_countries or playoff.max_entrants
                                     or playoff.within_group_maximum))


def _award(award: AwardRule, currency: str) -> str:
    places = (
        f"place {award.from_place}"
        if award.from_place == award.to_place
        else f"places {award.from_place}-{award.to_place}"
    )
    parts = [f"{award.category} {places}:"]
    if award.trophy:
        parts.append("trophy")
    if award.money:
        parts.append("+ " + " / ".join(f"{m:,} {currency}" for m in award.money))
    if award.items:
        parts.append(f"+ {award.items}" if award.trophy else award.items)
    if award.official_only:
        parts.append("(official ranking only)")
    if award.eligible:
        parts.append(f"(only: {award.eligible.description})")
    return " ".join(parts)


def describe_condition(condition: Condition) -> str:
    """A condition in words, e.g. "birth_year from 1965 to 1979"."""
    if condition.all_of:
        return " and ".join(describe_condition(c) for c in condition.all_of)
    if condition.any_of:
        return " or ".join(describe_condition(c) for c in condition.any_of)
    if condition.not_ is not None:
        return f"not ({describe_condition(condition.not_)})"
    tests = []
    if condition.equals is not None:
        tests.append(f"is {condition.equals}")
    if condition.one_of is not None:
        tests.append(f"is one of {', '.join(condition.one_of)}")
    if condition.at_least is not None:
        tests.append(f"at least {condition.at_least}")
    if condition.at_most is not None:
        tests.append(f"at most {condition.at_most}")
    if condition.equals_setting is not None:
        tests.append(f"equals setting {condition.equals_setting}")
    subject = condition.field or f"setting {condition.setting}"
    return f"{subject} {' and '.join(tests)}"
