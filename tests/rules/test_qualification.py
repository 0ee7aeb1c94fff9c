"""Qualification for the next round: places, ties at the cut-off, quotas, country play-off."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.flags import entry_flag
from puzzlecomp.rules.people import Person
from puzzlecomp.rules.qualification import (
    Qualifier,
    QualifyReason,
    qualify_for_next_round,
    replacement_for,
)
from puzzlecomp.rules.ranking import competition_ranks, rank_round
from puzzlecomp.rules.results import Entry, MissingPieces, Result, Status
from puzzlecomp.rules.ruleset import Playoff, Quota
from tests.conftest import round_of

WJPC_FIRST = round_of("wjpc-2025", "individual", "first")
WJPC_SECOND = round_of("wjpc-2025", "individual", "second")
PAIRS_FIRST = round_of("wjpc-2025", "pairs", "first")
PAIRS_SEMIFINAL = round_of("wjpc-2025", "pairs", "semifinal")
TEAMS_FIRST = round_of("wjpc-2025", "teams", "first")
CZECH = round_of("czech-championship", "individual", "qualification")
CZECH_PAIRS = round_of("czech-championship", "pairs", "qualification")

PLACE, TIE, PLAYOFF = QualifyReason.PLACE, QualifyReason.TIE, QualifyReason.PLAYOFF
NATIONAL, FOREIGN = QualifyReason.NATIONAL, QualifyReason.FOREIGN


def entrant(entry_id: str, group: str = "A", country: str = "CZE", *members: str) -> Entry:
    """An entry whose members hold `members` nationalities (default: all of `country`)."""
    people = tuple(Person(nationality=n, residence=n) for n in (members or (country,)))
    return Entry(entry_id, country=country, group=group, members=people)


def field(
    group: str,
    size: int,
    countries: dict[int, str] | None = None,
    *,
    start: int = 1000,
    times: dict[int, int] | None = None,
) -> list[tuple[Entry, Result]]:
    """`size` finishers named A001.., one second apart, all CZE unless `countries` says so."""
    countries, times = countries or {}, times or {}
    return [
        (
            entrant(f"{group}{p:03d}", group, countries.get(p, "CZE")),
            Result(Status.FINISHED, time=times.get(p, start + p)),
        )
        for p in range(1, size + 1)
    ]


def qualify(results, rules) -> list[Qualifier]:
    return qualify_for_next_round(rank_round(results, rules), rules)


def ids(qualifiers, reason: QualifyReason | None = None) -> set[str]:
    return {q.entry.id for q in qualifiers if reason is None or q.reason is reason}


def first(group: str, count: int) -> set[str]:
    return {f"{group}{p:03d}" for p in range(1, count + 1)}


def with_qualification(rules, **changes):
    qualification = rules.round.qualification.model_copy(update=changes)
    return dataclasses.replace(
        rules, round=rules.round.model_copy(update={"qualification": qualification})
    )


# ---------------------------------------------------------------- places and ties


def test_wjpc_2025_the_first_85_of_each_group_go_to_their_semifinal():
    """wjpc-2025.txt, Individual First Round: the first 85 classified in each group access the
    next round; Second round: S1 from groups A and B, S2 from C and D, S3 from E and F."""
    groups = "ABCDEF"
    qualifiers = qualify([r for g in groups for r in field(g, 90)], WJPC_FIRST)
    assert ids(qualifiers) == set().union(*(first(g, 85) for g in groups))
    assert {q.entry.group: q.to_group for q in qualifiers} == {
        "A": "S1",
        "B": "S1",
        "C": "S2",
        "D": "S2",
        "E": "S3",
        "F": "S3",
    }
    assert {q.reason for q in qualifiers} == {PLACE}


def test_wjpc_2025_everyone_tied_with_the_85th_qualifies():
    """wjpc-2025.txt, Individual First Round: in the event of a tie for the last place that
    gives access to the next round, both participants will access."""
    qualifiers = qualify(field("A", 90, times={86: 1085, 87: 1085}), WJPC_FIRST)
    assert ids(qualifiers) == first("A", 87)
    assert ids(qualifiers, TIE) == {"A085", "A086", "A087"}
    assert {q.rank for q in qualifiers if q.reason is TIE} == {85}


def test_a_tied_block_that_ends_at_the_last_place_is_a_place_not_a_tie():
    """wjpc-2025.txt, Individual First Round; default (docs/qualification.md): `tie` marks only
    a tied block that reaches past the last place."""
    qualifiers = qualify(field("A", 90, times={85: 1084}), WJPC_FIRST)
    assert ids(qualifiers) == first("A", 85)
    assert {q.reason for q in qualifiers} == {PLACE}


def test_every_entrant_of_a_block_straddling_the_cut_off_is_a_tie_whatever_its_position():
    """Default (docs/qualification.md): places within a tie are not ordered, so the whole
    tied block 84-86 shares the reason `tie`."""
    qualifiers = qualify(field("A", 90, times={85: 1084, 86: 1084}), WJPC_FIRST)
    assert ids(qualifiers) == first("A", 86)
    assert ids(qualifiers, TIE) == {"A084", "A085", "A086"}


def test_with_ties_at_cut_off_none_the_whole_tied_block_stays_out():
    """Ruleset option ties_at_cutoff = "none": ties at the last place stay out."""
    rules = with_qualification(WJPC_FIRST, ties_at_cutoff="none")
    qualifiers = qualify(field("A", 90, times={85: 1084, 86: 1084}), rules)
    assert ids(qualifiers) == first("A", 83)


def test_wjpc_2025_second_round_sends_the_first_60_of_each_semifinal_to_the_final():
    """wjpc-2025.txt, Second round: the first 60 qualified from each semifinal access the final
    (ties at the cut-off all go); the final is one group."""
    results = [r for g in ("S1", "S2", "S3") for r in field(g, 70, times={61: 1060})]
    qualifiers = qualify(results, WJPC_SECOND)
    assert ids(qualifiers) == first("S1", 61) | first("S2", 61) | first("S3", 61)
    assert {q.to_group for q in qualifiers} == {""}


def test_wjpc_2025_pairs_go_85_per_group_to_the_semifinals_then_50_per_semifinal():
    """wjpc-2025.txt, Pairs: the first 85 pairs of each group enter the semifinal (A and B to
    S1, C and D to S2); the first 50 of each semifinal go to the final."""
    first_round = qualify([r for g in "ABCD" for r in field(g, 100)], PAIRS_FIRST)
    assert ids(first_round) == set().union(*(first(g, 85) for g in "ABCD"))
    assert {q.entry.group: q.to_group for q in first_round} == {
        "A": "S1",
        "B": "S1",
        "C": "S2",
        "D": "S2",
    }
    semifinal = qualify(field("S1", 90) + field("S2", 90), PAIRS_SEMIFINAL)
    assert ids(semifinal) == first("S1", 50) | first("S2", 50)


def test_qualifiers_come_ordered_by_next_round_group_then_group_then_rank():
    """docs/qualification.md, Output: ordered by to_group, group, rank."""
    results = field("C", 86) + field("B", 86) + field("A", 86)
    qualifiers = qualify(list(reversed(results)), WJPC_FIRST)
    keys = [(q.to_group, q.entry.group, q.rank) for q in qualifiers]
    assert keys == sorted(keys)
    assert keys[0] == ("S1", "A", 1)


def test_dns_and_dsq_never_qualify_even_in_a_tiny_group():
    """wjpc-2025.txt, Individual First Round: the first 85 *classified*; dns and dsq have no
    place in the ranking."""
    results = [
        *field("A", 3),
        (entrant("X1"), Result(Status.DNS)),
        (entrant("X2"), Result(Status.DSQ)),
    ]
    assert ids(qualify(results, WJPC_FIRST)) == first("A", 3)


def test_a_dnf_qualifies_by_place_only_when_the_group_has_room_for_it():
    """Default (docs/qualification.md): a dnf is ranked last and takes a place only when its
    shared last rank is within the group's places."""
    tiny = [*field("A", 3), (entrant("X1"), Result(Status.DNF))]
    full = [*field("A", 85), (entrant("X1"), Result(Status.DNF))]
    assert "X1" in ids(qualify(tiny, WJPC_FIRST))
    assert "X1" not in ids(qualify(full, WJPC_FIRST))


