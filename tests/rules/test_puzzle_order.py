"""Impossible records refused: multi-puzzle order, finishes at 0 s or past the limit, unfinished
results with a finish time."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.puzzle_order import puzzle_stages
from puzzlecomp.rules.ranking import rank_round
from puzzlecomp.rules.results import Entry, PuzzleRecord, Result, Status
from puzzlecomp.rules.rounds import RoundRules
from puzzlecomp.rules.scoring import score_result
from tests.conftest import round_of

WJPC_TEAMS = round_of("wjpc-2025", "teams", "first")
CZECH_TEAMS = round_of("czech-championship", "teams", "final")
RELAY = round_of("czech-blind-relay", "relay")
WJPC_FIRST = round_of("wjpc-2025", "individual", "first")


def refusals(result: Result, rules: RoundRules) -> set[tuple[str, str]]:
    """(code, field) of every refusal, each naming the entry."""
    with pytest.raises(RulesError) as caught:
        score_result(result, rules, entry="T7")
    assert all(v.entry == "T7" for v in caught.value.violations)
    return {(v.code, v.field) for v in caught.value.violations}


def test_wjpc_teams_pieces_on_the_second_puzzle_while_the_first_is_unfinished_are_refused():
    """wjpc-2025.txt, Teams: "not being able to start assembling second puzzle until first
    puzzle has been correctly completed"."""
    result = Result(Status.UNFINISHED, puzzles=(PuzzleRecord(pieces=700), PuzzleRecord(pieces=50)))
    assert refusals(result, WJPC_TEAMS) == {("result.puzzle_out_of_order", "puzzle 2")}


def test_wjpc_teams_second_puzzle_finished_before_the_first_is_refused():
    """wjpc-2025.txt, Teams: the second puzzle starts after the first is verified."""
    result = Result(Status.FINISHED, puzzles=(PuzzleRecord(time=6000), PuzzleRecord(time=5000)))
    assert refusals(result, WJPC_TEAMS) == {("result.puzzle_before_previous", "puzzle 2")}


def test_wjpc_teams_second_puzzle_counted_after_the_first_is_finished_ranks():
    """wjpc-2025.txt, Teams: the count at the limit covers the puzzle being assembled."""
    result = Result(Status.UNFINISHED, puzzles=(PuzzleRecord(time=6000), PuzzleRecord(pieces=50)))
    assert score_result(result, WJPC_TEAMS).pieces == 1050


def test_czech_teams_may_take_either_puzzle_first_but_only_one_at_a_time():
    """czech-championship.txt, Teams: the order the team chooses, one puzzle on the table at a
    time."""
    chosen = Result(Status.UNFINISHED, puzzles=(PuzzleRecord(pieces=640), PuzzleRecord(time=3100)))
    assert score_result(chosen, CZECH_TEAMS).pieces == 1140
    both = Result(Status.UNFINISHED, puzzles=(PuzzleRecord(pieces=640), PuzzleRecord(pieces=20)))
    assert refusals(both, CZECH_TEAMS) == {("result.puzzles_at_once", "puzzle 2")}


def test_relay_final_part_before_the_earlier_parts_ended_is_refused():
    """czech-blind-and-relay.txt, 3.3-3.5: each part starts after the previous one is finished
    and checked; the 1000-piece puzzle comes last."""
    records = [PuzzleRecord(time=1000 * (i + 1)) for i in range(7)]
    early = Result(Status.FINISHED, puzzles=(*records, PuzzleRecord(time=6500)))
    assert refusals(early, RELAY) == {("result.puzzle_before_previous", "puzzle 8")}
    counted = Result(Status.UNFINISHED, puzzles=(
        *records[:6], PuzzleRecord(pieces=300), PuzzleRecord(pieces=200)))
    assert refusals(counted, RELAY) == {("result.puzzle_out_of_order", "puzzle 8")}


def test_relay_puzzles_of_one_part_finish_in_any_order():
    """czech-blind-and-relay.txt, 3.2: the four individuals' puzzles are assembled together."""
    records = (PuzzleRecord(time=2000), PuzzleRecord(time=900), PuzzleRecord(time=1500),
               PuzzleRecord(time=1200), *(PuzzleRecord(time=3000 + i) for i in range(4)))
    assert score_result(Result(Status.FINISHED, puzzles=records), RELAY).final_time == 3003


def test_any_puzzle_finished_past_the_limit_is_refused_even_when_the_team_is_unfinished():
    """wjpc-2025.txt, Teams: 3 hours for both puzzles; every finish is within the limit."""
    result = Result(Status.UNFINISHED, puzzles=(PuzzleRecord(time=10801), PuzzleRecord(pieces=5)))
    assert refusals(result, WJPC_TEAMS) == {("result.finish_past_limit", "puzzle 1")}
    credited = Result(Status.UNFINISHED, time_credit=60,
                      puzzles=(PuzzleRecord(time=10801), PuzzleRecord(pieces=5)))
    assert score_result(credited, WJPC_TEAMS).pieces == 1005


