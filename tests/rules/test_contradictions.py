"""Records that say two things at once are refused, every one of them (issue 23, item 3;
rules/contradictions.py, docs/rulesets.md "Contradictory records")."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlecomp.rules.errors import RulesError
from puzzlecomp.rules.results import MissingPieces, PuzzleRecord, Result, Status
from puzzlecomp.rules.rounds import RoundRules
from puzzlecomp.rules.scoring import score_result
from tests.conftest import round_of

WJPC_FIRST = round_of("wjpc-2025", "individual", "first")
WJPC_TEAMS = round_of("wjpc-2025", "teams", "first")
STATE = round_of("australia-state", "individual", time_limit_minutes=90, pieces=500)
NOT_FINISHED = [Status.UNFINISHED, Status.DNF, Status.DSQ, Status.DNS, Status.ASSISTED,
                Status.OUTSIDE_HELP]


def refusals(result: Result, rules: RoundRules) -> set[tuple[str, str]]:
    with pytest.raises(RulesError) as caught:
        score_result(result, rules, entry="E1")
    assert all(v.entry == "E1" for v in caught.value.violations)
    return {(v.code, v.field) for v in caught.value.violations}


@pytest.mark.parametrize("count", [{"pieces": 499}, {"pieces": 500}, {"remaining": 0},
                                   {"remaining": 3}])
def test_a_finished_result_with_a_piece_or_remaining_count_is_refused(count):
    """wjpc-2025.txt, Unfinished Puzzles: pieces are counted when the maximum time is reached
    and the puzzle is incomplete; a finished puzzle has its time (Recording Time)."""
    [(name, _)] = count.items()
    assert refusals(Result(Status.FINISHED, time=3000, **count), WJPC_FIRST) == {
        ("result.finished_with_count", name)}


@pytest.mark.parametrize("status", NOT_FINISHED)
def test_a_result_without_a_finish_has_no_missing_pieces(status):
    """wjpc-2025.txt, Stopping the Timer with Pieces Remaining: the missing pieces are noted
    when the participant says TIME or STOP, that is at a finish; australia-state-national.txt:
    "A ten second penalty will be applied per missing piece when a competitor declares they are
    complete". Unfinished, dnf, dsq, dns and the assistance statuses have none."""
    count = {"pieces": 300} if status is Status.UNFINISHED else {}
    found = refusals(Result(status, missing=MissingPieces(2), **count), STATE)
    assert ("result.missing_without_finish", "missing") in found


@pytest.mark.parametrize("status", [Status.DSQ, Status.DNF, Status.DNS])
@pytest.mark.parametrize("puzzle", [PuzzleRecord(time=3000), PuzzleRecord(pieces=120),
                                    PuzzleRecord(remaining=880)])
def test_a_dsq_or_dnf_holds_no_per_puzzle_time_or_count(status, puzzle):
    """wjpc-2025.txt, Teams: a team's times are logged per puzzle when it finishes and pieces
    are counted at the limit; a result that is disqualified or gave up is ranked by neither."""
    result = Result(status, puzzles=(puzzle, PuzzleRecord()))
    assert refusals(result, WJPC_TEAMS) == {("result.puzzles_with_status", "puzzles")}


@pytest.mark.parametrize("count", [{"pieces": 1000}, {"remaining": 0}])
def test_a_finished_puzzle_with_a_count_is_refused(count):
    """wjpc-2025.txt, Teams: the judge verifies the completed puzzle and records its time; a
    count is made of an unfinished puzzle only."""
    result = Result(Status.UNFINISHED, puzzles=(PuzzleRecord(time=3000, **count),
                                                PuzzleRecord(pieces=10)))
    assert refusals(result, WJPC_TEAMS) == {("result.finished_with_count", "puzzle 1")}


def test_an_unfinished_puzzle_with_missing_pieces_is_refused():
    """wjpc-2025.txt, Stopping the Timer: missing pieces are noted at a finish only."""
    result = Result(Status.UNFINISHED, puzzles=(PuzzleRecord(time=3000),
                                                PuzzleRecord(pieces=10, missing=MissingPieces(1))))
    assert refusals(result, WJPC_TEAMS) == {("result.missing_without_finish", "puzzle 2")}


def test_a_plain_time_that_disagrees_with_the_last_puzzle_finish_is_refused():
    """wjpc-2025.txt, Teams Final: the team's time is that of assembling both puzzles, i.e. its
    last puzzle's finish. A plain time beside the puzzles' times must be that finish: a
    disagreeing one is an error, not a silent winner over the puzzles."""
    puzzles = (PuzzleRecord(time=3000), PuzzleRecord(time=6000))
    assert refusals(Result(Status.FINISHED, time=5000, puzzles=puzzles), WJPC_TEAMS) == {
        ("result.time_disagrees", "time")}
    agreeing = score_result(Result(Status.FINISHED, time=6000, puzzles=puzzles), WJPC_TEAMS)
    assert agreeing.final_time == 6000