def test_the_final_is_the_last_round_and_sends_nobody_on():
    """wjpc-2025.txt, Individual Final: there is no round after the final."""
    final = round_of("wjpc-2025", "individual", "final")
    with pytest.raises(RulesError, match="round final is the last round of the event") as exc:
        qualify(field("", 5), final)
    assert exc.value.code == "qualification.last_round"


def test_a_group_the_ruleset_does_not_send_anywhere_is_refused():
    """wjpc-2025.toml, to_group: every first-round group has its semifinal."""
    with pytest.raises(RulesError, match="group 'G'") as exc:
        qualify(field("A", 5) + field("G", 5), WJPC_FIRST)
    assert exc.value.code == "qualification.group_unknown"


# ---------------------------------------------------------------- country play-off


def test_wjpc_2025_a_country_without_a_semifinalist_sends_its_best_placed_entrant():
    """wjpc-2025.txt, Individual Play-off: of all the countries with no representative in the
    second round, the participant with the best position in the first round advances; the 2025
    results show it applied per semifinal (shared/data/README.md; ruleset scope next_group)."""
    results = (
        field("A", 90, {88: "NOR", 90: "SWE"})
        + field("B", 90, {87: "NOR", 89: "NOR"})
        + field("C", 90, {10: "SWE"})
    )
    qualifiers = qualify(results, WJPC_FIRST)
    playoff = {(q.entry.id, q.rank, q.to_group) for q in qualifiers if q.reason is PLAYOFF}
    # SWE has a semifinalist in S2 only, so it still sends its best entrant to S1.
    assert playoff == {("B087", 87, "S1"), ("A090", 90, "S1")}


