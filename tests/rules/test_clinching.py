"""Clinched, provisional or out while a round runs: entrants still puzzling may finish ahead of
anyone, and a pending check may charge the recorded missing pieces as the penalty rule says."""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlecomp.rules.clinching import (
    Certainty,
    least_charged,
    most_charged,
    qualification_certainty,
)
from puzzlecomp.rules.people import Person
from puzzlecomp.rules.qualification import QualifyReason, qualify_for_next_round
from puzzlecomp.rules.ranking import rank_round
from puzzlecomp.rules.results import Entry, MissingPieces, Result, Status
from puzzlecomp.rules.ruleset import Quota
from tests.conftest import round_of
from tests.rules.test_qualification import with_qualification

WJPC_SECOND = round_of("wjpc-2025", "individual", "second")
WJPC_FIRST = round_of("wjpc-2025", "individual", "first")
CZECH = round_of("czech-championship", "individual", "qualification")
CLINCHED, PROVISIONAL, OUT = Certainty.CLINCHED, Certainty.PROVISIONAL, Certainty.OUT


def entrant(number: int, group: str = "S1", country: str = "CZE") -> Entry:
    return Entry(f"{number}", country=country, group=group,
                 members=(Person(nationality=country, residence=country),))


def finish(time: int, missing: int = 0) -> Result:
    return Result(Status.FINISHED, time=time, missing=MissingPieces(missing))


def certainty(results, rules, *, pending=(), puzzling=()):
    ranking = rank_round(results, rules)
    return qualification_certainty(ranking, rules, pending=pending, puzzling=puzzling)


def three_places(ties: str = "all"):
    return with_qualification(WJPC_SECOND, per_group=3, ties_at_cutoff=ties)


def test_places_nobody_can_take_any_more_are_clinched():
    """wjpc-2025.txt, Individual Second Round: the first 60 qualified access the final (three
    here). With one entrant still puzzling, the best two can no longer be passed by three."""
    results = [(entrant(n), finish(1000 + n)) for n in range(1, 6)]
    found = certainty(results, three_places(), puzzling=[entrant(9)])
    assert [found[str(n)] for n in range(1, 6)] == [CLINCHED, CLINCHED, PROVISIONAL, OUT, OUT]


def test_nothing_is_clinched_while_enough_entrants_still_puzzle():
    """wjpc-2025.txt: places go by the results; three entrants still at the tables could all
    finish ahead of everyone, so no place of three is certain yet; the 4th and 5th, behind
    three finishers already, are out."""
    results = [(entrant(n), finish(1000 + n)) for n in range(1, 6)]
    found = certainty(results, three_places(), puzzling=[entrant(n) for n in (7, 8, 9)])
    assert [found[str(n)] for n in range(1, 6)] == [PROVISIONAL] * 3 + [OUT] * 2


def test_a_pending_check_may_charge_every_missing_piece():
    """wjpc-2025.txt, Time Recording and Piece Count: 5 seconds per missing piece, none for
    contiguous missing pieces. Entrant 2's check may charge its 4 pieces (20 s): it could fall
    behind entrant 3, so its place is only expected; entrant 3 may pass it, so is not out."""
    results = [(entrant(1), finish(1000)), (entrant(2), finish(1010, missing=4)),
               (entrant(3), finish(1020)), (entrant(4), finish(1100))]
    found = certainty(results, with_qualification(WJPC_SECOND, per_group=2), pending=["2"])
    assert found == {"1": CLINCHED, "2": PROVISIONAL, "3": PROVISIONAL, "4": OUT}


def test_a_checked_finish_adds_nothing_more():
    """Once checked, entrant 2's penalty is what it is (20 s, 0:16:50): its place is clinched,
    and entrant 3 can no longer pass it."""
    results = [(entrant(1), finish(1000)), (entrant(2), finish(1010, missing=4)),
               (entrant(3), finish(1040)), (entrant(4), finish(1100))]
    found = certainty(results, with_qualification(WJPC_SECOND, per_group=2))
    assert found == {"1": CLINCHED, "2": CLINCHED, "3": OUT, "4": OUT}


def test_the_last_round_marks_nobody():
    """wjpc-2025.txt: the final decides the champion; nobody qualifies from it."""
    final = round_of("wjpc-2025", "individual", "final")
    assert certainty([(entrant(1, ""), finish(1000))], final) == {}


def test_a_play_off_place_is_never_clinched_and_nobody_is_out_of_a_round_with_a_play_off():
    """wjpc-2025.txt, Individual First Round: a country play-off follows the 85 places; another
    country's better result can take a play-off place away, so it stays expected."""
    rules = with_qualification(WJPC_FIRST, per_group=1)
    results = [(entrant(1, "A", "CZE"), finish(1000)), (entrant(2, "A", "ESP"), finish(1100))]
    found = certainty(results, rules)
    assert found == {"1": CLINCHED, "2": PROVISIONAL}