def test_an_unfinished_team_whose_every_puzzle_has_a_finish_is_refused():
    """wjpc-2025.txt, Teams: a team that finished both puzzles is ranked by its time."""
    result = Result(Status.UNFINISHED, puzzles=(PuzzleRecord(time=5000), PuzzleRecord(time=9000)))
    assert refusals(result, WJPC_TEAMS) == {("result.unfinished_all_finished", "status")}


def test_a_single_puzzle_unfinished_with_a_finish_time_is_refused():
    """wjpc-2025.txt, Unfinished Puzzles: an unfinished puzzle is ranked by its count."""
    result = Result(Status.UNFINISHED, time=3000, pieces=400)
    assert refusals(result, WJPC_FIRST) == {("result.unfinished_with_time", "time")}


def test_a_finish_at_zero_seconds_is_refused():
    """wjpc-2025.txt, Time Recording: the time runs from the start of the round."""
    assert refusals(Result(Status.FINISHED, time=0), WJPC_FIRST) == {
        ("result.finish_at_zero", "time")}
    zero = Result(Status.FINISHED, puzzles=(PuzzleRecord(time=0), PuzzleRecord(time=9000)))
    assert ("result.finish_at_zero", "puzzle 1") in refusals(zero, WJPC_TEAMS)


def test_a_finisher_with_a_piece_count_is_refused_even_when_the_count_is_the_whole_puzzle():
    """wjpc-2025.txt, Unfinished Puzzles: pieces are counted only when the maximum time is
    reached with the puzzle incomplete; a finish is a time. Issue 23, item 3: a count beside a
    finish is a contradiction, refused rather than read past (rules/contradictions.py)."""
    assert refusals(Result(Status.FINISHED, time=3000, pieces=500), WJPC_FIRST) == {
        ("result.finished_with_count", "pieces")}


def test_a_team_that_broke_the_order_never_beats_one_that_kept_it():
    """wjpc-2025.txt, Teams: a broken order is refused, so it cannot outrank anyone."""
    kept = Result(Status.UNFINISHED, puzzles=(PuzzleRecord(time=9000), PuzzleRecord(pieces=100)))
    broke = Result(Status.UNFINISHED, puzzles=(PuzzleRecord(pieces=900), PuzzleRecord(pieces=900)))
    with pytest.raises(RulesError) as caught:
        rank_round([(Entry("kept"), kept), (Entry("broke"), broke)], WJPC_TEAMS)
    assert [(v.entry, v.code) for v in caught.value.violations] == [
        ("broke", "result.puzzle_out_of_order")]


def puzzle_records(sizes: tuple[int, ...]) -> st.SearchStrategy[tuple[PuzzleRecord, ...]]:
    one = st.one_of(
        st.builds(PuzzleRecord, time=st.integers(1, 18000)),
        st.builds(PuzzleRecord, pieces=st.integers(0, 500)),
        st.just(PuzzleRecord(pieces=0)),
    )
    return st.tuples(*(one for _ in sizes))


def order_kept(records: tuple[PuzzleRecord, ...], rules: RoundRules) -> bool:
    """The rulebooks' order stated plainly: stages finish one after another, nothing of a stage
    is touched before every earlier stage is finished, a stage's finishes come at least the
    ruleset's gap (1 s) after the stage before ended, and every finish is within the limit;
    where the entry chooses the order, at most one unfinished puzzle holds pieces and no two
    puzzles finish less than the gap apart."""
    gap = rules.ruleset.next_finish_after_seconds
    if any(r.time is not None and r.time > rules.time_limit_seconds for r in records):
        return False
    if rules.round.puzzle_order == "chosen":
        finishes = sorted(r.time for r in records if r.time is not None)
        if any(later - earlier < gap for earlier, later in pairwise(finishes)):
            return False
        return sum(r.time is None and (r.pieces or 0) > 0 for r in records) <= 1
    ended: int | None = None
    for number, stage in enumerate(puzzle_stages(rules.round)):
        times = [records[i].time for i in stage]
        if number and ended is None:
            if any(records[i].time is not None or (records[i].pieces or 0) > 0 for i in stage):
                return False
            continue
        if number and any(t is not None and t < ended + gap for t in times):
            return False
        ended = max(times) if all(t is not None for t in times) else None  # type: ignore[type-var]
    return True


@given(st.data())
def test_no_record_that_breaks_a_multi_puzzle_order_is_ever_ranked(data):
    """wjpc-2025.txt (teams), czech-championship.txt (teams: one puzzle at a time, in the
    team's order) and czech-blind-and-relay.txt (3.2-3.6): property over every record of the
    two-puzzle teams rounds and the eight-puzzle relay."""
    rules = data.draw(st.sampled_from([WJPC_TEAMS, CZECH_TEAMS, RELAY]))
    records = data.draw(puzzle_records(rules.puzzle_sizes))
    finished = all(r.time is not None for r in records)
    result = Result(Status.FINISHED if finished else Status.UNFINISHED, puzzles=records)
    try:
        score_result(result, rules)
    except RulesError:
        assert not order_kept(records, rules)
    else:
        assert order_kept(records, rules)