def test_with_scope_next_round_a_qualifier_in_any_semifinal_counts_for_the_country():
    """Ruleset option playoff.scope = "next_round": any qualifier in the next round counts."""
    rules = with_qualification(WJPC_FIRST, playoff=Playoff(scope="next_round"))
    results = field("A", 90, {88: "NOR", 90: "SWE"}) + field("C", 90, {10: "SWE", 86: "NOR"})
    playoff = ids(qualify(results, rules), PLAYOFF)
    assert playoff == {"C086"}


def test_entrants_of_a_country_tied_on_their_place_all_go_through_the_play_off():
    """wjpc-2025.txt, Individual Play-off: if there is a tie for position, both participants
    qualify; default (docs/qualification.md): equal rank numbers in different groups tie too."""
    results = field("A", 90, {88: "NOR", 89: "NOR"}, times={89: 1088}) + field(
        "B", 90, {88: "NOR"}, start=2000
    )
    qualifiers = qualify(results, WJPC_FIRST)
    assert ids(qualifiers, PLAYOFF) == {"A088", "A089", "B088"}


def test_wjpc_2025_teams_play_off_takes_at_most_5_countries_best_placed_first():
    """wjpc-2025.txt, Teams Play-off: of the teams from non-qualified countries, the best
    positioned team of each country advances, up to a maximum of 5 countries."""
    late = {p: f"T{p}" for p in range(26, 33)}
    results = field("A", 40, late) + field("B", 40, {26: "X26"})
    qualifiers = qualify(results, TEAMS_FIRST)
    # Rank 26 in A and in B, with equal times: both come before the 27th places.
    assert ids(qualifiers, PLAYOFF) == {"A026", "A027", "A028", "A029", "B026"}
    assert {q.to_group for q in qualifiers} == {""}


def test_teams_play_off_breaks_equal_places_in_different_groups_by_the_score():
    """Default (docs/qualification.md): countries with equal rank numbers are ordered by their
    entrant's score (final time, then pieces), so the faster team of two 30th places goes."""
    rules = with_qualification(TEAMS_FIRST, playoff=Playoff(scope="next_round", max_countries=1))
    results = field("A", 40, {30: "NOR"}, start=3000) + field("B", 40, {30: "SWE"}, start=2000)
    assert ids(qualify(results, rules), PLAYOFF) == {"B030"}


def test_wjpc_2025_teams_tie_for_the_5th_country_is_settled_by_the_time_before_penalties():
    """wjpc-2025.txt, Teams Play-off: "up to a maximum of 5 countries"; wjpc-2025.toml
    tie_at_cap = "raw_time": of two countries tied for the 5th place, the faster assembly goes,
    never both (the country code used to decide in silence)."""
    results = field("A", 40, {26: "T26", 27: "T27", 28: "T28", 29: "T29", 30: "NOR"}) + field(
        "B", 40, {30: "SWE"}
    )
    results[40 + 29] = (results[40 + 29][0], Result(Status.FINISHED, time=1020,
                                                    missing=MissingPieces(2)))
    # Both 30th in 1030 s; SWE's team assembled in 1020 s and took 10 s of penalties.
    qualifiers = qualify(results, TEAMS_FIRST)
    assert ids(qualifiers, PLAYOFF) == {"A026", "A027", "A028", "A029", "B030"}
    assert {q.entry.id: q.tie_settled_by for q in qualifiers if q.reason is PLAYOFF}["B030"] \
        == "raw_time"
    rules = with_qualification(TEAMS_FIRST, tie_at_cap="leave_out")
    assert ids(qualify(results, rules), PLAYOFF) == {"A026", "A027", "A028", "A029"}


def test_wjpc_2025_second_round_takes_at_most_15_by_play_off_per_semifinal():
    """wjpc-2025.txt, Second round: "165 by direct qualification and max 15 by play-off" per
    semifinal; the best-placed countries go first. Group B has 70 entrants, so S1 has 155
    direct qualifiers and the 180 would leave 25: the play-off's own 15 holds."""
    countries = {86 + n: f"C{n:02d}" for n in range(20)}
    results = field("A", 110, countries) + field("B", 70)
    qualifiers = qualify(results, WJPC_FIRST)
    playoff = [q for q in qualifiers if q.reason is PLAYOFF]
    assert {q.entry.id for q in playoff} == {f"A{86 + n:03d}" for n in range(15)}
    assert len([q for q in qualifiers if q.to_group == "S1"]) == 170