# ---------------------------------------------------------------- invariants over completions

RULES = {
    "places": three_places(),
    "places, ties stay out": three_places("none"),
    "quotas": with_qualification(CZECH, quotas=(
        Quota(reason="national", per_group=2), Quota(reason="foreign", per_group=1,
                                                      maximum=True))),
    "play-off": with_qualification(WJPC_FIRST, per_group=2),
}
GROUP = {"places": "S1", "places, ties stay out": "S1", "quotas": "A", "play-off": "A"}


@st.composite
def running_rounds(draw):
    """A running round: finishes (some awaiting a check with missing pieces), counts, dnfs and
    entrants still puzzling, with close times so ties and overtakes happen."""
    name = draw(st.sampled_from(sorted(RULES)))
    group = GROUP[name]
    size = draw(st.integers(2, 9))
    results, pending, puzzling = [], [], []
    for number in range(1, size + 1):
        country = draw(st.sampled_from(["CZE", "CZE", "SVK", "ESP"]))
        entry = entrant(number, group, country)
        kind = draw(st.sampled_from(["finish", "pending", "count", "dnf", "puzzling"]))
        if kind == "puzzling":
            puzzling.append(entry)
        elif kind == "count":
            results.append((entry, Result(Status.UNFINISHED, pieces=draw(st.integers(0, 499)))))
        elif kind == "dnf":
            results.append((entry, Result(Status.DNF)))
        else:
            missing = draw(st.integers(0, 4))
            results.append((entry, finish(draw(st.integers(100, 140)), missing)))
            if kind == "pending":
                pending.append(entry.id)
    return name, results, pending, puzzling


@st.composite
def completions(draw, results, pending, puzzling):
    """One way the round can end: each entrant still puzzling finishes, counts or gives up; each
    pending check finds the recorded missing pieces in clusters or elsewhere as it may."""
    ended = []
    for entry, result in results:
        if entry.id in pending:
            count = result.missing.missing
            contiguous = draw(st.sampled_from([0, *range(2, count + 1)]))
            found = draw(st.integers(0, count))
            result = Result(Status.FINISHED, time=result.time,
                            missing=MissingPieces(count, contiguous, found))
        ended.append((entry, result))
    for entry in puzzling:
        ended.append((entry, draw(st.one_of(
            st.builds(finish, st.integers(1, 200), st.integers(0, 3)),
            st.builds(lambda p: Result(Status.UNFINISHED, pieces=p), st.integers(0, 499)),
            st.just(Result(Status.DNF))))))
    return ended


def direct_qualifiers(results, rules) -> set[str]:
    return {q.entry.id for q in qualify_for_next_round(rank_round(results, rules), rules)
            if q.reason is not QualifyReason.PLAYOFF}


def all_qualifiers(results, rules) -> set[str]:
    return {q.entry.id for q in qualify_for_next_round(rank_round(results, rules), rules)}


@settings(max_examples=300)
@given(st.data())
def test_a_clinched_entrant_qualifies_and_an_entrant_out_stays_out_in_every_completion(data):
    """Clinched means qualified whatever happens; out means out whatever happens (wjpc-2025.txt
    places and ties, czech-championship.txt national and foreign quotas)."""
    name, results, pending, puzzling = data.draw(running_rounds())
    rules = RULES[name]
    found = certainty(results, rules, pending=pending, puzzling=puzzling)
    ended = data.draw(completions(results, pending, puzzling))
    qualified = all_qualifiers(ended, rules)
    assert {i for i, c in found.items() if c is CLINCHED} <= direct_qualifiers(ended, rules)
    assert not {i for i, c in found.items() if c is OUT} & qualified


@settings(max_examples=200)
@given(running_rounds())
def test_never_more_clinched_than_places(round_):
    """wjpc-2025.txt gives 60 places (three here); with ties staying out they are a maximum,
    and clinched places never exceed it."""
    _, results, pending, puzzling = round_
    rules = RULES["places, ties stay out"]
    results = [(dataclasses.replace(e, group="S1"), r) for e, r in results]
    puzzling = [dataclasses.replace(e, group="S1") for e in puzzling]
    found = certainty(results, rules, pending=pending, puzzling=puzzling)
    assert sum(1 for c in found.values() if c is CLINCHED) <= 3


def test_the_charges_bound_what_a_check_may_find():
    """The least charge puts every missing piece in one cluster; the most finds them all."""
    recorded = finish(100, missing=3)
    assert least_charged(recorded).missing == MissingPieces(3, 3, 0)
    assert most_charged(recorded).missing == MissingPieces(3, 0, 3)
    assert least_charged(finish(100, missing=1)).missing == MissingPieces(1, 0, 0)