def test_a_finished_result_needs_every_puzzle_finished_even_with_a_plain_time():
    """wjpc-2025.txt, Teams Final: a team is finished when both puzzles are assembled; a plain
    time does not finish a puzzle that holds only a count."""
    result = Result(Status.FINISHED, time=6000, puzzles=(PuzzleRecord(time=3000),
                                                         PuzzleRecord(pieces=900)))
    assert refusals(result, WJPC_TEAMS) == {("result.finish_without_time", "puzzle 2")}


# ------------------------------------------------------------------ the property
COUNTS = st.one_of(st.none(), st.integers(0, 1000))
MISSING = st.one_of(st.just(MissingPieces()), st.builds(MissingPieces, st.integers(1, 4)))
PUZZLE = st.builds(PuzzleRecord, time=st.one_of(st.none(), st.integers(1, 10800)),
                   pieces=COUNTS, remaining=COUNTS, missing=MISSING)
RECORD = st.builds(
    Result, status=st.sampled_from(list(Status)), time=st.one_of(st.none(), st.integers(1, 10800)),
    pieces=COUNTS, remaining=COUNTS, missing=MISSING,
    puzzles=st.one_of(st.just(()), st.tuples(PUZZLE, PUZZLE)))


def contradictions(result: Result, sizes: tuple[int, ...]) -> list[str]:
    """The pairs of facts the rulebooks never let a record hold together, stated plainly."""
    found = []
    if result.status is Status.UNFINISHED and result.puzzles:
        total = sum(size if p.time is not None else p.pieces if p.pieces is not None
                    else size - p.remaining if p.remaining is not None else 0
                    for p, size in zip(result.puzzles, sizes, strict=True))
        if result.pieces is not None and result.pieces != total:
            found.append("a plain piece count that is not the puzzles' total")
        if result.remaining is not None and sum(sizes) - result.remaining != total:
            found.append("a plain remaining count that is not the puzzles' total")
    finished = result.status is Status.FINISHED
    if finished and (result.pieces is not None or result.remaining is not None):
        found.append("finished with a count")
    if not finished and result.missing != MissingPieces():
        found.append("missing pieces without a finish")
    if result.status not in (Status.FINISHED, Status.UNFINISHED) and any(
            p != PuzzleRecord() for p in result.puzzles):
        found.append("per-puzzle facts of a result with neither time nor count")
    for puzzle in result.puzzles:
        if puzzle.time is not None and (puzzle.pieces is not None
                                        or puzzle.remaining is not None):
            found.append("a finished puzzle with a count")
        if puzzle.time is None and puzzle.missing != MissingPieces():
            found.append("an unfinished puzzle with missing pieces")
        if finished and puzzle.time is None:
            found.append("a finished result with an unfinished puzzle")
    times = [p.time for p in result.puzzles]
    if (finished and result.time is not None and times and None not in times
            and result.time != max(t for t in times if t is not None)):
        found.append("a plain time that is not the last finish")
    return found


@settings(max_examples=400)
@given(record=RECORD, rules=st.sampled_from([WJPC_FIRST, WJPC_TEAMS, STATE]))
def test_no_accepted_record_holds_two_facts_that_contradict_each_other(record, rules):
    """Issue 23, item 3, over every status, count, missing-piece and per-puzzle shape: what the
    engine accepts (and so every path stores or ranks) never contradicts itself."""
    if record.puzzles and len(rules.puzzle_sizes) == 1:
        record = Result(record.status, record.time, record.pieces, record.remaining,
                        record.missing)
    try:
        score_result(record, rules)
    except RulesError:
        return
    assert contradictions(record, rules.puzzle_sizes) == []


def test_a_plain_count_that_disagrees_with_the_puzzles_counts_is_refused():
    """wjpc-2025.txt, Teams Final: an unfinished team is ranked by "the highest number of pieces
    correctly" placed, counted per puzzle; a plain total beside them must be their sum."""
    puzzles = (PuzzleRecord(time=3000), PuzzleRecord(pieces=400))
    assert refusals(Result(Status.UNFINISHED, pieces=1300, puzzles=puzzles), WJPC_TEAMS) == {
        ("result.count_disagrees", "pieces")}
    assert refusals(Result(Status.UNFINISHED, remaining=500, puzzles=puzzles), WJPC_TEAMS) == {
        ("result.count_disagrees", "remaining")}
    agreeing = Result(Status.UNFINISHED, pieces=1400, puzzles=puzzles)
    assert score_result(agreeing, WJPC_TEAMS).pieces == 1400