@pytest.mark.parametrize(("event", "expected"), [
    ("individual", ((90, 170, 10), (80, 165, 15), (75, 160, 15))),
    ("pairs", ((90, 170, 10), (80, 165, 15), (75, 160, 20))),
])
def test_wjpc_2025_the_play_off_fills_the_semifinal_up_to_its_180_never_past_it(event, expected):
    """wjpc-2025.txt, Second round: "a maximum of 180 participants per group (165 by direct
    qualification and max 15 by play-off)"; Semifinal Pairs: "a maximum of 180 pairs per group
    (160 by direct qualification and 20 by country play-off)"; First Round: "the first 85 ...
    in each group". The reading (docs/qualification.md, WJPC semifinal sizes): the play-off
    takes the places the 180 leaves after the direct qualifiers, at most its own number. With
    full groups 170 go directly and 10 by play-off, in both events alike; with a group B of 75
    the 160 direct qualifiers leave 20, of which the individual play-off takes its 15."""
    rules = round_of("wjpc-2025", event, "first")
    countries = {86 + n: f"C{n:02d}" for n in range(30)}
    for b_size, direct, playoff in expected:
        qualifiers = qualify(field("A", 120, countries) + field("B", b_size), rules)
        sent = ids(qualifiers, PLAYOFF)
        assert len(ids(qualifiers)) - len(sent) == direct
        assert sent == {f"A{86 + n:03d}" for n in range(playoff)}
        assert len([q for q in qualifiers if q.to_group == "S1"]) == direct + playoff <= 180


def test_wjpc_2025_ties_at_the_cut_off_leave_the_play_off_fewer_places_never_fewer_direct():
    """wjpc-2025.txt, First Round: "In the event of a tie for the last place that gives access
    to the next round, both participants will access": three tied on the 85th of group A
    make 172 direct qualifiers in S1, so the 180 leaves the play-off 8 places."""
    countries = {88 + n: f"C{n:02d}" for n in range(20)}
    results = field("A", 110, countries, times={86: 1085, 87: 1085}) + field("B", 90)
    qualifiers = qualify(results, WJPC_FIRST)
    assert ids(qualifiers, TIE) == {"A085", "A086", "A087"}
    assert ids(qualifiers, PLAYOFF) == {f"A{88 + n:03d}" for n in range(8)}
    assert len([q for q in qualifiers if q.to_group == "S1"]) == 180


# Each example ranks up to 240 entrants: no per-example deadline on a loaded machine.
@settings(deadline=None)
@given(st.integers(40, 120), st.integers(40, 120), st.integers(0, 25), st.integers(0, 6),
       st.sampled_from(["individual", "pairs"]))
def test_wjpc_2025_a_semifinal_never_passes_180_by_play_off_and_fills_every_place_it_can(
        a_size, b_size, waiting, tied, event):
    """wjpc-2025.txt, Second round / Semifinal Pairs: "a maximum of 180 ... per group" with "max
    15" (individual) or "20" (pairs) "by play-off": whatever the groups' sizes, ties at the 85th
    place and countries waiting, the play-off sends min(its number, what the 180 leaves after
    the direct qualifiers, the countries waiting), so a semifinal passes 180 only by its direct
    qualifiers' ties."""
    rules = round_of("wjpc-2025", event, "first")
    cap = {"individual": 15, "pairs": 20}[event]
    waiting = min(waiting, max(0, a_size - 86 - tied))
    countries = {a_size - n: f"C{n:02d}" for n in range(waiting)}
    times = dict.fromkeys(range(85, 85 + tied + 1), 1085)
    results = field("A", a_size, countries, times=times) + field("B", b_size)
    qualifiers = qualify(results, rules)
    sent = ids(qualifiers, PLAYOFF)
    direct = len(ids(qualifiers)) - len(sent)
    assert len(sent) == min(cap, max(0, 180 - direct), len(countries))
    assert len([q for q in qualifiers if q.to_group == "S1"]) <= max(180, direct)


def test_wjpc_2025_ties_at_the_cut_off_past_the_180_leave_no_play_off_place():
    """wjpc-2025.txt: direct qualification (with its ties) comes first and is never cut; when
    it alone passes the 180 the play-off sends nobody (and advance warns, Group maxima)."""
    countries = {101 + n: f"C{n:02d}" for n in range(5)}
    results = field("A", 110, countries, times=dict.fromkeys(range(85, 101), 1085)) \
        + field("B", 90)
    qualifiers = qualify(results, WJPC_FIRST)
    assert ids(qualifiers, PLAYOFF) == set()
    assert len([q for q in qualifiers if q.to_group == "S1"]) == 185


@pytest.mark.parametrize("tie_at_cap", ["raw_time", "leave_out"])
def test_wjpc_2025_a_country_tied_with_itself_at_the_maximum_still_sends_one(tie_at_cap):
    """wjpc-2025.txt, Second round: "a maximum of 180 participants per group", and the play-off
    place is the country's (docs/qualification.md, Ties at a maximum): 170 go directly, so the
    play-off has 10 places; 9 countries take 9, then TTT's
    100th of group A and 100th of group B tie on identical times. Both do not fit; the time
    before penalties cannot part them, so TTT sends one (group A's, by entry order) and the
    worse-placed QXZ (101st) stays out."""
    countries = {86 + n: f"C{n:02d}" for n in range(9)} | {100: "TTT", 101: "QXZ"}
    results = field("A", 101, countries) + field("B", 100, {100: "TTT"})
    rules = with_qualification(WJPC_FIRST, tie_at_cap=tie_at_cap)
    playoff = [q for q in qualify(results, rules) if q.reason is PLAYOFF]
    assert {q.entry.id for q in playoff} == {f"A{86 + n:03d}" for n in range(9)} | {"A100"}
    assert [q.tie_settled_by for q in playoff if q.entry.id == "A100"] == ["entry_order"]


def test_wjpc_2025_pairs_semifinal_holds_at_most_180_pairs_10_by_play_off():
    """wjpc-2025.txt, Semifinal Pairs: "a maximum of 180 pairs per group"; with the first 85
    of each group going directly, 10 places are left for the play-off (docs/qualification.md,
    WJPC semifinal sizes)."""
    countries = {86 + n: f"C{n:02d}" for n in range(30)}
    results = field("A", 120, countries) + field("B", 90)
    qualifiers = qualify(results, PAIRS_FIRST)
    assert ids(qualifiers, PLAYOFF) == {f"A{86 + n:03d}" for n in range(10)}
    assert len([q for q in qualifiers if q.to_group == "S1"]) == 180


def test_mixed_pairs_neither_count_for_a_country_nor_take_a_play_off_place():
    """wjpc-2025.txt, Mixed pairs / teams: mixed pairs participate under the WJPF flag and are
    not eligible for the play-offs due to the country rule."""
    results = field("A", 90)
    results[2] = (entrant("MIX1", "A", "CZE/GER", "CZE", "GER"), results[2][1])
    results[85] = (entrant("MIX2", "A", "FRA/ESP", "FRA", "ESP"), results[85][1])
    results[87] = (entrant("GER1", "A", "GER", "GER", "GER"), results[87][1])
    qualifiers = qualify(results, PAIRS_FIRST)
    assert "MIX1" in ids(qualifiers, PLACE)
    assert ids(qualifiers, PLAYOFF) == {"GER1"}


def test_a_dnf_or_dns_never_takes_a_play_off_place():
    """Default (docs/qualification.md): a dnf has no placing to compare and never takes a
    play-off place; a dns or dsq is not classified at all."""
    results = [
        *field("A", 90),
        (entrant("NOR1", "A", "NOR"), Result(Status.DNF)),
        (entrant("SWE1", "A", "SWE"), Result(Status.DNS)),
    ]
    assert ids(qualify(results, WJPC_FIRST), PLAYOFF) == set()


# ---------------------------------------------------------------- national and foreign quotas


def czech_field(group: str, foreign: set[int], size: int = 80, **times):
    return [
        (
            Entry(
                f"{group}{p:03d}",
                country="SVK" if p in foreign else "CZE",
                group=group,
                members=(Person(residence="SVK" if p in foreign else "CZE"),),
            ),
            Result(Status.FINISHED, time=times.get(f"p{p}", 1000 + p)),
        )
        for p in range(1, size + 1)
    ]


def test_czech_championship_sends_the_50_best_czech_residents_and_the_5_best_foreigners():
    """czech-championship.txt, Qualification: from each group, the 50 fastest competitors from
    the Czech Republic and the 5 fastest foreign competitors advance to the final."""
    foreign = set(range(1, 11))
    qualifiers = qualify(czech_field("A", foreign) + czech_field("B", foreign), CZECH)
    for group in "AB":
        assert ids(qualifiers, FOREIGN) >= {f"{group}{p:03d}" for p in range(1, 6)}
        assert {q.entry.id for q in qualifiers if q.entry.group == group} == {
            f"{group}{p:03d}" for p in (*range(1, 6), *range(11, 61))
        }
    assert len(ids(qualifiers, NATIONAL)) == 100


def test_foreign_entrants_ahead_never_reduce_the_czech_places():
    """czech-championship.txt: the participation of foreign competitors does not reduce the
    number of advancing competitors from the Czech Republic."""
    qualifiers = qualify(czech_field("A", set(range(1, 31))), CZECH)
    assert ids(qualifiers, NATIONAL) == {f"A{p:03d}" for p in range(31, 81)}


def test_czech_pairs_send_30_czech_and_3_foreign_pairs_per_group():
    """czech-championship.txt, Pairs Qualification: 30 fastest pairs from the Czech Republic and
    3 fastest foreign pairs from each group."""
    qualifiers = qualify(czech_field("A", {1, 2, 40, 41, 42}), CZECH_PAIRS)
    assert ids(qualifiers, FOREIGN) == {"A001", "A002", "A040"}
    assert len(ids(qualifiers, NATIONAL)) == 30


def test_czech_ties_at_the_national_cut_off_all_go():
    """czech-championship.toml, ties_at_cutoff = "all" (the rulebook is silent; WJPC's rule)."""
    qualifiers = qualify(czech_field("A", {1, 2, 3, 4, 5, 6}, p57=1056), CZECH)
    assert len(ids(qualifiers, NATIONAL)) == 51


def czech_foreign_tie(*, p5: Result, p6: Result) -> list[tuple[Entry, Result]]:
    """Group A with foreign entrants 1-6, the 5th and 6th as given."""
    results = czech_field("A", {1, 2, 3, 4, 5, 6})
    results[4] = (results[4][0], p5)
    results[5] = (results[5][0], p6)
    return results


def test_czech_foreign_maximum_of_5_holds_a_tie_settled_by_the_time_before_penalties():
    """czech-championship.txt: "a maximum of 5 foreign competitors from each qualification
    group", the "5 fastest"; czech-championship.toml tie_at_cap = "raw_time": of two foreigners
    tied on the final time for the 5th place, the faster assembly goes."""
    results = czech_foreign_tie(
        p5=Result(Status.FINISHED, time=1005),
        p6=Result(Status.FINISHED, time=995, missing=MissingPieces(1)),
    )
    qualifiers = qualify(results, CZECH)
    assert ids(qualifiers, FOREIGN) == {"A001", "A002", "A003", "A004", "A006"}
    settled = {q.entry.id: q.tie_settled_by for q in qualifiers if q.reason is FOREIGN}
    assert settled == {"A001": "", "A002": "", "A003": "", "A004": "", "A006": "raw_time"}


def test_czech_foreign_maximum_holds_when_the_tie_cannot_be_settled():
    """czech-championship.txt: "a maximum of 5 foreign competitors"; docs/qualification.md:
    entrants still tied after the time before penalties stay out together."""
    results = czech_foreign_tie(p5=Result(Status.FINISHED, time=1005),
                                p6=Result(Status.FINISHED, time=1005))
    assert ids(qualify(results, CZECH), FOREIGN) == {"A001", "A002", "A003", "A004"}
    rules = with_qualification(CZECH, tie_at_cap="leave_out")
    results = czech_foreign_tie(
        p5=Result(Status.FINISHED, time=1005),
        p6=Result(Status.FINISHED, time=995, missing=MissingPieces(1)),
    )
    assert ids(qualify(results, rules), FOREIGN) == {"A001", "A002", "A003", "A004"}


def test_czech_foreign_pairs_maximum_of_3_holds_with_a_tie():
    """czech-championship.txt: "a maximum of 3 foreign pairs from each qualification group"."""
    results = czech_field("A", {1, 2, 3, 4}, p3=1004)
    assert ids(qualify(results, CZECH_PAIRS), FOREIGN) == {"A001", "A002"}


def test_quotas_need_an_official_ranking_to_tell_nationals_from_foreigners():
    """Ruleset schema: a quota is decided by the ruleset's official_ranking."""
    rules = with_qualification(
        WJPC_FIRST, per_group=None, quotas=(Quota(reason="national", per_group=5),)
    )
    with pytest.raises(RulesError) as exc:
        qualify(field("A", 10), rules)
    assert exc.value.code == "qualification.quota_without_official_ranking"


# ---------------------------------------------------------------- replacements


def replace(withdrawn: str, results, rules) -> Qualifier | None:
    ranking = rank_round(results, rules)
    return replacement_for(withdrawn, ranking, qualify_for_next_round(ranking, rules), rules)


def test_a_withdrawn_qualifier_is_replaced_by_the_next_best_of_the_same_group():
    """Default (docs/qualification.md): a place freed by a withdrawal goes to the best entrant
    of the same group not yet qualified."""
    results = field("A", 90) + field("B", 90, start=900)
    assert replace("A010", results, WJPC_FIRST) == Qualifier(results[85][0], 86, "S1", PLACE)


def test_a_quota_place_is_replaced_from_the_same_quota():
    """czech-championship.txt: 50 Czech and 5 foreign places per group; default
    (docs/qualification.md): a freed quota place stays in its quota."""
    results = czech_field("A", {1, 2, 3, 4, 5, 6, 70})
    foreign = replace("A001", results, CZECH)
    national = replace("A010", results, CZECH)
    assert (foreign.entry.id, foreign.reason) == ("A006", FOREIGN)
    assert (national.entry.id, national.reason) == ("A057", NATIONAL)


def test_a_play_off_place_is_replaced_by_the_same_countrys_next_best_or_nobody():
    """wjpc-2025.txt, Play-off; default (docs/qualification.md): the play-off place is the
    country's, so the next best entrant of that country within the scope takes it."""
    results = field("A", 90, {88: "NOR", 90: "NOR", 89: "SWE"}) + field("C", 90, {86: "NOR"})
    replacement = replace("A088", results, WJPC_FIRST)
    assert replacement is not None
    assert (replacement.entry.id, replacement.to_group, replacement.reason) == (
        "A090",
        "S1",
        PLAYOFF,
    )
    assert replace("A089", results, WJPC_FIRST) is None


def test_only_a_qualifier_can_be_replaced():
    """replacement_for refuses an entry that did not qualify."""
    with pytest.raises(RulesError) as exc:
        replace("A089", field("A", 90), WJPC_FIRST)
    assert exc.value.code == "qualification.not_a_qualifier"


# ---------------------------------------------------------------- invariants

# WJPC knows no assistance statuses (australia-state-national.txt only).
STATUSES = st.sampled_from([s for s in Status if s not in (Status.ASSISTED, Status.OUTSIDE_HELP)])
NATIONS = st.sampled_from(["CZE", "GER", "NOR"])
lines = st.lists(
    st.tuples(
        st.sampled_from("ABCD"),
        STATUSES,
        st.integers(1000, 1004),
        st.integers(1, 5),
        NATIONS,
        NATIONS,
    ),
    max_size=40,
)


def as_results(drawn) -> list[tuple[Entry, Result]]:
    results = []
    for index, (group, status, time, pieces, first_nation, second_nation) in enumerate(drawn):
        result = {
            Status.FINISHED: Result(status, time=time),
            Status.UNFINISHED: Result(status, pieces=pieces),
        }.get(status, Result(status))
        entry = entrant(f"e{index}", group, first_nation, first_nation, second_nation)
        results.append((entry, result))
    return results


@given(
    lines,
    st.integers(0, 6),
    st.sampled_from(["next_group", "next_round"]),
    st.sampled_from([None, 1, 2]),
    st.sampled_from([None, 1, 3]),
    st.sampled_from(["raw_time", "leave_out"]),
)
def test_qualifiers_are_the_places_with_their_ties_plus_at_most_one_placing_per_country(
    drawn, places, scope, max_countries, max_entrants, tie_at_cap
):
    """wjpc-2025.txt, Pairs First Round and Play-off: the first N of each group with everyone
    tied with the Nth, plus for each country without a qualifier in the scope its best-placed
    entrants (several only when tied); dns, dsq and mixed pairs never take a play-off place."""
    rules = with_qualification(
        PAIRS_FIRST,
        per_group=places,
        playoff=Playoff(scope=scope, max_countries=max_countries, max_entrants=max_entrants),
        tie_at_cap=tie_at_cap,
    )
    ranking = rank_round(as_results(drawn), rules)
    qualifiers = qualify_for_next_round(ranking, rules)
    event = rules.event
    direct = {q.entry.id for q in qualifiers if q.reason is not PLAYOFF}
    assert direct == {line.entry.id for line in ranking if line.rank and line.rank <= places}
    assert all(line.rank is not None for line in ranking if line.entry.id in ids(qualifiers))

    def scope_of(entry: Entry) -> str:
        return {"A": "S1", "B": "S1"}.get(entry.group, "S2") if scope == "next_group" else ""

    qualified = {
        (scope_of(q.entry), entry_flag(q.entry, event))
        for q in qualifiers
        if q.reason is not PLAYOFF
    }
    statuses = {line.entry.id: line.score.status for line in ranking}
    placings: dict[tuple[str, str], set[int]] = {}
    for q in (q for q in qualifiers if q.reason is PLAYOFF):
        key = (scope_of(q.entry), entry_flag(q.entry, event))
        assert key[1] != "WJPF"
        assert statuses[q.entry.id] not in (Status.DNF, Status.DNS, Status.DSQ)
        assert key not in qualified
        placings.setdefault(key, set()).add(q.rank)
    assert all(len(ranks) == 1 for ranks in placings.values())
    # wjpc-2025.txt: "up to a maximum of 5 countries", "max 15 by play-off": never exceeded.
    for where in {key[0] for key in placings}:
        countries = [key for key in placings if key[0] == where]
        sent = [q for q in qualifiers if q.reason is PLAYOFF and scope_of(q.entry) == where]
        assert max_countries is None or len(countries) <= max_countries
        assert max_entrants is None or len(sent) <= max_entrants
    if max_countries is None and max_entrants is None:
        for line in ranking:
            key = (scope_of(line.entry), entry_flag(line.entry, event))
            playable = line.rank is not None and line.score.status is not Status.DNF
            if playable and key[1] != "WJPF" and key not in qualified:
                assert min(placings[key]) <= line.rank


@given(
    st.lists(st.tuples(st.booleans(), st.integers(1000, 1006)), max_size=40),
    st.integers(0, 5),
    st.integers(0, 3),
)
def test_quotas_are_never_exceeded_except_by_ties_at_their_cut_off(drawn, nationals, foreigners):
    """czech-championship.txt: N fastest Czech residents and M fastest foreigners per group;
    czech-championship.toml ties_at_cutoff = "all": the tied entrants at a cut-off all go."""
    rules = with_qualification(
        CZECH,
        quotas=(
            Quota(reason="national", per_group=nationals),
            Quota(reason="foreign", per_group=foreigners),
        ),
    )
    results = [
        (
            Entry(f"e{i}", group="A", members=(Person(residence="CZE" if czech else "SVK"),)),
            Result(Status.FINISHED, time=time),
        )
        for i, (czech, time) in enumerate(drawn)
    ]
    qualifiers = qualify(results, rules)
    for reason, czech, places in ((NATIONAL, True, nationals), (FOREIGN, False, foreigners)):
        times = sorted(
            result.time
            for entry, result in results
            if (entry.members[0].residence == "CZE") is czech
        )
        ranks = dict(zip(times, competition_ranks(times), strict=False))
        expected = {
            entry.id
            for entry, result in results
            if (entry.members[0].residence == "CZE") is czech and ranks[result.time] <= places
        }
        assert ids(qualifiers, reason) == expected
        if len(expected) > places:
            chosen = sorted(ranks[r.time] for e, r in results if e.id in expected)
            assert len(set(chosen[places - 1 :])) == 1


@given(
    st.lists(st.tuples(st.booleans(), st.integers(1000, 1004), st.integers(0, 2)), max_size=30),
    st.integers(0, 4),
    st.sampled_from(["raw_time", "leave_out"]),
)
def test_a_maximum_quota_is_never_exceeded_and_takes_the_fastest(drawn, foreigners, tie_at_cap):
    """czech-championship.txt: "a maximum of 5 foreign competitors from each qualification
    group" and the "5 fastest": however the times tie, no more go, and nobody left out was
    faster than someone who went (before penalties when the final times tie)."""
    rules = with_qualification(
        CZECH,
        quotas=(Quota(reason="foreign", per_group=foreigners, maximum=True),),
        tie_at_cap=tie_at_cap,
    )
    results = [
        (
            Entry(f"e{i}", group="A", members=(Person(residence="CZE" if czech else "SVK"),)),
            Result(Status.FINISHED, time=time, missing=MissingPieces(missing)),
        )
        for i, (czech, time, missing) in enumerate(drawn)
    ]
    ranking = rank_round(results, rules)
    chosen = ids(qualify_for_next_round(ranking, rules), FOREIGN)
    assert len(chosen) <= foreigners
    foreign = [line for line in ranking if line.eligible is False]

    def order(line) -> tuple[int, int]:
        score = line.score
        return (score.final_time, score.final_time - score.penalty_seconds)

    for went in (line for line in foreign if line.entry.id in chosen):
        for stayed in (line for line in foreign if line.entry.id not in chosen):
            assert order(stayed) >= order(went)
            if tie_at_cap == "leave_out":
                assert stayed.score.final_time > went.score.final_time


def test_a_country_tied_with_itself_at_the_play_off_maximum_still_sends_its_best_entrant():
    """wjpc-2025.txt, Second round: "a maximum of 180 participants per group" (170 go
    directly, 10 places are left to the play-off); Play-off: "If there is
    a tie for position, both participants will qualify". Norway's 100th of group A and 100th
    of group B tie for its place, but only one play-off place is left: tie_at_cap settles the
    tie within Norway first (raw_time: the faster assembly), so Norway still sends one."""
    countries = {86 + n: f"C{n:02d}" for n in range(9)}
    results = field("A", 110, {**countries, 100: "NOR"}) + field("B", 110, {100: "NOR"},
                                                                    start=2000)
    playoff = {q.entry.id: q.tie_settled_by for q in qualify(results, WJPC_FIRST)
               if q.reason is PLAYOFF}
    assert len(playoff) == 10
    assert playoff["A100"] == "raw_time"
    assert "B100" not in playoff


def test_no_play_off_place_stays_empty_while_a_country_that_fits_waits():
    """wjpc-2025.txt, Play-off: every country without a representative sends its best; with
    tie_at_cap = "leave_out" Norway's tie with itself does not fit whole, so Norway sends one
    (its better score, A100), and Sweden, placed behind it, does not pass it over."""
    countries = {86 + n: f"C{n:02d}" for n in range(9)}
    results = field("A", 110, {**countries, 100: "NOR", 101: "SWE"}) + field(
        "B", 110, {100: "NOR"}, start=2000)
    rules = with_qualification(WJPC_FIRST, tie_at_cap="leave_out")
    playoff = ids(qualify(results, rules), PLAYOFF)
    assert len(playoff) == 10
    assert "A101" not in playoff
    assert {"A100", "B100"} & playoff == {"A100"}
